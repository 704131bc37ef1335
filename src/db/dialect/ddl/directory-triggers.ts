import { type Kysely, sql } from 'kysely';
import { deferredStampTrigger } from './deferred-stamps.js';
import { dialectOf } from '../index.js';

/**
 * Stamps of migration 0004 and the reviews that go with their target:
 * - `directory` moves whenever an agent or agency record, an agent's terms or an agency's logo changes;
 *   agent and agency answers check it with `listings` (their `properties_count`) and `terms`.
 * - `reviews` moves with reviews, reactions and the authors shown on them (name, avatar, deletion).
 * - Deleting a listing deletes its reviews (a review's target has no foreign key: it is one of three tables).
 * - `count` of an `agent_category`/`agent_city` term is the number of visible agents using it, kept by
 *   increments (safe under concurrent changes) when an agent's terms or visibility change.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createDirectoryTriggers(db: Kysely<any>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const bump = (stamp: string) => `UPDATE cache_versions SET version = hex(randomblob(8)) WHERE name = '${stamp}';`;

const sqliteOnEveryChange = (table: string, stamp: string) =>
  ['INSERT', 'UPDATE', 'DELETE'].map(
    (event) => `CREATE TRIGGER ${table}_${stamp}_stamp_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN ${bump(stamp)} END`,
  );

const SQLITE = [
  ...sqliteOnEveryChange('agents', 'directory'),
  ...sqliteOnEveryChange('agencies', 'directory'),
  ...sqliteOnEveryChange('agent_terms', 'directory'),
  ...sqliteOnEveryChange('reviews', 'reviews'),
  ...sqliteOnEveryChange('review_reactions', 'reviews'),
  `CREATE TRIGGER users_reviews_stamp_shown AFTER UPDATE OF display_name, avatar_media_id ON users
   WHEN OLD.display_name <> NEW.display_name OR OLD.avatar_media_id IS NOT NEW.avatar_media_id BEGIN ${bump('reviews')} END`,
  `CREATE TRIGGER users_reviews_stamp_delete AFTER DELETE ON users BEGIN ${bump('reviews')} END`,
  `CREATE TRIGGER listings_reviews_delete AFTER DELETE ON listings
   BEGIN DELETE FROM reviews WHERE target_type = 'property' AND target_id = OLD.id; END`,
  `CREATE TRIGGER agent_terms_count_insert AFTER INSERT ON agent_terms
   WHEN (SELECT visible FROM agents WHERE id = NEW.agent_id) = 1
   BEGIN UPDATE terms SET count = count + 1 WHERE id = NEW.term_id; END`,
  `CREATE TRIGGER agent_terms_count_delete AFTER DELETE ON agent_terms
   WHEN (SELECT visible FROM agents WHERE id = OLD.agent_id) = 1
   BEGIN UPDATE terms SET count = count - 1 WHERE id = OLD.term_id; END`,
  `CREATE TRIGGER agents_terms_count_visible AFTER UPDATE OF visible ON agents WHEN OLD.visible <> NEW.visible
   BEGIN UPDATE terms SET count = count + (CASE WHEN NEW.visible = 1 THEN 1 ELSE -1 END)
         WHERE id IN (SELECT term_id FROM agent_terms WHERE agent_id = NEW.id); END`,
];

const POSTGRES = [
  ...['agents', 'agencies', 'agent_terms'].map((table) =>
    deferredStampTrigger(`${table}_directory_stamp`, 'INSERT OR UPDATE OR DELETE', table, 'directory'),
  ),
  ...['reviews', 'review_reactions'].map((table) =>
    deferredStampTrigger(`${table}_reviews_stamp`, 'INSERT OR UPDATE OR DELETE', table, 'reviews'),
  ),
  deferredStampTrigger(
    'users_reviews_stamp_shown',
    'UPDATE OF display_name, avatar_media_id',
    'users',
    'reviews',
    'OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.avatar_media_id IS DISTINCT FROM NEW.avatar_media_id',
  ),
  deferredStampTrigger('users_reviews_stamp_delete', 'DELETE', 'users', 'reviews'),
  `CREATE FUNCTION listings_reviews_delete() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN DELETE FROM reviews WHERE target_type = 'property' AND target_id = OLD.id; RETURN NULL; END $$`,
  `CREATE TRIGGER listings_reviews_delete AFTER DELETE ON listings FOR EACH ROW EXECUTE FUNCTION listings_reviews_delete()`,
  `CREATE FUNCTION agent_terms_count() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       UPDATE terms SET count = count + 1 WHERE id = NEW.term_id AND (SELECT visible FROM agents WHERE id = NEW.agent_id) = 1;
     ELSE
       UPDATE terms SET count = count - 1 WHERE id = OLD.term_id AND (SELECT visible FROM agents WHERE id = OLD.agent_id) = 1;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER agent_terms_count AFTER INSERT OR DELETE ON agent_terms FOR EACH ROW EXECUTE FUNCTION agent_terms_count()`,
  `CREATE FUNCTION agents_terms_count_visible() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE terms SET count = count + (CASE WHEN NEW.visible = 1 THEN 1 ELSE -1 END)
      WHERE id IN (SELECT term_id FROM agent_terms WHERE agent_id = NEW.id);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER agents_terms_count_visible AFTER UPDATE OF visible ON agents
   FOR EACH ROW WHEN (OLD.visible <> NEW.visible) EXECUTE FUNCTION agents_terms_count_visible()`,
];
