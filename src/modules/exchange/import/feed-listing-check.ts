import { type Static, type TSchema, Type } from 'typebox';
import type { FeedListing } from '../../../adapters/feeds/feed-records.js';
import { LISTING_STATES } from '../../../db/schema/index.js';
import { fieldErrors } from '../../../http/error-handler.js';
import { bodyChecker } from '../../../http/validation.js';
import type { FieldError } from '../../../lib/errors.js';
import { UpdatePropertyBody } from '../../properties/index.js';
import { FEED_SCALAR_FIELDS as SCALAR_FIELDS } from '../feed-fields.js';

const apiField = (name: (typeof SCALAR_FIELDS)[number]): TSchema => (UpdatePropertyBody.properties as Record<string, TSchema>)[name]!;
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Names = Type.Array(Name, { maxItems: 50 });
const NullableName = Type.Union([Name, Type.Null()]);

/**
 * A feed's listing as the import accepts it: the API's fields and limits, terms and places by name, agents and
 * the agency by feed key or e-mail, pictures by URL. `created_at`/`updated_at` are read and not imported.
 */
export const FeedListingInput = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 200 }),
    status: Type.Optional(Type.Enum([...LISTING_STATES])),
    ...Object.fromEntries(SCALAR_FIELDS.map((name) => [name, Type.Optional(apiField(name))])),
    types: Type.Optional(Names),
    statuses: Type.Optional(Names),
    labels: Type.Optional(Names),
    features: Type.Optional(Names),
    country: Type.Optional(NullableName),
    state: Type.Optional(NullableName),
    city: Type.Optional(NullableName),
    area: Type.Optional(NullableName),
    images: Type.Optional(Type.Array(Type.String({ maxLength: 2000, pattern: '^https?://\\S+$' }), { maxItems: 50 })),
    agents: Type.Optional(Names),
    agency: Type.Optional(NullableName),
    created_at: Type.Optional(Type.String({ maxLength: 40 })),
    updated_at: Type.Optional(Type.String({ maxLength: 40 })),
    // An old address that makes no path (or too long a one) is not kept, rather than rejecting the listing over it.
    url: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type FeedListingFields = Static<typeof FeedListingInput>;

const check = bodyChecker(FeedListingInput);

/**
 * The problems of a feed's listing, named by field as the API names a request's (`title`: "must be at least 3
 * characters long"). A new listing needs a title; an update may leave it out.
 */
export function feedListingErrors(listing: FeedListing, isNew: boolean): FieldError[] {
  const errors = fieldErrors(check(withoutUndefined(listing)));
  if (isNew && listing.title === undefined && !errors.some((error) => error.field === 'title')) {
    errors.push({ field: 'title', key: 'rule_required' });
  }
  return errors;
}

/** Readers may leave fields `undefined`; JSON Schema reads a present key as given. */
function withoutUndefined(listing: FeedListing): Record<string, unknown> {
  const present: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(listing)) if (value !== undefined) present[field] = value;
  return present;
}

/** The scalar fields a record carries, as the API's update body names them. */
export function scalarInput(listing: FeedListing): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of SCALAR_FIELDS) if (listing[field] !== undefined) input[field] = listing[field];
  return input;
}
