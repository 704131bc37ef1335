import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

/**
 * `cache_versions('sessions')` gets a new random value whenever anything that decides whether a bearer
 * token is still good changes: a session revoked or deleted, a user's role or status changed, a user
 * deleted. Processes that cache verified sessions compare it per request (modules/auth/session-cache.service.ts),
 * so such a change applies at once whatever code path (or manual SQL) made it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createSessionTriggers(db: Kysely<any>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const SQLITE_BUMP = `UPDATE cache_versions SET version = hex(randomblob(8)) WHERE name = 'sessions';`;

const SQLITE = [
  `CREATE TRIGGER sessions_revoked_stamp AFTER UPDATE OF revoked_at ON sessions BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER sessions_deleted_stamp AFTER DELETE ON sessions BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER users_access_stamp AFTER UPDATE OF role, status ON users
   WHEN OLD.role <> NEW.role OR OLD.status <> NEW.status BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER users_deleted_stamp AFTER DELETE ON users BEGIN ${SQLITE_BUMP} END`,
];

const POSTGRES = [
  `CREATE FUNCTION sessions_version() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE cache_versions SET version = md5(random()::text || clock_timestamp()::text) WHERE name = 'sessions';
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_revoked_stamp AFTER UPDATE OF revoked_at OR DELETE ON sessions
   FOR EACH STATEMENT EXECUTE FUNCTION sessions_version()`,
  `CREATE TRIGGER users_access_stamp AFTER UPDATE OF role, status OR DELETE ON users
   FOR EACH STATEMENT EXECUTE FUNCTION sessions_version()`,
];
