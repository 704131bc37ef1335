import { describe, expect, it } from 'vitest';
import { pageAfterDeletion, reviewName, targetPath } from './reviews';

describe('targetPath', () => {
  it('opens a visible listing on the explore page', () => {
    expect(targetPath({ target_type: 'property', target_id: 12, target_title: 'Sea view flat' })).toBe('/explore/12');
  });

  it('has no page for a listing that is gone or hidden, nor for agents and agencies', () => {
    expect(targetPath({ target_type: 'property', target_id: 12, target_title: null })).toBeNull();
    expect(targetPath({ target_type: 'agent', target_id: 3, target_title: 'Ann Agent' })).toBeNull();
    expect(targetPath({ target_type: 'agency', target_id: 4, target_title: 'Acme' })).toBeNull();
  });
});

describe('reviewName', () => {
  it('names a review by its title, else its target, else the fallback', () => {
    expect(reviewName({ title: 'Great', target_title: 'Flat' }, 'your review')).toBe('Great');
    expect(reviewName({ title: '  ', target_title: 'Flat' }, 'your review')).toBe('Flat');
    expect(reviewName({ title: '', target_title: null }, 'your review')).toBe('your review');
  });
});

describe('pageAfterDeletion', () => {
  it('stays on a page that still has reviews, and on the first page', () => {
    expect(pageAfterDeletion(3, 2, 3)).toBe(3);
    expect(pageAfterDeletion(1, 0, 0)).toBe(1);
  });

  it('steps back from a page left empty', () => {
    expect(pageAfterDeletion(3, 0, 2)).toBe(2);
    expect(pageAfterDeletion(5, 0, 2)).toBe(2);
  });
});
