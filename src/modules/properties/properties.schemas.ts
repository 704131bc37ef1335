import { type Static, type TSchema, Type } from 'typebox';
import { AGENT_DISPLAYS, LISTING_STATES } from '../../db/schema/index.js';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';
import { MAX_SLUG_LENGTH } from '../../lib/slug.js';

/** Roles that may create listings (docs/api.md 0.3). */
export const LISTING_CREATORS = ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller'] as const;
/** Roles that act on every listing, whoever owns it. */
export const LISTING_MODERATORS = ['administrator', 'manager'] as const;
/** Gallery images a listing may hold (docs/api.md 0.6: array parameters hold at most 50 items). */
export const MAX_GALLERY = 50;
/** A listing's attachments (brochures, plans as PDF) at most. */
const MAX_ATTACHMENTS = 20;
/** Summaries carry at most this many gallery images (docs/api.md 4.1). */
export const SUMMARY_GALLERY = 5;

const INT4_MAX = 2_147_483_647;
const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const TermRef = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() });
const ColouredTermRef = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  color: Type.Optional(Type.String({ description: '#rrggbb; absent when the term has none' })),
});

const AgentSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  url: Type.String({ format: 'uri' }),
  email: Type.String(),
  phone: Type.String(),
  agency_id: Nullable(Type.Integer()),
});
const AgencySummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  url: Type.String({ format: 'uri' }),
  email: Type.String(),
  phone: Type.String(),
});

const FloorPlan = Type.Object({
  title: Type.String(),
  rooms: Nullable(Type.Number()),
  bathrooms: Nullable(Type.Number()),
  price: Nullable(Type.Number()),
  price_postfix: Type.String(),
  size: Nullable(Type.Number()),
  size_postfix: Type.String(),
  description: Type.String(),
  image_url: Type.String(),
});
const AdditionalFeature = Type.Object({ title: Type.String(), value: Type.String() });

const Address = Type.Object({
  address: Type.String(),
  zipcode: Type.String(),
  country: Nullable(TermRef),
  state: Nullable(TermRef),
  city: Nullable(TermRef),
  area: Nullable(TermRef),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
});

const MediaRef = Type.Ref('Media');

/** A document of a listing (docs/api.md 4.1): a PDF uploaded through POST /media/upload. */
const Attachment = Type.Object({
  id: Type.Integer({ description: 'The media id' }),
  url: Type.String({ format: 'uri' }),
  title: Type.String({ description: 'The media’s title (POST /media/upload `title`, or PATCH /media/{id})' }),
  mime_type: Type.Literal('application/pdf'),
});

