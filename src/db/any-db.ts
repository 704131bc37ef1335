import type { Kysely } from 'kysely';

/**
 * A database (or transaction: a Transaction is a Kysely) of no particular schema, for the DDL and dialect helpers
 * that migrations call as well as the application. A migration runs against the schema as it was at its step, so
 * these helpers cannot take today's `DB` interface; `Kysely<DB>` and `Transaction<DB>` are both assignable here.
 * (Frozen files, the migrations and the DDL snapshots under dialect/ddl/, keep the copy each was written with.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- no schema on purpose, as said above
export type AnyDb = Kysely<any>;
