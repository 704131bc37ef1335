import { type Static, type TObjectOptions, type TSchema, Type } from 'typebox';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';

const INT4_MAX = 2_147_483_647;
const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The profile links of docs/api.md 5.1 `social`: every record carries exactly these keys. */
export const SOCIAL_NETWORKS = ['facebook', 'twitter', 'linkedin', 'instagram', 'youtube', 'pinterest', 'tiktok'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

const socialObject = <T extends TSchema>(value: T, options: TObjectOptions = {}) =>
  Type.Object(
    { facebook: value, twitter: value, linkedin: value, instagram: value, youtube: value, pinterest: value, tiktok: value },
    options,
  );

// Records (docs/api.md 5.1)

const TermRef = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() });
const Social = socialObject(Nullable(Type.String({ format: 'uri' })));
const Rating = Nullable(Type.Number({ description: 'Average review rating with one decimal; null without reviews' }));
/** The contact lines agents and agencies share, in record order. */
const ContactFields = {
  email: Type.String(),
  phone: Type.String(),
  mobile: Type.String(),
  whatsapp: Type.String(),
  fax: Type.String(),
  website: Type.String(),
  license: Type.String(),
  tax_number: Type.String(),
};

export const Agent = Type.Object(
  {
    id: Type.Integer(),
    user_id: Nullable(Type.Integer({ description: 'The agent’s account; null once that account is deleted' })),
    name: Type.String(),
    slug: Type.String({ description: 'Made from the name at registration; kept when the name changes' }),
    url: Type.String({ format: 'uri', description: 'PUBLIC_URL/agent/<slug>' }),
    position: Type.String(),
    company: Type.String(),
    bio: Type.String({ description: 'Plain text' }),
    ...ContactFields,
    languages: Type.Array(Type.String(), { description: 'Language names as the agent wrote them' }),
    service_areas: Type.String(),
    specialties: Type.String(),
    picture_url: Nullable(Type.String({ format: 'uri', description: 'The picture’s medium size (fits 600×600), as `avatar_url`' })),
    social: Social,
    categories: Type.Array(TermRef, { description: 'agent_category terms' }),
    cities: Type.Array(TermRef, { description: 'agent_city terms' }),
    agency: Nullable(TermRef),
    properties_count: Type.Integer({ description: 'Published listings naming the agent' }),
    rating: Rating,
    reviews_count: Type.Integer(),
    visible: Type.Boolean({ description: 'Hidden agents are left out of every list and are 404 to all but their managers' }),
  },
  { $id: 'Agent', title: 'Agent', description: 'An agent record (docs/api.md 5.1). Empty text is "", never null.' },
);
export type AgentRecord = Static<typeof Agent>;
export type SocialRecord = AgentRecord['social'];

export const Agency = Type.Object(
  {
    id: Type.Integer(),
    user_id: Nullable(Type.Integer({ description: 'The agency’s account; null once that account is deleted' })),
    name: Type.String(),
    slug: Type.String({ description: 'Made from the name at registration; kept when the name changes' }),
    url: Type.String({ format: 'uri', description: 'PUBLIC_URL/agency/<slug>' }),
    description: Type.String({ description: 'Sanitized HTML (p, br, strong, em, ul, ol, li, a[href])' }),
    ...ContactFields,
    address: Type.String(),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
    logo_url: Nullable(Type.String({ format: 'uri', description: 'The logo’s medium size (fits 600×600)' })),
    social: Social,
    agents_count: Type.Integer({ description: 'Visible agents of the agency' }),
    properties_count: Type.Integer({
      description: 'Published listings whose agency is this one or that name one of its agents, each counted once',
    }),
    rating: Rating,
    reviews_count: Type.Integer(),
  },
  { $id: 'Agency', title: 'Agency', description: 'An agency record (docs/api.md 5.1). Empty text is "", never null.' },
);
export type AgencyRecord = Static<typeof Agency>;

export const AgentList = Type.Object({ agents: Type.Array(Type.Ref('Agent')), pagination: Pagination });
export interface AgentListRecord {
  agents: AgentRecord[];
  pagination: PaginationRecord;
}

export const AgencyList = Type.Object({ agencies: Type.Array(Type.Ref('Agency')), pagination: Pagination });
export interface AgencyListRecord {
  agencies: AgencyRecord[];
  pagination: PaginationRecord;
}

// Queries

/** Orders of agent and agency lists (docs/api.md 5.2); ties by id, descending. */
const DIRECTORY_SORTS = ['a_name', 'd_name', 'd_rating', 'd_properties'] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

const SortBy = Type.Optional(
  Type.Enum([...DIRECTORY_SORTS], {
    description: 'a_name (default) / d_name by the case- and accent-folded name; d_rating (without reviews last); d_properties',
  }),
);
const Keyword = Type.Optional(Type.String({ maxLength: 200, description: 'A substring of the name, ignoring case and accents' }));
const SLUG_LIST = '^[^,]{1,200}(,[^,]{1,200})*$';
const SlugList = (taxonomy: string) =>
  Type.Optional(
    Type.String({
      pattern: SLUG_LIST,
      maxLength: 10_200,
      description: `${taxonomy} term slugs, \`a,b\` or repeated (≤ 50): agents with any of them`,
    }),
  );

