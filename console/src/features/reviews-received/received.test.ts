import { describe, expect, it } from 'vitest';
import { REVIEW_TARGET_TYPES } from '../../api/reviews';
import { fromCrudFilters, targetFilter, targetPath, toCrudFilters } from './received';

describe('targetFilter', () => {
  it('keeps the three kinds of target the API filters on', () => {
    for (const type of REVIEW_TARGET_TYPES) expect(targetFilter(type)).toBe(type);
  });

  it('reads anything else as every kind (no parameter)', () => {
    for (const value of ['', 'user', 'Property', undefined, null, 3, ['agent']]) expect(targetFilter(value)).toBe('');
  });
});

describe('the target-type filter', () => {
  it('sends `target_type` for one kind and nothing for every kind', () => {
    expect(toCrudFilters('agent')).toEqual([{ field: 'target_type', operator: 'eq', value: 'agent' }]);
    expect(toCrudFilters('')).toEqual([]);
  });

  it('reads back what it wrote, and ignores other filters and unknown values', () => {
    for (const filter of ['', ...REVIEW_TARGET_TYPES] as const) expect(fromCrudFilters(toCrudFilters(filter))).toBe(filter);
    expect(fromCrudFilters([{ field: 'keyword', operator: 'eq', value: 'agency' }])).toBe('');
    expect(fromCrudFilters([{ field: 'target_type', operator: 'eq', value: 'user' }])).toBe('');
  });
});

describe('targetPath', () => {
  it('opens the caller’s listing in the listing editor', () => {
    expect(targetPath({ target_type: 'property', target_id: 12, target_title: 'Sea view flat' })).toBe('/listings/12/edit');
  });

  it('has no page for agents and agencies, nor for a target without a title', () => {
    expect(targetPath({ target_type: 'agent', target_id: 3, target_title: 'Ann Agent' })).toBeNull();
    expect(targetPath({ target_type: 'agency', target_id: 7, target_title: 'Sunny Homes' })).toBeNull();
    expect(targetPath({ target_type: 'property', target_id: 12, target_title: null })).toBeNull();
  });
});
