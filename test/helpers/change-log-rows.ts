import { type Kysely, sql } from 'kysely';
import type { DB } from '../../src/db/schema/index.js';
import type { DialectName } from '../../src/db/dialect/index.js';

/**
 * Writes a change-log row as a trigger would, for an entity no trigger may write yet (a later migration's): on
 * PostgreSQL with the transaction's marker, so that it is numbered at commit like every other.
 */
export async function recordChange(db: Kysely<DB>, dialect: DialectName, entity: string, entityId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('change_log')
      .values({ entity: entity as 'lead', entity_id: entityId, changed_at: new Date().toISOString() })
      .execute();
    if (dialect === 'postgres')
      await sql`INSERT INTO change_log_pending (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING`.execute(trx);
  });
}
