import { type Static, type TSchema, Type } from 'typebox';
import { TAXONOMIES, type Taxonomy } from '../../db/schema/index.js';

/** The ten public term listings of docs/api.md 1.2. */
export interface TermEndpoint {
  path: string;
  taxonomy: Taxonomy;
  dataKey: string;
  /** Filter by location parent: states by `country`, cities by `state`, areas by `city` (slug or id). */
  locationFilter?: { param: 'country' | 'state' | 'city'; parentTaxonomy: Taxonomy };
}

export const TERM_ENDPOINTS: readonly TermEndpoint[] = [
  { path: '/property-types', taxonomy: 'property_type', dataKey: 'property_types' },
  { path: '/property-features', taxonomy: 'property_feature', dataKey: 'features' },
  { path: '/property-status', taxonomy: 'property_status', dataKey: 'property_status' },
  { path: '/property-labels', taxonomy: 'property_label', dataKey: 'property_labels' },
  { path: '/property-countries', taxonomy: 'property_country', dataKey: 'countries' },
  {
    path: '/property-states',
    taxonomy: 'property_state',
    dataKey: 'states',
    locationFilter: { param: 'country', parentTaxonomy: 'property_country' },
  },
  {
    path: '/property-cities',
    taxonomy: 'property_city',
    dataKey: 'cities',
    locationFilter: { param: 'state', parentTaxonomy: 'property_state' },
  },
  {
    path: '/property-areas',
    taxonomy: 'property_area',
    dataKey: 'areas',
    locationFilter: { param: 'city', parentTaxonomy: 'property_city' },
  },
  { path: '/agents/agent-categories', taxonomy: 'agent_category', dataKey: 'agent_categories' },
  { path: '/agents/agent-cities', taxonomy: 'agent_city', dataKey: 'agent_cities' },
];

/** Which location parent each location taxonomy takes in a management body (docs/api.md 1.3). */
export const LOCATION_PARENT = {
  property_state: { field: 'country_id', taxonomy: 'property_country' },
  property_city: { field: 'state_id', taxonomy: 'property_state' },
  property_area: { field: 'city_id', taxonomy: 'property_city' },
} as const satisfies Partial<Record<Taxonomy, { field: string; taxonomy: Taxonomy }>>;

/** Taxonomies whose terms carry a display colour. */
export const COLOURED_TAXONOMIES: readonly Taxonomy[] = ['property_status', 'property_label'];

const INTEGER_LIST = '^[0-9]{1,10}(,[0-9]{1,10})*$';
const SLUG_LIST = '^[^,]{1,200}(,[^,]{1,200})*$';

const BooleanQuery = Type.Enum(['true', 'false', '1', '0'], { description: '`true`/`false` or `1`/`0`' });

const termQueryProperties = {
  hide_empty: Type.Optional({ ...BooleanQuery, description: 'true hides terms whose `count` is 0 (default false)' }),
  orderby: Type.Optional(Type.Enum(['name', 'count', 'id', 'slug'], { description: 'Sort key (default `name`; ties by id)' })),
  order: Type.Optional(Type.String({ pattern: '^([Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])$', description: '`ASC` (default) or `DESC`, any case' })),
  number: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Page size; 0 = all (default)' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Terms skipped (default 0)' })),
  parent: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Only direct children of this term; 0 = top level' }),
  ),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Case- and accent-insensitive substring of the name or slug' })),
  include: Type.Optional(Type.String({ pattern: INTEGER_LIST, maxLength: 1100, description: 'Only these ids (≤ 100)' })),
  exclude: Type.Optional(Type.String({ pattern: INTEGER_LIST, maxLength: 1100, description: 'All but these ids (≤ 100)' })),
  slug: Type.Optional(Type.String({ pattern: SLUG_LIST, maxLength: 2000, description: 'Only these slugs (≤ 50)' })),
};

export function termQuerySchema(endpoint: TermEndpoint) {
  const filter = endpoint.locationFilter;
  return Type.Object(
    {
      ...termQueryProperties,
      ...(filter
        ? {
            [filter.param]: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: `Parent ${filter.param}: slug or id` })),
          }
        : {}),
    },
    { additionalProperties: false },
  );
}

/** The validated query of a term listing (the location filter, when the endpoint has one, by its name). */
export type TermQueryInput = Partial<Record<'hide_empty' | 'orderby' | 'order' | 'search' | 'include' | 'exclude' | 'slug', string>> &
  Partial<Record<'number' | 'offset' | 'parent', number>> &
  Partial<Record<'country' | 'state' | 'city', string>>;

