import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The change log (migration 0011): one row per change to what a search reads, written by triggers in the
 * writing transaction whatever code path writes, numbered by `seq` in commit order, so that a follower that
 * has applied everything up to `seq` N asks for `seq > N` and never misses a change that committed late.
 *
 * What is recorded, as (entity, entity_id):
 * - `listing`: a listing inserted, deleted or updated (except an update of `views` alone: the view counter's
 *   flushes are not searchable), and its term links and agents inserted, updated or deleted;
 * - `term`: a term inserted, deleted, or updated except its `count` alone (moved by every publication);
 * - `agent`: an agent inserted or deleted, or moved to another agency (the agency filter follows agents);
 * - `agency`: an agency inserted or deleted.
 * A later migration that adds a column a search reads extends the column lists below in its own DDL.
 *
 * SQLite runs one writing transaction at a time, so numbering at insert (`AUTOINCREMENT`: never reused, even
 * after pruning) is commit order. PostgreSQL's sequences are not: a transaction that took number 7 may commit
 * after one that took 8, and a follower that had read 8 would skip 7. So rows are inserted unnumbered, and
 * numbered at commit by a deferred constraint trigger that first locks every `cache_versions` row in name
 * order (what the deferred stamp renewals of deferred-stamps.ts lock, in the same order: no cycle between
 * them) and then the one-row `change_log_head`: from numbering to commit, no other transaction numbers, and
 * each transaction's numbers follow the last committed ones. The lock is held only for the commit, once per
 * transaction (a marker row in `change_log_pending` fires the trigger once). Until it commits, a row's `seq`
 * is null and nobody else sees it.
 */
export async function createChangeLog(db: AnyDb): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const LISTING_COLUMNS_BUT_VIEWS = [
  'slug',
  'title',
  'sort_title',
  'description',
  'excerpt',
  'status',
  'author_id',
  'reference',
  'price',
  'second_price',
  'currency',
  'price_prefix',
  'price_postfix',
  'bedrooms',
  'bathrooms',
  'rooms',
  'garage',
  'garage_size',
  'size',
  'size_unit',
  'land_size',
  'land_size_unit',
  'year_built',
  'featured',
  'address',
  'zipcode',
  'latitude',
  'longitude',
  'video_url',
  'virtual_tour',
  'agency_id',
  'agent_display',
  'additional_features',
  'floor_plans',
  'featured_image_id',
  'rating',
  'reviews_count',
  'rating_sum',
  'created_at',
  'updated_at',
  'published_at',
  'expires_at',
  'search_text',
  'title_tokens',
  'geo_key',
  'geo_x',
  'geo_y',
  'geo_z',
].join(', ');

const TERM_COLUMNS_BUT_COUNT = [
  'taxonomy',
  'name',
  'slug',
  'sort_key',
  'description',
  'parent_id',
  'location_parent_id',
  'image_url',
  'marker_icon_url',
  'marker_retina_icon_url',
  'custom_link',
  'color',
  'created_at',
  'updated_at',
].join(', ');

/** A recorded change: the trigger's name, its event and table, the entity it names and the column of its id. */
type Recorded = [name: string, event: 'INSERT' | 'DELETE' | `UPDATE OF ${string}`, table: string, entity: string, id: 'id' | 'listing_id'];

const RECORDED: Recorded[] = [
  ['listings_change_insert', 'INSERT', 'listings', 'listing', 'id'],
  ['listings_change_update', `UPDATE OF ${LISTING_COLUMNS_BUT_VIEWS}`, 'listings', 'listing', 'id'],
  ['listings_change_delete', 'DELETE', 'listings', 'listing', 'id'],
  ['listing_terms_change_insert', 'INSERT', 'listing_terms', 'listing', 'listing_id'],
  ['listing_terms_change_update', 'UPDATE OF listing_id, term_id, taxonomy, position', 'listing_terms', 'listing', 'listing_id'],
  ['listing_terms_change_delete', 'DELETE', 'listing_terms', 'listing', 'listing_id'],
  ['listing_agents_change_insert', 'INSERT', 'listing_agents', 'listing', 'listing_id'],
  ['listing_agents_change_update', 'UPDATE OF listing_id, agent_id, position', 'listing_agents', 'listing', 'listing_id'],
  ['listing_agents_change_delete', 'DELETE', 'listing_agents', 'listing', 'listing_id'],
  ['terms_change_insert', 'INSERT', 'terms', 'term', 'id'],
  ['terms_change_update', `UPDATE OF ${TERM_COLUMNS_BUT_COUNT}`, 'terms', 'term', 'id'],
  ['terms_change_delete', 'DELETE', 'terms', 'term', 'id'],
  ['agents_change_insert', 'INSERT', 'agents', 'agent', 'id'],
  ['agents_change_update', 'UPDATE OF agency_id', 'agents', 'agent', 'id'],
  ['agents_change_delete', 'DELETE', 'agents', 'agent', 'id'],
  ['agencies_change_insert', 'INSERT', 'agencies', 'agency', 'id'],
  ['agencies_change_delete', 'DELETE', 'agencies', 'agency', 'id'],
];

