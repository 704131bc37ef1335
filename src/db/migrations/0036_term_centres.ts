import type { AnyDb } from '../any-db.js';

/**
 * A location term's centre as an administrator sets it (issue 40: the listing editor's map goes to the chosen
 * place): latitude and longitude, both or neither. Without one, a term's centre is its listings' (taxonomies
 * repository).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('terms').addColumn('latitude', 'double precision').execute();
  await db.schema.alterTable('terms').addColumn('longitude', 'double precision').execute();
}
