import { type Static, type TSchema, Type } from 'typebox';
import { LISTING_STATES } from '../../db/schema/index.js';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';

const INT4_MAX = 2_147_483_647;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The event types an endpoint may subscribe to, each derived from the change log (docs/webhooks.md, "Event
 * types").
 */
const WEBHOOK_EVENT_TYPES = [
  'listing.created',
  'listing.updated',
  'listing.state_changed',
  'listing.deleted',
  'lead.created',
  'review.created',
  'agent.updated',
  'agency.updated',
  'invoice.paid',
  'membership.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The kinds of record events are about: deliveries of one record go in order. */
const WEBHOOK_RECORD_TYPES = ['listing', 'lead', 'review', 'agent', 'agency', 'invoice', 'membership'] as const;
export type WebhookRecordType = (typeof WEBHOOK_RECORD_TYPES)[number];

const MAX_URL_LENGTH = 2000;
const MAX_DESCRIPTION = 500;
const MAX_FILTER_VALUES = 50;
const Slug = Type.String({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9][a-z0-9-]*$' });
const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });

const EventTypeField = Type.Enum([...WEBHOOK_EVENT_TYPES]);

/**
 * What an endpoint's events are narrowed to: every list given must match (within a list, any value). A list that
 * does not apply to an event's type does not narrow it (docs/webhooks.md, "Filters").
 */
const WebhookFilter = Type.Object(
  {
    states: Type.Optional(
      Type.Array(Type.Enum([...LISTING_STATES]), {
        minItems: 1,
        maxItems: LISTING_STATES.length,
        uniqueItems: true,
        description:
          'The listing’s state (of a lead’s or review’s listing too); a `listing.state_changed` matches when the state it left or ' +
          'entered is one of these',
      }),
    ),
    types: Type.Optional(
      Type.Array(Slug, {
        minItems: 1,
        maxItems: MAX_FILTER_VALUES,
        uniqueItems: true,
        description: 'Slugs of `property_type` terms of the listing (of a lead’s or review’s listing too)',
      }),
    ),
    cities: Type.Optional(
      Type.Array(Slug, {
        minItems: 1,
        maxItems: MAX_FILTER_VALUES,
        uniqueItems: true,
        description: 'Slugs of `city` terms of the listing (of a lead’s or review’s listing too)',
      }),
    ),
    agent_ids: Type.Optional(
      Type.Array(Id, {
        minItems: 1,
        maxItems: MAX_FILTER_VALUES,
        uniqueItems: true,
        description: 'Agents named on the listing, the agent of `agent.updated`, or the agent (or listing) a lead or review is about',
      }),
    ),
    agency_ids: Type.Optional(
      Type.Array(Id, {
        minItems: 1,
        maxItems: MAX_FILTER_VALUES,
        uniqueItems: true,
        description:
          'The listing’s agency, the agency of `agency.updated` or of the agent of `agent.updated`, or that of what a lead or ' +
          'review is about',
      }),
    ),
    changed_fields: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z_]+$' }), {
        minItems: 1,
        maxItems: MAX_FILTER_VALUES,
        uniqueItems: true,
        description:
          'Field names of the listing record: a `listing.updated` matches when one of them changed (or when the changes are ' +
          'unknown: `changed_fields` null). Other event types are not narrowed by it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type WebhookFilterInput = Static<typeof WebhookFilter>;

/** An endpoint as the API shows it: never its secret, which only the create and the rotation answer. */
export const WebhookEndpoint = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'Where events are POSTed' }),
    description: Type.String(),
    events: Type.Array(EventTypeField),
    filter: Nullable(WebhookFilter),
    enabled: Type.Boolean({ description: 'False when disabled: nothing is queued for it and its queued deliveries wait' }),
    disabled_reason: Nullable(
      Type.Enum(['gone', 'failing', 'manual'], {
        description: '`gone`: the receiver answered 410; `failing`: every attempt failed for five days; `manual`: PATCH `enabled: false`',
      }),
    ),
    disabled_at: Nullable(Type.String({ format: 'date-time' })),
    failing_since: Nullable(Type.String({ format: 'date-time', description: 'The first failed attempt since the last success' })),
    previous_secret_expires_at: Nullable(
      Type.String({ format: 'date-time', description: 'Until then deliveries are signed with the secret before the last rotation too' }),
    ),
    owner: Type.Object(
      {
        type: Type.Enum(['user', 'client'], {
          description: '`user`: an administrator’s account; `client`: a machine client (docs/api.md 17), which sees only its own',
        }),
        id: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WebhookEndpoint', title: 'WebhookEndpoint', additionalProperties: false },
);
export type WebhookEndpointRecord = Static<typeof WebhookEndpoint>;

const SecretField = Type.String({
  pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
  description: '`whsec_` and 32 random bytes in base64: the HMAC key is the base64 part, decoded. Shown only in this answer',
});

export const CreatedWebhookEndpoint = Type.Object({ ...WebhookEndpoint.properties, secret: SecretField }, { additionalProperties: false });
export type CreatedWebhookEndpointRecord = Static<typeof CreatedWebhookEndpoint>;

const UrlField = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: 'An absolute `https` (or `http`) URL without user name or password',
});
const DescriptionField = Type.String({ maxLength: MAX_DESCRIPTION, description: 'Plain text: HTML tags are removed, white space trimmed' });
const EventsField = Type.Array(EventTypeField, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true });

