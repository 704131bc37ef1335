import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.js';
import type { DB, WebhookEndpointRow } from '../../db/schema/index.js';

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
