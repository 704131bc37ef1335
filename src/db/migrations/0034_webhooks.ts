import type { Kysely } from 'kysely';
import { identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Outbound webhooks (issue 43, modules/webhooks): endpoints, the events a follower of the change log derives,
 * one delivery per event and endpoint, the follower's position and the last state it saw of each record (so
 * that it can name the changed fields and a state's move). Times are ISO text, booleans 0/1, lists JSON text.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'integer', identity(db))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    /** JSON array of event type names. */
    .addColumn('events', 'text', (col) => col.notNull())
    /** JSON object narrowing the events (states, types, cities, agents, agencies, changed fields), or null. */
    .addColumn('filter', 'text')
    /** `whsec_<base64>`: kept as it is, since every delivery is signed with it. */
    .addColumn('secret', 'text', (col) => col.notNull())
    /** The secret before the last rotation, still signing beside the new one until `previous_secret_expires_at`. */
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    /**
     * Who owns the endpoint: `user` (an administrator) today; a machine client (issue 43 item 1) will be
     * another `owner_type` with its own ids, which is why this is not a foreign key to users.
     */
    .addColumn('owner_type', 'text', (col) => col.notNull())
    .addColumn('owner_id', 'integer', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    /** `gone` (the receiver answered 410), `failing` (five days of failures) or `manual`. */
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'text')
    /** The first failed attempt since the last success; null while the endpoint succeeds. */
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'integer', identity(db))
    /** `evt_<seq>_<n>`: the event's id in its body and `webhook-id` header, the same at every attempt and replay. */
    .addColumn('public_id', 'text', (col) => col.notNull().unique())
    /** The change-log number the event was derived from. */
    .addColumn('seq', 'bigint', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('entity', 'text', (col) => col.notNull())
    .addColumn('entity_id', 'integer', (col) => col.notNull())
    /** The JSON body every delivery of the event sends, byte for byte (it is what the signature covers). */
    .addColumn('body', 'text', (col) => col.notNull())
    /** JSON of what endpoint filters test: state (and the previous one), types, city, agents, agency, changed fields. */
    .addColumn('facets', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('webhook_events_seq_idx').on('webhook_events').columns(['seq', 'id']).execute();
  await db.schema.createIndex('webhook_events_created_idx').on('webhook_events').columns(['created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'integer', identity(db))
    .addColumn('endpoint_id', 'integer', (col) => col.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (col) => col.notNull().references('webhook_events.id').onDelete('cascade'))
    /** `listing:<id>`: deliveries of one record to one endpoint go one at a time, in event order. */
    .addColumn('record_key', 'text', (col) => col.notNull())
    /** `pending` (waiting or retrying), `delivered`, or `failed` (given up). */
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    /** No attempt is made after this (about three days after the event, or after a retry or replay asked for it). */
    .addColumn('give_up_at', 'text', (col) => col.notNull())
    .addColumn('last_attempt_at', 'text')
    .addColumn('response_status', 'integer')
    /** The first bytes of the last answer's body, as text. */
    .addColumn('response_body', 'text')
    .addColumn('latency_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema
    .createIndex('webhook_deliveries_record_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'record_key', 'status', 'event_id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['event_id']).execute();

  /** The follower's position in the change log; one row. `started_at`: records first seen after it are new. */
  await db.schema
    .createTable('webhook_follower')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('position', 'bigint', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .execute();

  /** What the follower last saw of a record: a hash per field, and the facets filters test (for its deletion). */
  await db.schema
    .createTable('webhook_snapshots')
    .addColumn('entity', 'text', (col) => col.notNull())
    .addColumn('entity_id', 'integer', (col) => col.notNull())
    .addColumn('fields', 'text', (col) => col.notNull())
    .addColumn('facets', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('webhook_snapshots_pk', ['entity', 'entity_id'])
    .execute();
}