const TermRef = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() });
const Url = Type.String({ format: 'uri' });

export const Term = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    slug: Type.String(),
    description: Type.String(),
    count: Type.Integer({ description: 'Published listings using the term (its own, not its children’s)' }),
    parent: Type.Integer({ description: '0 for a top-level term, else the parent term id' }),
    image_url: Type.Optional(Url),
    marker_icon_url: Type.Optional(Url),
    marker_retina_icon_url: Type.Optional(Url),
    custom_link: Type.Optional(Url),
    color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
    parent_country: Type.Optional(TermRef),
    parent_state: Type.Optional(TermRef),
    parent_city: Type.Optional(TermRef),
    center: Type.Optional(
      Type.Object(
        { latitude: Type.Number(), longitude: Type.Number() },
        {
          description:
            'Location terms: the place’s centre, as an administrator set it; GET /terms/{taxonomy}/{id} gives, for a place without ' +
            'one, the mean position of its published listings (absent when none has a position)',
        },
      ),
    ),
  },
  {
    $id: 'Term',
    title: 'Term',
    description: 'Optional fields are present only when set.',
  },
);
export type TermRecord = Static<typeof Term>;

const TaxonomyName = Type.Enum([...TAXONOMIES]);
export const TaxonomyParam = Type.Object({ taxonomy: TaxonomyName }, { additionalProperties: false });
export const TermIdParams = Type.Object(
  {
    taxonomy: TaxonomyName,
    id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  },
  { additionalProperties: false },
);

const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 });
const Colour = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb (status and label terms)' });
const ID_RANGE = { minimum: 1, maximum: 2_147_483_647 };
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const termWriteProperties = {
  slug: Type.String({ minLength: 1, maxLength: 200, description: 'Derived from the name when absent' }),
  description: Type.String({ maxLength: 20_000 }),
  parent: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Parent term of the same taxonomy; 0 = none' }),
  image_url: HttpUrl,
  marker_icon_url: HttpUrl,
  marker_retina_icon_url: HttpUrl,
  custom_link: HttpUrl,
  color: Colour,
  country_id: Type.Integer({ ...ID_RANGE, description: 'States only: the country' }),
  state_id: Type.Integer({ ...ID_RANGE, description: 'Cities only: the state' }),
  city_id: Type.Integer({ ...ID_RANGE, description: 'Areas only: the city' }),
  latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Location terms only: the centre, with `longitude`' }),
  longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Location terms only: the centre, with `latitude`' }),
};

export const CreateTermBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    slug: Type.Optional(termWriteProperties.slug),
    description: Type.Optional(termWriteProperties.description),
    parent: Type.Optional(termWriteProperties.parent),
    image_url: Type.Optional(termWriteProperties.image_url),
    marker_icon_url: Type.Optional(termWriteProperties.marker_icon_url),
    marker_retina_icon_url: Type.Optional(termWriteProperties.marker_retina_icon_url),
    custom_link: Type.Optional(termWriteProperties.custom_link),
    color: Type.Optional(termWriteProperties.color),
    country_id: Type.Optional(termWriteProperties.country_id),
    state_id: Type.Optional(termWriteProperties.state_id),
    city_id: Type.Optional(termWriteProperties.city_id),
    latitude: Type.Optional(termWriteProperties.latitude),
    longitude: Type.Optional(termWriteProperties.longitude),
  },
  { additionalProperties: false },
);
export type CreateTermInput = Static<typeof CreateTermBody>;

/** Partial update: omitted fields stay; `null` clears an optional field (URLs, colour, location parent). */
export const UpdateTermBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    slug: Type.Optional(termWriteProperties.slug),
    description: Type.Optional(termWriteProperties.description),
    parent: Type.Optional(termWriteProperties.parent),
    image_url: Type.Optional(Nullable(HttpUrl)),
    marker_icon_url: Type.Optional(Nullable(HttpUrl)),
    marker_retina_icon_url: Type.Optional(Nullable(HttpUrl)),
    custom_link: Type.Optional(Nullable(HttpUrl)),
    color: Type.Optional(Nullable(Colour)),
    country_id: Type.Optional(Nullable(termWriteProperties.country_id)),
    state_id: Type.Optional(Nullable(termWriteProperties.state_id)),
    city_id: Type.Optional(Nullable(termWriteProperties.city_id)),
    latitude: Type.Optional(Nullable(termWriteProperties.latitude)),
    longitude: Type.Optional(Nullable(termWriteProperties.longitude)),
  },
  { additionalProperties: false },
);
export type UpdateTermInput = Static<typeof UpdateTermBody>;