/** ISO 8601 UTC with milliseconds, as every timestamp of the schema. */
const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

const SQLITE = [
  `CREATE TABLE change_log (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     entity TEXT NOT NULL,
     entity_id INTEGER NOT NULL,
     changed_at TEXT NOT NULL
   )`,
  `CREATE INDEX change_log_changed_at_idx ON change_log (changed_at)`,
  ...RECORDED.map(
    ([name, event, table, entity, id]) =>
      `CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN
         INSERT INTO change_log (entity, entity_id, changed_at)
         VALUES ('${entity}', ${event === 'DELETE' ? 'OLD' : 'NEW'}.${id}, ${SQLITE_NOW});
       END`,
  ),
];

const POSTGRES = [
  `CREATE TABLE change_log (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     seq bigint UNIQUE,
     txid bigint NOT NULL DEFAULT txid_current(),
     entity text NOT NULL,
     entity_id integer NOT NULL,
     changed_at text NOT NULL DEFAULT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
   )`,
  `CREATE INDEX change_log_unnumbered_idx ON change_log (txid) WHERE seq IS NULL`,
  `CREATE INDEX change_log_changed_at_idx ON change_log (changed_at)`,
  `CREATE TABLE change_log_head (id integer PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL)`,
  `INSERT INTO change_log_head (id, seq) VALUES (1, 0)`,
  `CREATE TABLE change_log_pending (txid bigint PRIMARY KEY)`,
  // The recording triggers: record the change, and mark the transaction for numbering at commit (the marker's
  // insert fires the deferred trigger once; later ones conflict and fire nothing). Inserts and deletes are
  // recorded once per statement from its transition table (a bulk write inserts thousands of links in one
  // statement); updates once per row, as PostgreSQL allows no transition table beside a column list.
  ...(['id', 'listing_id'] as const).flatMap((column) => [
    `CREATE FUNCTION change_log_record_by_${column}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO change_log (entity, entity_id) VALUES (TG_ARGV[0], NEW.${column});
       INSERT INTO change_log_pending (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
       RETURN NULL;
     END $$`,
    ...(['inserted', 'deleted'] as const).map(
      (rows) => `CREATE FUNCTION change_log_record_${rows}_by_${column}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO change_log (entity, entity_id) SELECT TG_ARGV[0], ${column} FROM ${rows}_rows;
         IF FOUND THEN
           INSERT INTO change_log_pending (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
         END IF;
         RETURN NULL;
       END $$`,
    ),
  ]),
  // At commit: take the numbering lock (see above), number this transaction's rows in the order written.
  `CREATE FUNCTION change_log_number() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     written bigint;
     head bigint;
   BEGIN
     PERFORM 1 FROM cache_versions ORDER BY name FOR UPDATE;
     SELECT count(*) INTO written FROM change_log WHERE txid = NEW.txid AND seq IS NULL;
     UPDATE change_log_head SET seq = seq + written WHERE id = 1 RETURNING seq - written INTO head;
     UPDATE change_log c SET seq = head + o.n
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM change_log WHERE txid = NEW.txid AND seq IS NULL) o
      WHERE c.id = o.id;
     DELETE FROM change_log_pending WHERE txid = NEW.txid;
     RETURN NULL;
   END $$`,
  `CREATE CONSTRAINT TRIGGER change_log_pending_number AFTER INSERT ON change_log_pending DEFERRABLE INITIALLY DEFERRED
   FOR EACH ROW EXECUTE FUNCTION change_log_number()`,
  ...RECORDED.map(([name, event, table, entity, id]) =>
    event === 'INSERT' || event === 'DELETE'
      ? `CREATE TRIGGER ${name} AFTER ${event} ON ${table}
         REFERENCING ${event === 'INSERT' ? 'NEW TABLE AS inserted_rows' : 'OLD TABLE AS deleted_rows'}
         FOR EACH STATEMENT EXECUTE FUNCTION change_log_record_${event === 'INSERT' ? 'inserted' : 'deleted'}_by_${id}('${entity}')`
      : `CREATE TRIGGER ${name} AFTER ${event} ON ${table}
         FOR EACH ROW EXECUTE FUNCTION change_log_record_by_${id}('${entity}')`,
  ),
];