/** The fields a summary shares with the full record (docs/api.md 4.1). */
const commonFields = {
  id: Type.Integer(),
  title: Type.String(),
  slug: Type.String(),
  url: Type.String({ format: 'uri' }),
  excerpt: Type.String({ description: 'Plain text of the description, at most 160 characters' }),
  status: Type.Enum([...LISTING_STATES]),
  reference: Type.String(),
  price: Nullable(Type.Number()),
  second_price: Nullable(Type.Number()),
  currency: Type.String(),
  price_prefix: Type.String(),
  price_postfix: Type.String(),
  formatted_price: Type.String({ description: 'Display text, e.g. "$1,500/month"; "" without a price' }),
  bedrooms: Nullable(Type.Integer()),
  bathrooms: Nullable(Type.Integer()),
  rooms: Nullable(Type.Integer()),
  garage: Nullable(Type.Integer()),
  garage_size: Type.String(),
  size: Nullable(Type.Number()),
  size_unit: Type.Enum(['sqft', 'm2']),
  land_size: Nullable(Type.Number()),
  land_size_unit: Type.Enum(['sqft', 'm2']),
  year_built: Nullable(Type.Integer()),
  featured: Type.Boolean(),
  address: Address,
  property_type: Type.Array(TermRef),
  property_status: Type.Array(ColouredTermRef),
  property_label: Type.Array(ColouredTermRef),
  features: Type.Array(TermRef),
  featured_image: Nullable(MediaRef),
  video_url: Type.String(),
  virtual_tour: Type.String(),
  agent_display: Type.Enum([...AGENT_DISPLAYS]),
  agents: Type.Array(AgentSummary),
  agency: Nullable(AgencySummary),
  author: Type.Union([Type.Object({ id: Type.Integer(), display_name: Type.String() }), Type.Null()], {
    description: 'Null once the author’s account is deleted',
  }),
  views: Type.Integer(),
  rating: Nullable(Type.Number({ description: 'Average review rating, one decimal' })),
  reviews_count: Type.Integer(),
  is_favorite: Type.Boolean({ description: 'Whether the caller has it among their favorites; false when anonymous' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  published_at: Nullable(Type.String({ format: 'date-time' })),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
};

export const Property = Type.Object(
  {
    ...commonFields,
    description: Type.String({ description: 'Sanitized HTML (p, br, strong, em, ul, ol, li, a[href])' }),
    gallery: Type.Array(MediaRef, { description: 'The gallery, in order' }),
    attachments: Type.Array(Attachment, { description: 'The listing’s documents (brochures), in order; not in summaries' }),
    floor_plans: Type.Array(FloorPlan),
    additional_features: Type.Array(AdditionalFeature),
  },
  {
    $id: 'Property',
    title: 'Property',
    description:
      'A listing (docs/api.md 4.1). `featured_image` is the chosen gallery image, else the first one. Without a ' +
      'featured image and gallery both are empty/null.',
  },
);
export type PropertyRecord = Static<typeof Property>;

export const PropertySummary = Type.Object(
  {
    ...commonFields,
    gallery: Type.Array(MediaRef, { maxItems: SUMMARY_GALLERY, description: 'The first five gallery images' }),
    distance: Type.Optional(
      Type.Number({
        description:
          'Only in searches with a centre (`latitude`, `longitude`): the great-circle distance from it in `radius_unit` ' +
          '(km unless `mi`), to 3 decimals; absent for a listing without coordinates.',
      }),
    ),
  },
  {
    $id: 'PropertySummary',
    title: 'PropertySummary',
    description: 'A listing in lists: no description, floor plans or additional features; at most five gallery images.',
  },
);
export type PropertySummaryRecord = Static<typeof PropertySummary>;

export const PropertyList = Type.Object({
  properties: Type.Array(Type.Ref('PropertySummary')),
  pagination: Pagination,
});
export interface PropertyListRecord {
  properties: PropertySummaryRecord[];
  pagination: PaginationRecord;
}

// Create and update (docs/api.md 4.6)

const Money = Type.Number({ minimum: 0, maximum: 1e13 });
const Count = Type.Integer({ minimum: 0, maximum: 10_000 });
const Area = Type.Number({ minimum: 0, maximum: 1e10 });
const ShortText = (maxLength = 200) => Type.String({ maxLength });
const HttpUrl = Type.String({ maxLength: 2000, pattern: '^(https?://\\S+)?$', description: 'http(s) URL or ""' });
const TermIds = (description: string) => Type.Array(Id, { maxItems: 50, uniqueItems: true, description });
const Location = (level: string, parent: string) =>
  Nullable(
    Type.Union([Id, Type.String({ minLength: 1, maxLength: 200 })], {
      description: `A ${level} term id, or a name: an unknown name creates the ${level} under the given ${parent}`,
    }),
  );

const FloorPlanInput = Type.Object(
  {
    title: ShortText(),
    rooms: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 10_000 }))),
    bathrooms: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 10_000 }))),
    price: Type.Optional(Nullable(Money)),
    price_postfix: Type.Optional(ShortText(50)),
    size: Type.Optional(Nullable(Area)),
    size_postfix: Type.Optional(ShortText(50)),
    description: Type.Optional(ShortText(5000)),
    image_url: Type.Optional(HttpUrl),
  },
  { additionalProperties: false },
);

/** Fields every listing creator may send. On update each is optional; `null` clears an optional value. */
const editableFields = {
  title: Type.String({ minLength: 3, maxLength: 200 }),
  description: Type.String({ maxLength: 20_000 }),
  draft: Type.Boolean({ description: 'Create as (or, for a draft, keep as) `draft`' }),
  reference: ShortText(),
  price: Nullable(Money),
  second_price: Nullable(Money),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 (default DEFAULT_CURRENCY)' }),
  price_prefix: ShortText(50),
  price_postfix: ShortText(50),
  bedrooms: Nullable(Count),
  bathrooms: Nullable(Count),
  rooms: Nullable(Count),
  garage: Nullable(Count),
  garage_size: ShortText(50),
  size: Nullable(Area),
  size_unit: Type.Enum(['sqft', 'm2']),
  land_size: Nullable(Area),
  land_size_unit: Type.Enum(['sqft', 'm2']),
  year_built: Nullable(Type.Integer({ minimum: 1000, description: '1000 up to five years from now' })),
  type_ids: TermIds('property_type term ids'),
  status_ids: TermIds('property_status term ids'),
  label_ids: TermIds('property_label term ids'),
  feature_ids: TermIds('property_feature term ids'),
  country: Location('country', 'nothing'),
  state: Location('state', '`country`'),
  city: Location('city', '`state`'),
  area: Location('area', '`city`'),
  address: ShortText(500),
  zipcode: ShortText(20),
  latitude: Nullable(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Nullable(Type.Number({ minimum: -180, maximum: 180 })),
  media_ids: Type.Array(Id, {
    maxItems: MAX_GALLERY,
    uniqueItems: true,
    description: 'The gallery, in order: images uploaded by the caller (or already in this listing’s gallery)',
  }),
  featured_image_id: Nullable({ ...Id, description: 'One of the gallery’s images; default: the first' }),
  attachment_ids: Type.Array(Id, {
    maxItems: MAX_ATTACHMENTS,
    uniqueItems: true,
    description:
      'The documents (`attachments`), in order: PDFs uploaded by the caller (POST /media/upload) not in another listing, or already ' +
      'attached to this one',
  }),
  floor_plans: Type.Array(FloorPlanInput, { maxItems: 50 }),
  additional_features: Type.Array(Type.Object({ title: ShortText(), value: ShortText(500) }, { additionalProperties: false }), {
    maxItems: 50,
  }),
  video_url: HttpUrl,
  virtual_tour: HttpUrl,
  agent_display: Type.Enum([...AGENT_DISPLAYS]),
  agent_ids: Type.Array(Id, {
    maxItems: 50,
    uniqueItems: true,
    description: 'The caller’s own agent record, or agents of the caller’s agency (moderators: any agent)',
  }),
  agency_id: Nullable({ ...Id, description: 'The caller’s own agency (moderators: any)' }),
};

/** Fields only moderators may send; anyone else sending one gets 400 (no mass assignment). */
const moderatorFields = {
  status: Type.Enum([...LISTING_STATES], { description: 'Moderators only; recorded in the history' }),
  featured: Type.Boolean({ description: 'Moderators only' }),
  author_id: { ...Id, description: 'Moderators only: hand the listing to another user' },
  views: Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'Moderators only' }),
  expires_at: Nullable(Type.String({ format: 'date-time', description: 'Moderators only' })),
};
export const MODERATOR_FIELDS = Object.keys(moderatorFields) as (keyof typeof moderatorFields)[];

