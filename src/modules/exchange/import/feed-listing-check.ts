import { type TSchema, Type } from 'typebox';
import type { FeedListing } from '../../../adapters/feeds/feed-records.js';
import { LISTING_STATES } from '../../../db/schema/index.js';
import { fieldErrors } from '../../../http/error-handler.js';
import { bodyChecker } from '../../../http/validation.js';
import { translate } from '../../../i18n/index.js';
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
const FeedListingInput = Type.Object(
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

const check = bodyChecker(FeedListingInput);

/**
 * The problems of a feed's listing, named by field as the API names a request's (`title`: "must be at least 3
 * characters long"). A new listing needs a title; an update may leave it out.
 */
function feedListingErrors(listing: FeedListing, isNew: boolean): FieldError[] {
  const errors = fieldErrors(check(withoutUndefined(listing)));
  if (isNew && listing.title === undefined && !errors.some((error) => error.field === 'title')) {
    errors.push({ field: 'title', key: 'rule_required' });
  }
  return errors;
}

/** Fields a listing cannot do without: a problem with one rejects the record. Any other is optional. */
const REQUIRED = new Set(['key', 'title', 'status', '(root)']);

const MAX_ROUNDS = 3;

/**
 * The listing as the import takes it (docs/data-exchange.md, "Warnings"): a problem with a required field is an
 * error and rejects the record; an optional value that is not valid is left out and becomes a warning, at the
 * narrowest place the check names: a plan's `size` (`floor_plans.2.size`), one picture (`images.3`), else the
 * field. Should what is left still fail (a plan's title too long: the plan needs one), the next round leaves out
 * the item, then the field. `warnings`: the reader's, then the check's.
 */
export function checkedListing(
  listing: FeedListing,
  isNew: boolean,
  readerWarnings: readonly { field: string; reason: string }[],
): { listing: FeedListing; errors: FieldError[]; warnings: { field: string; reason: string }[] } {
  const warnings = [...readerWarnings];
  let current = listing;
  for (let round = 0; ; round++) {
    const errors = feedListingErrors(current, isNew);
    if (errors.length === 0) return { listing: current, errors, warnings };
    if (round === MAX_ROUNDS || errors.some((error) => REQUIRED.has(error.field.split('.')[0]!))) {
      return { listing: current, errors, warnings };
    }
    for (const error of errors) warnings.push({ field: error.field, reason: translate('en', error.key, error.params) });
    // Round 0 leaves out what the error names; round 1 the item it is in; round 2 the whole field.
    current = withoutValues(
      current,
      errors.map((error) => error.field.split('.').slice(0, Math.max(1, 3 - round))),
    );
  }
}

/**
 * The listing without the values at `paths` (`[field]`, `[field, index]`, `[field, index, property]`). The
 * listing itself is not changed: a record's arrays are copied before an item or a property is taken out.
 */
function withoutValues(listing: FeedListing, paths: readonly string[][]): FeedListing {
  const copy: Record<string, unknown> = { ...listing };
  const dropped = new Map<string, Set<number>>();
  for (const [field, index, property] of paths) {
    const value = copy[field!];
    const at = index !== undefined && /^\d+$/.test(index) ? Number(index) : undefined;
    if (at === undefined || !Array.isArray(value) || at >= value.length) {
      delete copy[field!];
      continue;
    }
    const item: unknown = value[at];
    if (property !== undefined && item !== null && typeof item === 'object' && !Array.isArray(item)) {
      const items = value === listing[field as keyof FeedListing] ? [...value] : value;
      const { [property]: _left, ...rest } = item as Record<string, unknown>;
      items[at] = rest;
      copy[field!] = items;
    } else {
      if (!dropped.has(field!)) dropped.set(field!, new Set());
      dropped.get(field!)!.add(at);
    }
  }
  for (const [field, indexes] of dropped) {
    const value = copy[field];
    if (Array.isArray(value)) copy[field] = value.filter((_, n) => !indexes.has(n));
  }
  return copy as unknown as FeedListing;
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
