import { describe, expect, it } from 'vitest';
import { fillPath } from '../../refine/data-provider';
import { AGENCY_AGENTS_PATH, agentStanding, attachPath, detachPath, pageToShow } from './agents';

describe('agency agents', () => {
  it('tells ours, free and another agency’s agents apart', () => {
    expect(agentStanding({ agency: null }, 7)).toBe('free');
    expect(agentStanding({ agency: { id: 7, name: 'A', slug: 'a' } }, 7)).toBe('ours');
    expect(agentStanding({ agency: { id: 6, name: 'B', slug: 'b' } }, 7)).toBe('other');
  });

  it('reads the agency’s own list (hidden agents included), and builds the attach and detach routes', () => {
    expect(fillPath(AGENCY_AGENTS_PATH, { id: 7 })).toBe('/agencies/7/agents');
    expect(attachPath(7)).toBe('/agencies/7/agents');
    expect(detachPath(7, 30)).toBe('/agencies/7/agents/30');
  });

  it('steps back a page when the last agent of a later page is gone', () => {
    expect(pageToShow(1, 0, 0)).toBe(1);
    expect(pageToShow(2, 3, 2)).toBe(2);
    expect(pageToShow(3, 0, 2)).toBe(2);
    expect(pageToShow(5, 0, 0)).toBe(1);
  });
});
