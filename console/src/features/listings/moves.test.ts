import { describe, expect, it } from 'vitest';
import { allowedMoves } from './moves';

describe('allowedMoves', () => {
  it('follows the listing state machine of docs/api.md 3.3', () => {
    expect(allowedMoves('draft')).toEqual(['submit_listing']);
    expect(allowedMoves('pending')).toEqual([]);
    expect(allowedMoves('publish')).toEqual(['hold', 'sold']);
    expect(allowedMoves('on_hold')).toEqual(['live', 'sold']);
    expect(allowedMoves('sold')).toEqual(['live']);
    expect(allowedMoves('expired')).toEqual(['live']);
    expect(allowedMoves('disapproved')).toEqual([]);
  });
});
