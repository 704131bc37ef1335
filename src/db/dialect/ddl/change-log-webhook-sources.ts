import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0038: the change log (change-log.ts) also records what the outbound webhooks' other event types
 * follow (docs/webhooks.md), so that each has a source numbered in commit order whatever code path writes:
 * - `agent` and `agency`: any update of the row, not only an agent's move to another agency (the search index
 *   re-reads an agent it already holds; an agency it ignores), for `agent.updated` and `agency.updated`;
 * - `lead`: a lead inserted (leads are never changed), for `lead.created`;
 * - `review`: a review inserted, for `review.created`;
 * - `invoice`: an invoice inserted, or its `status` updated, for `invoice.paid`;
 * - `membership`: a membership inserted or deleted, or its package, state, period or renewal updated (not the
 *   credits that each listing spends), for `membership.changed`.
 * Every reader of the change log skips the entities it does not know (the search index reads listings, terms
 * and agents only).
 *
 * The rows are written like every other (change-log.ts): row by row on SQLite, numbered at insert; on
 * PostgreSQL inserts and deletes once per statement and updates once per row, numbered at commit.
 */
export async function recordWebhookSources(db: AnyDb): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const MEMBERSHIP_COLUMNS = 'user_id, package_id, status, started_at, expires_at, auto_renew';

/** A recorded change: the trigger's name, its event and table, and the entity it names (by the row's `id`). */
type Recorded = [name: string, event: 'INSERT' | 'DELETE' | 'UPDATE' | `UPDATE OF ${string}`, table: string, entity: string];

const RECORDED: Recorded[] = [
  ['agents_change_update', 'UPDATE', 'agents', 'agent'],
  ['agencies_change_update', 'UPDATE', 'agencies', 'agency'],
  ['leads_change_insert', 'INSERT', 'leads', 'lead'],
  ['reviews_change_insert', 'INSERT', 'reviews', 'review'],
  ['invoices_change_insert', 'INSERT', 'invoices', 'invoice'],
  ['invoices_change_update', 'UPDATE OF status', 'invoices', 'invoice'],
  ['memberships_change_insert', 'INSERT', 'memberships', 'membership'],
  ['memberships_change_update', `UPDATE OF ${MEMBERSHIP_COLUMNS}`, 'memberships', 'membership'],
  ['memberships_change_delete', 'DELETE', 'memberships', 'membership'],
];

const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

const SQLITE = [
  // Was `UPDATE OF agency_id` (migration 0011).
  `DROP TRIGGER agents_change_update`,
  ...RECORDED.map(
    ([name, event, table, entity]) =>
      `CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN
         INSERT INTO change_log (entity, entity_id, changed_at)
         VALUES ('${entity}', ${event === 'DELETE' ? 'OLD' : 'NEW'}.id, ${SQLITE_NOW});
       END`,
  ),
];

const POSTGRES = [
  `DROP TRIGGER agents_change_update ON agents`,
  // The recording functions of migration 0011 (change-log.ts), by the row's `id`.
  ...RECORDED.map(([name, event, table, entity]) =>
    event === 'INSERT' || event === 'DELETE'
      ? `CREATE TRIGGER ${name} AFTER ${event} ON ${table}
         REFERENCING ${event === 'INSERT' ? 'NEW TABLE AS inserted_rows' : 'OLD TABLE AS deleted_rows'}
         FOR EACH STATEMENT EXECUTE FUNCTION change_log_record_${event === 'INSERT' ? 'inserted' : 'deleted'}_by_id('${entity}')`
      : `CREATE TRIGGER ${name} AFTER ${event} ON ${table}
         FOR EACH ROW EXECUTE FUNCTION change_log_record_by_id('${entity}')`,
  ),
];