export const CreateWebhookBody = Type.Object(
  {
    url: UrlField,
    events: EventsField,
    filter: Type.Optional(Nullable(WebhookFilter)),
    description: Type.Optional(DescriptionField),
  },
  { additionalProperties: false },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(UrlField),
    events: Type.Optional(EventsField),
    filter: Type.Optional(Nullable(WebhookFilter)),
    description: Type.Optional(DescriptionField),
    enabled: Type.Optional(
      Type.Boolean({
        description: '`true` enables a disabled endpoint again (its waiting deliveries resume); `false` disables it (`manual`)',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const WebhookList = Type.Object({ webhooks: Type.Array(Type.Ref('WebhookEndpoint')), total_webhooks: Type.Integer() });
export interface WebhookListRecord {
  webhooks: WebhookEndpointRecord[];
  total_webhooks: number;
}

export const WebhookIdParams = Type.Object({ id: Id }, { additionalProperties: false });

export const WebhookDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });

export const RotatedSecret = Type.Object({
  id: Type.Integer(),
  secret: SecretField,
  previous_secret_expires_at: Type.String({
    format: 'date-time',
    description: 'Until then deliveries carry the old secret’s signature too',
  }),
});
export type RotatedSecretRecord = Static<typeof RotatedSecret>;

export const WebhookTestResult = Type.Object({
  delivered: Type.Boolean({ description: 'Whether the receiver answered 2xx' }),
  response_status: Nullable(Type.Integer({ description: 'The receiver’s status; null when it could not be reached' })),
  response_body: Nullable(Type.String({ description: 'The first 256 bytes of its answer' })),
  latency_ms: Type.Integer(),
  error: Nullable(Type.String({ description: 'Why there was no answer (refused address, time-out, network), naming the host only' })),
});
export type WebhookTestResultRecord = Static<typeof WebhookTestResult>;

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One delivery of one event to one endpoint (GET /webhooks/{id}/deliveries). */
export const WebhookDelivery = Type.Object(
  {
    id: Type.Integer(),
    event: Type.Object(
      {
        id: Type.String({ description: 'The body’s `id` and the `webhook-id` header' }),
        type: Type.String(),
        sequence: Type.Integer({ description: 'The change-log number the event came from' }),
      },
      { additionalProperties: false },
    ),
    record: Type.Object(
      {
        type: Type.Enum([...WEBHOOK_RECORD_TYPES], { description: 'The kind of record the event is about; its deliveries go in order' }),
        id: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    status: Type.Enum([...DELIVERY_STATUSES], {
      description: '`pending`: waiting for its turn or its next attempt; `delivered`: answered 2xx; `failed`: given up',
    }),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Type.String({ format: 'date-time', description: 'When it is tried next; null unless pending' })),
    give_up_at: Type.String({ format: 'date-time', description: 'No attempt is made after this' }),
    last_attempt_at: Nullable(Type.String({ format: 'date-time' })),
    response_status: Nullable(Type.Integer({ description: 'The last answer’s status; null when there was none' })),
    response_body: Nullable(Type.String({ description: 'The first 256 bytes of the last answer' })),
    latency_ms: Nullable(Type.Integer({ description: 'How long the last attempt took' })),
    error: Nullable(Type.String({ description: 'Why the last attempt got no answer (refused address, time-out, network)' })),
    created_at: Type.String({ format: 'date-time' }),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery', additionalProperties: false },
);
export type WebhookDeliveryRecord = Static<typeof WebhookDelivery>;

export const DeliveryList = Type.Object({ deliveries: Type.Array(Type.Ref('WebhookDelivery')), pagination: Pagination });
export interface DeliveryListRecord {
  deliveries: WebhookDeliveryRecord[];
  pagination: PaginationRecord;
}

export const DeliveriesQuery = Type.Object(
  { ...PageQueryFields, status: Type.Optional(Type.Enum([...DELIVERY_STATUSES], { description: 'Only deliveries in this status' })) },
  { additionalProperties: false },
);
export type DeliveriesQueryInput = Static<typeof DeliveriesQuery>;

export const DeliveryIdParams = Type.Object({ id: Id, delivery_id: Id }, { additionalProperties: false });

export const ReplayBody = Type.Object(
  {
    from_sequence: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Send again every matching event whose `sequence` is this or later',
    }),
  },
  { additionalProperties: false },
);

export const ReplayResult = Type.Object({
  queued: Type.Integer({ description: 'How many deliveries were queued' }),
  from_sequence: Type.Integer(),
  first_kept_sequence: Nullable(
    Type.Integer({ description: 'The oldest event still kept (7 days): a replay from before it starts there; null when none is kept' }),
  ),
});
export type ReplayResultRecord = Static<typeof ReplayResult>;

/** The administrators' switch over every delivery (GET and PUT /webhooks/settings). */
export const WebhookSettings = Type.Object(
  {
    deliveries_paused: Type.Boolean({
      description:
        'True while every delivery is held back: by this switch or by WEBHOOK_DELIVERIES_PAUSED. Events are still derived ' +
        'and queued; once false, they go out in order',
    }),
    paused_by_switch: Type.Boolean({ description: 'What PUT /webhooks/settings set last (false before it was ever set)' }),
    paused_by_environment: Type.Boolean({ description: 'WEBHOOK_DELIVERIES_PAUSED on this server: only a restart changes it' }),
    updated_at: Nullable(Type.String({ format: 'date-time', description: 'When the switch was last set; null if never' })),
    updated_by: Nullable(Type.Integer({ description: 'The administrator who set it last; null if never, or once deleted' })),
  },
  { $id: 'WebhookSettings', title: 'WebhookSettings', additionalProperties: false },
);
export type WebhookSettingsRecord = Static<typeof WebhookSettings>;

export const WebhookSettingsBody = Type.Object(
  {
    deliveries_paused: Type.Boolean({
      description: '`true` holds every delivery back from the next run of the delivery job on (every process); `false` resumes them',
    }),
  },
  { additionalProperties: false },
);
export type WebhookSettingsInput = Static<typeof WebhookSettingsBody>;
