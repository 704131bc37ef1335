import { type Static, type TSchema, Type } from 'typebox';
import { LISTING_STATES } from '../../../db/schema/index.js';
import { STATE_ACTIONS } from './listing-states.js';

/** Featured flag changes: not state moves, so they leave no history. */
export const FEATURE_ACTIONS = ['set_featured', 'remove_featured'] as const;
export type FeatureAction = (typeof FEATURE_ACTIONS)[number];

/** Every `action` of POST /users/property-actions (docs/api.md 3.3). */
export const PROPERTY_ACTIONS = [...STATE_ACTIONS, ...FEATURE_ACTIONS] as const;
export type PropertyAction = (typeof PROPERTY_ACTIONS)[number];

/**
 * Who may feature any listing, without spending anything. Owners feature their own with a featured credit in
 * membership mode (listing-quotas.service.ts).
 */
export const FEATURE_SETTERS = ['administrator'] as const;

const INT4_MAX = 2_147_483_647;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Reason = Type.String({
  maxLength: 2000,
  description: 'Plain text (HTML tags are removed, white space trimmed), kept in the listing’s history',
});

export const ReasonBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });

export const PropertyActionBody = Type.Object(
  {
    property_id: Type.Integer({ minimum: 1, maximum: INT4_MAX }),
    action: Type.Enum([...PROPERTY_ACTIONS]),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);

export const ListingStateResult = Type.Object({
  property_id: Type.Integer(),
  status: Type.Enum([...LISTING_STATES]),
  featured: Type.Boolean(),
});
export type ListingStateRecord = Static<typeof ListingStateResult>;

const Actor = Type.Object({ id: Type.Integer(), display_name: Type.String() });

const HistoryEntry = Type.Object({
  from: Nullable(Type.Enum([...LISTING_STATES], { description: 'Null for the creation of the listing' })),
  to: Type.Enum([...LISTING_STATES]),
  actor: Nullable(Actor),
  reason: Type.String({ description: '"" when none was given; `expired` for the expiry job' }),
  at: Type.String({ format: 'date-time' }),
});
export type HistoryEntryRecord = Static<typeof HistoryEntry>;

export const ListingHistory = Type.Object({
  history: Type.Array(HistoryEntry, {
    description: 'Oldest first. `actor` is null for moves made by the system (expiry) and once the actor’s account is deleted.',
  }),
});
export type ListingHistoryRecord = Static<typeof ListingHistory>;
