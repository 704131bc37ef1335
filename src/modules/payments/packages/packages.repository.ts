import type { Insertable, Transaction, Updateable } from 'kysely';
import { lockTransactionKey } from '../../../db/dialect/index.js';
import type { DB, PackagesTable } from '../../../db/schema/index.js';
import type { PackageRow } from './packages.mapper.js';
import type { Executor } from '../../../db/executor.js';

/** Package storage (docs/api.md 10). */

/** Packages in list order (`sort_order`, then id), hidden ones only when asked; walks packages_visible_order_idx. */
export async function findPackages(db: Executor, { includeHidden }: { includeHidden: boolean }): Promise<PackageRow[]> {
  let query = db.selectFrom('packages').selectAll();
  if (!includeHidden) query = query.where('visible', '=', 1);
  return query.orderBy('sort_order').orderBy('id').execute();
}

export async function findPackage(db: Executor, id: number): Promise<PackageRow | undefined> {
  return db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPackagesByIds(db: Executor, ids: readonly number[]): Promise<PackageRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('packages').selectAll().where('id', 'in', ids).execute();
}

export async function insertPackage(db: Executor, values: Insertable<PackagesTable>): Promise<PackageRow> {
  return db.insertInto('packages').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updatePackage(db: Executor, id: number, changes: Updateable<PackagesTable>): Promise<PackageRow | undefined> {
  return db.updateTable('packages').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Whether a membership or an invoice refers to the package (docs/api.md 12 "in use"). */
export async function isPackageInUse(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('memberships').select('id').where('package_id', '=', id)).as('membership'),
      eb.exists(eb.selectFrom('invoices').select('id').where('item_type', '=', 'package').where('item_id', '=', id)).as('invoice'),
    ])
    .executeTakeFirstOrThrow();
  // SQLite answers 0/1, PostgreSQL booleans.
  return Boolean(row.membership) || Boolean(row.invoice);
}

/** True when the row was deleted. */
export async function deletePackage(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('packages').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Serializes the transactions that decide about one package until the caller's transaction ends: deleting
 * it, and invoicing it (checkout takes the same lock), so that no invoice can come to refer to a package
 * that a concurrent deletion found unused.
 */
export async function lockPackage(trx: Transaction<DB>, id: number): Promise<void> {
  await lockTransactionKey(trx, `package:${id}`);
}
