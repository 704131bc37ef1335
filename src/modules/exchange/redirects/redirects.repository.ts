import type { Executor } from '../../../db/executor.js';
import type { ListingState } from '../../../db/schema/index.js';

/** The record a redirect names: exactly one of the three. */
export type RedirectRecordRef = { listingId: number } | { agentId: number } | { agencyId: number };

export interface NewRedirect {
  path: string;
  record: RedirectRecordRef;
  at: string;
}

/** A redirect with what its answer needs of its record: the slug, and whether the public may see it. */
export interface RedirectRow {
  id: number;
  path: string;
  created_at: string;
  listing_id: number | null;
  agent_id: number | null;
  agency_id: number | null;
  listing_slug: string | null;
  listing_status: ListingState | null;
  agent_slug: string | null;
  agent_visible: number | null;
  agency_slug: string | null;
}

/** Keeps the paths not kept yet; a path kept already (for this record or another) stays as it is. */
export async function insertRedirects(db: Executor, rows: readonly NewRedirect[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('redirects')
    .values(
      rows.map(({ path, record, at }) => ({
        path,
        listing_id: 'listingId' in record ? record.listingId : null,
        agent_id: 'agentId' in record ? record.agentId : null,
        agency_id: 'agencyId' in record ? record.agencyId : null,
        created_at: at,
      })),
    )
    .onConflict((conflict) => conflict.column('path').doNothing())
    .execute();
}

function redirectsWithRecords(db: Executor) {
  return db
    .selectFrom('redirects')
    .leftJoin('listings', 'listings.id', 'redirects.listing_id')
    .leftJoin('agents', 'agents.id', 'redirects.agent_id')
    .leftJoin('agencies', 'agencies.id', 'redirects.agency_id')
    .select([
      'redirects.id',
      'redirects.path',
      'redirects.created_at',
      'redirects.listing_id',
      'redirects.agent_id',
      'redirects.agency_id',
      'listings.slug as listing_slug',
      'listings.status as listing_status',
      'agents.slug as agent_slug',
      'agents.visible as agent_visible',
      'agencies.slug as agency_slug',
    ]);
}

/** The redirect of a path (through its unique index). */
export async function findRedirectByPath(db: Executor, path: string): Promise<RedirectRow | undefined> {
  return redirectsWithRecords(db).where('redirects.path', '=', path).executeTakeFirst();
}

export async function countRedirects(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('redirects')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of redirects, newest first. */
export async function findRedirects(db: Executor, limit: number, offset: number): Promise<RedirectRow[]> {
  return redirectsWithRecords(db).orderBy('redirects.id', 'desc').limit(limit).offset(offset).execute();
}

/** Whether a redirect of that id was there to delete. */
export async function deleteRedirect(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('redirects').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
