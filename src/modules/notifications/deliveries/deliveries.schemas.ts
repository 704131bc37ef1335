import { type Static, Type } from 'typebox';
import { OUTBOX_STATES } from '../../../db/schema/index.js';
import { PageQueryFields, Pagination } from '../../../lib/paging.js';

const INT4_MAX = 2_147_483_647;

/**
 * One message of the outbox as the administrator sees it: where it stands and why it failed. Never the
 * payload: an e-mail's body can hold a password-reset link.
 */
export const Delivery = Type.Object(
  {
    id: Type.Integer(),
    channel: Type.String({ description: '`email`, `notification_email`, `notification_push`, `stripe_subscription`, …' }),
    status: Type.Enum(OUTBOX_STATES, { description: '`pending` (due or backing off), `sent`, or `dead` (gave up after the last attempt)' }),
    attempts: Type.Integer({ description: 'Sends tried since it was queued or last retried' }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last attempt failed; null when none failed or it was sent',
    }),
    idempotency_key: Type.String({ description: 'The message’s key, passed on to the receiver' }),
    created_at: Type.String({ format: 'date-time' }),
    available_at: Type.String({ format: 'date-time', description: 'When it may next be tried (pending)' }),
    sent_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type DeliveryRecord = Static<typeof Delivery>;

/** A channel as the outbox names it (`email`, `notification_email`, …): the list's filter and the retry's. */
const ChannelFilter = Type.String({ minLength: 1, maxLength: 64, description: 'Only this channel' });

export const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(OUTBOX_STATES, { description: 'Default `dead`' })),
    channel: Type.Optional(ChannelFilter),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);
export type DeliveriesQueryInput = Static<typeof DeliveriesQuery>;

export const DeliveryList = Type.Object({ deliveries: Type.Array(Delivery), pagination: Pagination });
export type DeliveryListRecord = Static<typeof DeliveryList>;

export const DeliveryIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) });

/** The retry takes nothing but the path. */
export const NoBody = Type.Object({}, { additionalProperties: false, description: 'Nothing, or `{}`' });

/** Which dead messages to send again: all of them, or one channel's. */
export const RetryDeadBody = Type.Object(
  { channel: Type.Optional(ChannelFilter) },
  { additionalProperties: false, description: 'Nothing, `{}`, or `{ "channel": … }`' },
);
export type RetryDeadInput = Static<typeof RetryDeadBody>;

export const RetriedDeliveries = Type.Object({
  retried: Type.Integer({ description: 'How many dead messages went back to the queue' }),
});
export type RetriedDeliveriesRecord = Static<typeof RetriedDeliveries>;
