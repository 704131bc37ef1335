import { describe, expect, it } from 'vitest';
import { findTarget, reviewsPath, reviewTargets, stars, targetKey } from './targets';

describe('review targets', () => {
  it('lists the agency, the agent record, then reviewed listings', () => {
    const targets = reviewTargets({ agent_id: 30, agency_id: 7 }, [
      { id: 1, title: 'Villa', reviews_count: 2 },
      { id: 2, title: 'Flat', reviews_count: 0 },
      { id: 3, title: 'Loft' },
    ]);
    expect(targets).toEqual([
      { type: 'agency', id: 7 },
      { type: 'agent', id: 30 },
      { type: 'property', id: 1, title: 'Villa', reviews: 2 },
    ]);
    expect(reviewTargets(null, [])).toEqual([]);
    expect(reviewTargets({ agent_id: null, agency_id: null }, [])).toEqual([]);
  });

  it('finds a target by its key, else the first', () => {
    const targets = reviewTargets({ agent_id: 30, agency_id: 7 }, []);
    expect(targetKey(targets[1]!)).toBe('agent:30');
    expect(findTarget(targets, 'agent:30')).toEqual({ type: 'agent', id: 30 });
    expect(findTarget(targets, 'agent:99')).toEqual({ type: 'agency', id: 7 });
    expect(findTarget(targets, null)).toEqual({ type: 'agency', id: 7 });
    expect(findTarget([], 'agent:1')).toBeUndefined();
  });

  it('reads each target on its own route', () => {
    expect(reviewsPath({ type: 'agent', id: 30 })).toBe('/agents/30/reviews');
    expect(reviewsPath({ type: 'agency', id: 7 })).toBe('/agencies/7/reviews');
    expect(reviewsPath({ type: 'property', id: 12 })).toBe('/properties/12/reviews');
  });

  it('draws five stars', () => {
    expect(stars(4)).toBe('★★★★☆');
    expect(stars(4.6)).toBe('★★★★★');
    expect(stars(0)).toBe('☆☆☆☆☆');
    expect(stars(9)).toBe('★★★★★');
  });
});