const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Type.Optional(schema)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

/** A listing's new slug (PUT only: a new listing's slug is made from its title). */
const slugField = {
  slug: Type.String({
    minLength: 1,
    maxLength: MAX_SLUG_LENGTH,
    description:
      'The listing’s new slug (owner, moderators): lowercase letters and digits of any script joined by single ' +
      'hyphens, as made from a title (`sea-view-villa`); anything else → 400 naming the slug it would be. One that ' +
      'another listing holds or held before → 409 `conflict`. The former slug is kept: its page (and `url`) answers ' +
      '301 to the new one, and it stays this listing’s (it may take it back).',
  }),
};

export const UpdatePropertyBody = Type.Object(
  { ...optional(editableFields), ...optional(slugField), ...optional(moderatorFields) },
  { additionalProperties: false, title: 'UpdateProperty' },
);
export type UpdatePropertyInput = Static<typeof UpdatePropertyBody>;

export const CreatePropertyBody = Type.Object(
  { ...optional(editableFields), title: editableFields.title, ...optional(moderatorFields) },
  { additionalProperties: false, title: 'CreateProperty' },
);
export type CreatePropertyInput = Static<typeof CreatePropertyBody>;

export const PropertyIdParams = Type.Object({ id: Id }, { additionalProperties: false });

export const PropertyDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });

// Lists

/** `d_date`/`a_date` sort by `published_at` (docs/api.md 12); ties by id, descending. */
const LIST_SORTS = ['d_date', 'a_date', 'a_price', 'd_price', 'a_title', 'd_title', 'a_size', 'd_size', 'featured_first'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** A listing state, or `all`: the `status` filter of the lists that hold every state. */
const StateFilter = (description: string) => Type.Optional(Type.Enum([...LISTING_STATES, 'all'], { description }));
const ListKeyword = Type.Optional(Type.String({ maxLength: 200, description: 'Substring of the title or reference, ignoring case' }));

export const MyPropertiesQuery = Type.Object(
  {
    ...PageQueryFields,
    status: StateFilter('A listing state, or `all` (default)'),
    keyword: ListKeyword,
    sortby: Type.Optional(Type.Enum([...LIST_SORTS], { description: 'Default d_date; listings never published sort last' })),
  },
  { additionalProperties: false },
);
export type MyPropertiesInput = Static<typeof MyPropertiesQuery>;

/** GET /properties/moderation (docs/api.md 3.3): every user's listings, for moderators. */
export const ModerationListQuery = Type.Object(
  {
    ...PageQueryFields,
    status: StateFilter('A listing state, or `all`; default `pending`'),
    keyword: ListKeyword,
    author_id: Type.Optional({ ...Id, description: 'Only this user’s listings (as authored; an agency’s agents are not included)' }),
    sortby: Type.Optional(
      Type.Enum([...LIST_SORTS], {
        description: 'As GET /users/my-properties; default (absent): the most recently changed first, by `updated_at`',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ModerationListInput = Static<typeof ModerationListQuery>;

export const FavoritePropertiesQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });
export type FavoritePropertiesInput = Static<typeof FavoritePropertiesQuery>;

export const SimilarQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'Default 4' })) },
  { additionalProperties: false },
);
export type SimilarInput = Static<typeof SimilarQuery>;

export const SimilarList = Type.Object({ properties: Type.Array(Type.Ref('PropertySummary')) });

export const GalleryList = Type.Object({ media: Type.Array(MediaRef) });

// Favorites

export const FavoriteBody = Type.Union([
  Type.Object(
    { favorite: Type.Optional(Type.Boolean({ description: 'Set instead of toggling (idempotent)' })) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const FavoriteResult = Type.Object({
  added: Type.Boolean({ description: 'Whether the listing is now a favorite of the caller' }),
  favorites_count: Type.Integer({ description: 'The listing’s total number of favorites' }),
});
export type FavoriteResultRecord = Static<typeof FavoriteResult>;
