import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema/index.js';

/** Where a repository function runs its SQL: the database itself, or the caller's transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;
