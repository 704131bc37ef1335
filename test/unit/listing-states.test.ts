import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LISTING_STATES, type ListingState } from '../../src/db/schema/index.js';
import {
  expiryOnPublish,
  initialState,
  MODERATOR_ACTIONS,
  STATE_ACTIONS,
  type StateAction,
  stateAfterEdit,
  targetState,
  type TransitionContext,
} from '../../src/modules/properties/moderation/listing-states.js';

/**
 * docs/api.md 3.3, written out by hand: for each action, the states it moves from and where to. `published` stands
 * for `publish` or `pending` depending on who acts and REQUIRE_APPROVAL.
 */
const DOCUMENTED: Record<StateAction, Partial<Record<ListingState, ListingState | 'published'>>> = {
  approve: { pending: 'publish', disapproved: 'publish' },
  disapprove: { pending: 'disapproved', publish: 'disapproved' },
  hold: { publish: 'on_hold' },
  live: { on_hold: 'publish', sold: 'publish', expired: 'published' },
  sold: { publish: 'sold', on_hold: 'sold' },
  expire: { publish: 'expired', on_hold: 'expired' },
  submit_listing: { draft: 'published' },
};

const CONTEXTS: TransitionContext[] = [
  { byModerator: false, requireApproval: true },
  { byModerator: false, requireApproval: false },
  { byModerator: true, requireApproval: true },
  { byModerator: true, requireApproval: false },
];

const DOCUMENTED_MOVES = STATE_ACTIONS.flatMap((action) =>
  (Object.keys(DOCUMENTED[action]) as ListingState[]).map((from) => ({ action, from })),
);

const anyContext = fc.record({ byModerator: fc.boolean(), requireApproval: fc.boolean() });

describe('targetState', () => {
  const cases = STATE_ACTIONS.flatMap((action) => LISTING_STATES.flatMap((from) => CONTEXTS.map((context) => ({ action, from, context }))));

  it.each(cases)('$action from $from ($context)', ({ action, from, context }) => {
    const documented = DOCUMENTED[action][from];
    const published = context.byModerator || !context.requireApproval ? 'publish' : 'pending';
    const expected = documented === 'published' ? published : documented;
    expect(targetState(action, from, context)).toBe(expected);
  });

  it('sends an expired listing back to the approval queue only for owners with approval on', () => {
    expect(targetState('live', 'expired', { byModerator: false, requireApproval: true })).toBe('pending');
    expect(targetState('live', 'expired', { byModerator: false, requireApproval: false })).toBe('publish');
    expect(targetState('live', 'expired', { byModerator: true, requireApproval: true })).toBe('publish');
    expect(targetState('submit_listing', 'draft', { byModerator: false, requireApproval: true })).toBe('pending');
  });

  it('never answers the state it started from', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATE_ACTIONS), fc.constantFrom(...LISTING_STATES), anyContext, (action, from, context) => {
        expect(targetState(action, from, context)).not.toBe(from);
      }),
    );
  });

  it('always answers a state for the documented moves, whoever acts and whatever the setting', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DOCUMENTED_MOVES), anyContext, ({ action, from }, context) => {
        const to = targetState(action, from, context);
        expect(to).toBeDefined();
        expect(LISTING_STATES).toContain(to);
      }),
    );
  });

  it('answers undefined for every move that is not documented', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATE_ACTIONS), fc.constantFrom(...LISTING_STATES), anyContext, (action, from, context) => {
        fc.pre(DOCUMENTED[action][from] === undefined);
        expect(targetState(action, from, context)).toBeUndefined();
      }),
    );
  });
});

describe('STATE_ACTIONS and MODERATOR_ACTIONS', () => {
  it('name the actions of docs/api.md 3.3; approve, disapprove and expire are the moderators’', () => {
    expect([...STATE_ACTIONS].sort()).toEqual(['approve', 'disapprove', 'expire', 'hold', 'live', 'sold', 'submit_listing']);
    expect([...MODERATOR_ACTIONS].sort()).toEqual(['approve', 'disapprove', 'expire']);
  });
});

describe('initialState', () => {
  it.each(CONTEXTS)('draft when asked, else publish or pending by who creates it ($byModerator, $requireApproval)', (context) => {
    expect(initialState(true, context)).toBe('draft');
    expect(initialState(false, context)).toBe(context.byModerator || !context.requireApproval ? 'publish' : 'pending');
  });
});

describe('stateAfterEdit', () => {
  const cases = LISTING_STATES.flatMap((from) =>
    [false, true].flatMap((byModerator) => [false, true].map((editRequiresApproval) => ({ from, byModerator, editRequiresApproval }))),
  );

  it.each(cases)(
    '$from, moderator $byModerator, EDIT_REQUIRES_APPROVAL $editRequiresApproval',
    ({ from, byModerator, editRequiresApproval }) => {
      const expected = from === 'publish' && editRequiresApproval && !byModerator ? 'pending' : from;
      expect(stateAfterEdit(from, byModerator, editRequiresApproval)).toBe(expected);
    },
  );
});

describe('expiryOnPublish', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');
  const STARTS_A_PERIOD: (ListingState | null)[] = [null, 'draft', 'pending', 'disapproved', 'expired'];
  const KEEPS_THE_PERIOD: ListingState[] = ['publish', 'on_hold', 'sold'];

  it.each(STARTS_A_PERIOD)('starts a new period from %s', (from) => {
    expect(expiryOnPublish(from, now, 30)).toBe('2026-12-21T10:00:00.000Z');
    expect(expiryOnPublish(from, now, 1)).toBe('2026-11-22T10:00:00.000Z');
  });

  it.each(KEEPS_THE_PERIOD)('keeps the running period on a return from %s', (from) => {
    expect(expiryOnPublish(from, now, 30)).toBeUndefined();
  });

  it('keeps expires_at as it is without LISTING_TTL_DAYS', () => {
    for (const from of [null, ...LISTING_STATES]) expect(expiryOnPublish(from, now, undefined)).toBeUndefined();
  });

  it('covers every state', () => {
    expect([...STARTS_A_PERIOD, ...KEEPS_THE_PERIOD].filter((s) => s !== null).sort()).toEqual([...LISTING_STATES].sort());
  });
});
