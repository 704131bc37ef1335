import { describe, expect, it } from 'vitest';
import { agentStanding, attachPath, detachPath } from './agents';

describe('agency agents', () => {
  it('tells ours, free and another agency’s agents apart', () => {
    expect(agentStanding({ agency: null }, 7)).toBe('free');
    expect(agentStanding({ agency: { id: 7, name: 'A', slug: 'a' } }, 7)).toBe('ours');
    expect(agentStanding({ agency: { id: 6, name: 'B', slug: 'b' } }, 7)).toBe('other');
  });

  it('builds the attach and detach routes', () => {
    expect(attachPath(7)).toBe('/agencies/7/agents');
    expect(detachPath(7, 30)).toBe('/agencies/7/agents/30');
  });
});