export const AgentListQuery = Type.Object({ ...PageQueryFields, sortby: SortBy }, { additionalProperties: false });
export type AgentListInput = Static<typeof AgentListQuery>;

export const AgentSearchQuery = Type.Object(
  {
    ...PageQueryFields,
    sortby: SortBy,
    keyword: Keyword,
    city: SlugList('agent_city'),
    category: SlugList('agent_category'),
    agency_id: Type.Optional({ ...Id, description: 'Only agents of this agency' }),
    language: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description: 'A language the agent speaks: the exact name, ignoring the case of ASCII letters',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AgentSearchInput = Static<typeof AgentSearchQuery>;

export const AgencyListQuery = Type.Object({ ...PageQueryFields, sortby: SortBy, keyword: Keyword }, { additionalProperties: false });
export type AgencyListInput = Static<typeof AgencyListQuery>;

export const DirectoryIdParams = Type.Object({ id: Id }, { additionalProperties: false });
export const AgencyAgentParams = Type.Object({ id: Id, agent_id: Id }, { additionalProperties: false });

// Bodies: allow-lists; `user_id`, `agency_id`, `slug`, ratings and counts are not among them (400).

const PLAIN = 'Plain text: HTML tags are removed, white space trimmed';
const Text = (maxLength: number) => Type.String({ maxLength, description: PLAIN });
const Name = Type.String({ minLength: 1, maxLength: 200, description: `${PLAIN}; must keep some text` });
const Phone = Type.String({ maxLength: 40, pattern: '^[0-9+()#*./ -]*$', description: 'Digits, spaces and + ( ) # * . / -; "" clears it' });
const HTTP_URL = '^https?://[^\\s/?#]+([/?#]\\S*)?$';
const Website = Type.String({
  maxLength: 500,
  pattern: '^(https?://[^\\s/?#]+([/?#]\\S*)?)?$',
  description: 'An absolute http(s) URL, or "" to clear it',
});
const Email = Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], {
  description: 'Public contact address, stored lower-cased; "" clears it',
});
// `format: 'uri'` as in the records (`Social`), whose serializer checks it: a link it refuses would break every answer.
const SocialInput = socialObject(Type.Optional(Nullable(Type.String({ maxLength: 500, format: 'uri', pattern: HTTP_URL }))), {
  additionalProperties: false,
  description: 'Only the given networks change: an http(s) URL sets one, null clears it',
});
const MediaId = (whose: string) => Nullable({ ...Id, description: `An image uploaded by the caller or by ${whose}; null removes it` });
const TermIds = (taxonomy: string) =>
  Type.Array(Id, { maxItems: 50, uniqueItems: true, description: `${taxonomy} term ids, in order; replaces the current ones` });

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Name),
    position: Type.Optional(Text(200)),
    company: Type.Optional(Text(200)),
    bio: Type.Optional(Text(20_000)),
    email: Type.Optional(Email),
    phone: Type.Optional(Phone),
    mobile: Type.Optional(Phone),
    whatsapp: Type.Optional(Phone),
    fax: Type.Optional(Phone),
    website: Type.Optional(Website),
    license: Type.Optional(Text(200)),
    tax_number: Type.Optional(Text(200)),
    languages: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50, pattern: '^[^",\\\\\\u0000-\\u001f]+$' }), {
        maxItems: 20,
        description: 'Language names (no commas or quotes); blanks and repeats (ignoring case) are dropped',
      }),
    ),
    service_areas: Type.Optional(Text(2000)),
    specialties: Type.Optional(Text(2000)),
    picture_id: Type.Optional(MediaId('the agent’s user')),
    social: Type.Optional(SocialInput),
    category_ids: Type.Optional(TermIds('agent_category')),
    city_ids: Type.Optional(TermIds('agent_city')),
    visible: Type.Optional(Type.Boolean({ description: 'false hides the agent from every list' })),
  },
  { additionalProperties: false, title: 'UpdateAgent' },
);
export type UpdateAgentInput = Static<typeof UpdateAgentBody>;

export const UpdateAgencyBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.String({ maxLength: 20_000, description: 'Rich text, sanitized as listing descriptions' })),
    email: Type.Optional(Email),
    phone: Type.Optional(Phone),
    mobile: Type.Optional(Phone),
    whatsapp: Type.Optional(Phone),
    fax: Type.Optional(Phone),
    website: Type.Optional(Website),
    license: Type.Optional(Text(200)),
    tax_number: Type.Optional(Text(200)),
    address: Type.Optional(Text(500)),
    latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
    logo_id: Type.Optional(MediaId('the agency’s user')),
    social: Type.Optional(SocialInput),
  },
  { additionalProperties: false, title: 'UpdateAgency' },
);
export type UpdateAgencyInput = Static<typeof UpdateAgencyBody>;

export const AttachAgentBody = Type.Object({ agent_id: Id }, { additionalProperties: false, title: 'AttachAgent' });
