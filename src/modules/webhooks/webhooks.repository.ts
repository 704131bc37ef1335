import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DB, WebhookDeliveryStatus, WebhookEndpointRow } from '../../db/schema/index.js';

type NewEndpoint = Insertable<DB['webhook_endpoints']>;
type EndpointChange = Updateable<DB['webhook_endpoints']>;

export async function insertEndpoint(db: Executor, values: NewEndpoint): Promise<WebhookEndpointRow> {
  return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Every endpoint, oldest first (a site has a handful; MAX_ENDPOINTS at most). */
export async function findEndpoints(db: Executor): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();
}

export async function countEndpoints(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findEndpoint(db: Executor, id: number): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Changes the endpoint; undefined when there is none. */
export async function updateEndpoint(db: Executor, id: number, change: EndpointChange): Promise<WebhookEndpointRow | undefined> {
  return db.updateTable('webhook_endpoints').set(change).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Deletes the endpoint with its deliveries (foreign key cascade); false when there was none. */
export async function deleteEndpoint(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A delivery as the list shows it, with its event's id, type and number. */
export interface DeliveryListRow {
  id: number;
  event_id: number;
  public_id: string;
  type: string;
  seq: number | string;
  entity: string;
  entity_id: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  give_up_at: string;
  last_attempt_at: string | null;
  response_status: number | null;
  response_body: string | null;
  latency_ms: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** Deliveries with what the list shows of their events. */
function deliveriesWithEvents(db: Executor) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'v.public_id',
      'v.type',
      'v.seq',
      'v.entity',
      'v.entity_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.give_up_at',
      'd.last_attempt_at',
      'd.response_status',
      'd.response_body',
      'd.latency_ms',
      'd.last_error',
      'd.created_at',
      'd.finished_at',
    ]);
}

/** One page of an endpoint's deliveries, newest first, and how many there are (through webhook_deliveries_endpoint_idx). */
export async function findDeliveries(
  db: Executor,
  endpointId: number,
  status: WebhookDeliveryStatus | undefined,
  window: { offset: number; limit: number },
): Promise<{ rows: DeliveryListRow[]; total: number }> {
  let base = db.selectFrom('webhook_deliveries as d').where('d.endpoint_id', '=', endpointId);
  if (status) base = base.where('d.status', '=', status);
  const [rows, count] = await Promise.all([
    deliveriesWithEvents(db)
      .where('d.endpoint_id', '=', endpointId)
      .$if(status !== undefined, (query) => query.where('d.status', '=', status!))
      .orderBy('d.id', 'desc')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.count) };
}

/** One delivery of the endpoint (another endpoint's is not found). */
export async function findDelivery(db: Executor, endpointId: number, deliveryId: number): Promise<DeliveryListRow | undefined> {
  return deliveriesWithEvents(db).where('d.endpoint_id', '=', endpointId).where('d.id', '=', deliveryId).executeTakeFirst();
}

/** Makes a delivery due now again, with a new three days before it is given up. */
export async function requeueDelivery(db: Executor, deliveryId: number, at: string, giveUpAt: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, give_up_at: giveUpAt, finished_at: null })
    .where('id', '=', deliveryId)
    .execute();
}

/** Events numbered from `fromSeq` on, in order, after the (seq, id) `after` (keyset paging), at most `limit`. */
export async function findEventsFrom(
  db: Executor,
  fromSeq: number,
  after: { seq: number; id: number } | undefined,
  limit: number,
): Promise<{ id: number; seq: number; type: string; entity: string; entity_id: number; facets: string }[]> {
  let query = db.selectFrom('webhook_events').select(['id', 'seq', 'type', 'entity', 'entity_id', 'facets']).where('seq', '>=', fromSeq);
  if (after) query = query.where((eb) => eb.or([eb('seq', '>', after.seq), eb.and([eb('seq', '=', after.seq), eb('id', '>', after.id)])]));
  const rows = await query.orderBy('seq').orderBy('id').limit(limit).execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

export async function insertDeliveryRows(db: Executor, rows: Insertable<DB['webhook_deliveries']>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

/** The oldest event still kept: a replay cannot start before it. */
export async function firstKeptSequence(db: Executor): Promise<number | null> {
  const row = await db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.min('seq').as('first'))
    .executeTakeFirstOrThrow();
  return row.first === null ? null : Number(row.first);
}
