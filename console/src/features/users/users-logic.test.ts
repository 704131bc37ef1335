import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionsFor, fromCrudFilters, nameOf, ROLES, toCrudFilters, toggledStatus } from './users-logic';

describe('users filters', () => {
  it('sends only set, valid filters, the search trimmed', () => {
    expect(toCrudFilters({ search: '  ana ', role: 'agent', status: '' })).toEqual([
      { field: 'search', operator: 'eq', value: 'ana' },
      { field: 'role', operator: 'eq', value: 'agent' },
    ]);
    expect(toCrudFilters({ search: ' ', role: 'emperor', status: 'suspended' })).toEqual([
      { field: 'status', operator: 'eq', value: 'suspended' },
    ]);
  });

  it('reads back what it wrote (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }).map((text) => text.trim()),
        fc.constantFrom('', ...ROLES),
        fc.constantFrom('', 'active', 'suspended'),
        (search, role, status) => {
          expect(fromCrudFilters(toCrudFilters({ search, role, status }))).toEqual({ search, role, status });
        },
      ),
    );
  });
});

describe('users actions', () => {
  it('lets administrators manage others, never themselves; managers only read', () => {
    expect(actionsFor({ role: 'administrator', user_id: 1 }, { user_id: 2 })).toEqual({ manage: true, self: false });
    expect(actionsFor({ role: 'administrator', user_id: 1 }, { user_id: 1 })).toEqual({ manage: false, self: true });
    expect(actionsFor({ role: 'manager', user_id: 1 }, { user_id: 2 })).toEqual({ manage: false, self: false });
    expect(actionsFor(undefined, { user_id: 2 })).toEqual({ manage: false, self: false });
  });

  it('toggles the status and names users', () => {
    expect(toggledStatus('active')).toBe('suspended');
    expect(toggledStatus('suspended')).toBe('active');
    expect(nameOf({ display_name: ' ', username: 'ana' })).toBe('ana');
    expect(nameOf({ display_name: 'Ana López', username: 'ana' })).toBe('Ana López');
  });
});
