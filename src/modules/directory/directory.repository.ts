import type { Selectable, Transaction, Updateable } from 'kysely';
import type { AgenciesTable, AgentsTable, DB, MediaRow, Taxonomy } from '../../db/schema/index.js';
import type { Executor } from '../../db/executor.js';
import type { AgencyAccess, AgentAccess, ManagedRecords } from './directory-access.js';

/**
 * Directory storage. Term counts of agent categories and cities, and the `directory` and `listings` cache
 * stamps, are kept by triggers (db/dialect/ddl/directory-triggers.ts, listing-triggers.ts) whatever statement
 * changes an agent, an agency or an agent's terms.
 */

/** An agent row with its agency's name, slug and user, and its picture's stored file. */
export type AgentRow = Selectable<AgentsTable> & {
  agency_name: string | null;
  agency_slug: string | null;
  agency_user_id: number | null;
  picture_key: string | null;
  picture_sizes: string | null;
};

/** The agents among `ids` that exist, with their agency and picture (one query). */
export async function findAgentRows(db: Executor, ids: readonly number[]): Promise<AgentRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('agents as a')
    .leftJoin('agencies as g', 'g.id', 'a.agency_id')
    .leftJoin('media as m', 'm.id', 'a.picture_media_id')
    .selectAll('a')
    .select([
      'g.name as agency_name',
      'g.slug as agency_slug',
      'g.user_id as agency_user_id',
      'm.storage_key as picture_key',
      'm.sizes as picture_sizes',
    ])
    .where('a.id', 'in', ids)
    .execute();
}

export interface AgentTermRow {
  agent_id: number;
  taxonomy: Taxonomy;
  id: number;
  name: string;
  slug: string;
}

/** The category and city terms of the agents, each agent's in its own order. */
export async function findAgentTerms(db: Executor, ids: readonly number[]): Promise<AgentTermRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('agent_terms as at')
    .innerJoin('terms as t', 't.id', 'at.term_id')
    .select(['at.agent_id', 'at.taxonomy', 't.id', 't.name', 't.slug'])
    .where('at.agent_id', 'in', ids)
    .orderBy('at.agent_id')
    .orderBy('at.position')
    .orderBy('t.id')
    .execute();
}

/** Published listings naming each agent, in one grouped query (index listing_agents_agent_idx). */
export async function countPublishedByAgent(db: Executor, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('listing_agents as la')
    .innerJoin('listings as l', 'l.id', 'la.listing_id')
    .select(['la.agent_id', (eb) => eb.fn.countAll().as('n')])
    .where('la.agent_id', 'in', ids)
    .where('l.status', '=', 'publish')
    .groupBy('la.agent_id')
    .execute();
  // PostgreSQL returns count(*) as a bigint string, SQLite as a number.
  return new Map(rows.map((row) => [row.agent_id, Number(row.n)]));
}

/** An agency row with its logo's stored file. */
export type AgencyRow = Selectable<AgenciesTable> & { logo_key: string | null; logo_sizes: string | null };

/** The agencies among `ids` that exist, with their logo (one query). */
export async function findAgencyRows(db: Executor, ids: readonly number[]): Promise<AgencyRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('agencies as g')
    .leftJoin('media as m', 'm.id', 'g.logo_media_id')
    .selectAll('g')
    .select(['m.storage_key as logo_key', 'm.sizes as logo_sizes'])
    .where('g.id', 'in', ids)
    .execute();
}

/** Visible agents of each agency, in one grouped query (index agents_agency_idx). */
export async function countVisibleAgents(db: Executor, agencyIds: readonly number[]): Promise<Map<number, number>> {
  if (agencyIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('agents')
    .select(['agency_id', (eb) => eb.fn.countAll().as('n')])
    .where('agency_id', 'in', agencyIds)
    .where('visible', '=', 1)
    .groupBy('agency_id')
    .execute();
  return new Map(rows.map((row) => [row.agency_id!, Number(row.n)]));
}

/**
 * Published listings of each agency (docs/api.md 12): those whose `agency_id` is the agency and those naming one
 * of its agents, each listing counted once per agency (UNION drops the pairs found both ways). One query.
 */
export async function countPublishedByAgency(db: Executor, agencyIds: readonly number[]): Promise<Map<number, number>> {
  if (agencyIds.length === 0) return new Map();
  const direct = db
    .selectFrom('listings')
    .select(['agency_id', 'id as listing_id'])
    .where('agency_id', 'in', agencyIds)
    .where('status', '=', 'publish');
  const throughAgents = db
    .selectFrom('listing_agents as la')
    .innerJoin('agents as a', 'a.id', 'la.agent_id')
    .innerJoin('listings as l', 'l.id', 'la.listing_id')
    .select(['a.agency_id', 'la.listing_id'])
    .where('a.agency_id', 'in', agencyIds)
    .where('l.status', '=', 'publish');
  const rows = await db
    .selectFrom(direct.union(throughAgents).as('owned'))
    .select(['owned.agency_id', (eb) => eb.fn.countAll().as('n')])
    .groupBy('owned.agency_id')
    .execute();
  return new Map(rows.map((row) => [row.agency_id!, Number(row.n)]));
}

// Writes

/**
 * Stamps the agent's `updated_at` first thing in a writing transaction, which takes its row lock on
 * PostgreSQL (SQLite has one writer anyway): concurrent updates of one agent then read and merge (`social`)
 * in turn. False when there is no such agent.
 */
export async function lockAgent(trx: Transaction<DB>, id: number, now: string): Promise<boolean> {
  const result = await trx.updateTable('agents').set({ updated_at: now }).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** As lockAgent, for an agency. */
export async function lockAgency(trx: Transaction<DB>, id: number, now: string): Promise<boolean> {
  const result = await trx.updateTable('agencies').set({ updated_at: now }).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The stored `social` JSON of an agent or agency. */
export async function findSocial(db: Executor, table: 'agents' | 'agencies', id: number): Promise<string> {
  const row = await db.selectFrom(table).select('social').where('id', '=', id).executeTakeFirstOrThrow();
  return row.social;
}

/** Writes checked columns (directory-input.ts); triggers renew the stamps. */
export async function updateAgent(db: Executor, id: number, changes: Updateable<AgentsTable>): Promise<void> {
  await db.updateTable('agents').set(changes).where('id', '=', id).execute();
}

/** Writes checked columns (directory-input.ts); triggers renew the stamps. */
export async function updateAgency(db: Executor, id: number, changes: Updateable<AgenciesTable>): Promise<void> {
  await db.updateTable('agencies').set(changes).where('id', '=', id).execute();
}

/** Replaces the agent's terms of one taxonomy with `termIds`, in that order (triggers adjust term counts). */
export async function replaceAgentTerms(db: Executor, agentId: number, taxonomy: Taxonomy, termIds: readonly number[]): Promise<void> {
  await db.deleteFrom('agent_terms').where('agent_id', '=', agentId).where('taxonomy', '=', taxonomy).execute();
  if (termIds.length === 0) return;
  await db
    .insertInto('agent_terms')
    .values(termIds.map((termId, position) => ({ agent_id: agentId, term_id: termId, taxonomy, position })))
    .execute();
}

/** Puts a free agent into the agency; false when the agent belongs to an agency already (a concurrent attach). */
export async function attachAgent(db: Executor, agentId: number, agencyId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('agents')
    .set({ agency_id: agencyId, updated_at: now })
    .where('id', '=', agentId)
    .where('agency_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Takes the agent out of the agency; false when it was not (or no longer) in it. */
export async function detachAgent(db: Executor, agentId: number, agencyId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('agents')
    .set({ agency_id: null, updated_at: now })
    .where('id', '=', agentId)
    .where('agency_id', '=', agencyId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// Checks of update input

/** The taxonomy of each existing term among `ids`. */
export async function findTermsByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('terms').select(['id', 'taxonomy']).where('id', 'in', ids).execute();
}

/** Who uploaded a media item, and its type. */
export async function findMedia(db: Executor, id: number) {
  return db.selectFrom('media').select(['id', 'owner_id', 'mime_type']).where('id', '=', id).executeTakeFirst();
}

export async function findAgentAccess(db: Executor, id: number): Promise<AgentAccess | undefined> {
  const row = await db
    .selectFrom('agents')
    .leftJoin('agencies', 'agencies.id', 'agents.agency_id')
    .select(['agents.id', 'agents.user_id', 'agents.agency_id', 'agencies.user_id as agency_user_id', 'agents.visible'])
    .where('agents.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, userId: row.user_id, agencyId: row.agency_id, agencyUserId: row.agency_user_id, visible: row.visible === 1 };
}

export async function findAgencyAccess(db: Executor, id: number): Promise<AgencyAccess | undefined> {
  const row = await db.selectFrom('agencies').select(['id', 'user_id']).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, userId: row.user_id };
}

/**
 * The agency of the user and the agents they manage (their own record, their agency's agents), in two queries
 * through agencies.user_id's and agents.user_id's unique indexes and agents_agency_idx, whatever the number of
 * listings.
 */
export async function findManagedRecords(db: Executor, userId: number): Promise<ManagedRecords> {
  const ownAgency = db.selectFrom('agencies').select('id').where('user_id', '=', userId);
  const [agency, agents] = await Promise.all([
    ownAgency.executeTakeFirst(),
    db
      .selectFrom('agents')
      .select(['id', 'user_id', 'agency_id'])
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('agency_id', 'in', ownAgency)]))
      .orderBy('id')
      .execute(),
  ]);
  const agencyId = agency?.id ?? null;
  return {
    agencyId,
    agentIds: agents.map((agent) => agent.id),
    agencyAgentUserIds: agents.flatMap((agent) =>
      agent.agency_id !== null && agent.agency_id === agencyId && agent.user_id !== null ? [agent.user_id] : [],
    ),
  };
}

// The website's record pages (src/site/pages/directory)

/** The id of the agent whose slug this is (agents.slug's unique index), if any. */
export async function findAgentIdBySlug(db: Executor, slug: string): Promise<number | undefined> {
  const row = await db.selectFrom('agents').select('id').where('slug', '=', slug).executeTakeFirst();
  return row?.id;
}

/** The id of the agency whose slug this is (agencies.slug's unique index), if any. */
export async function findAgencyIdBySlug(db: Executor, slug: string): Promise<number | undefined> {
  const row = await db.selectFrom('agencies').select('id').where('slug', '=', slug).executeTakeFirst();
  return row?.id;
}

/** The media rows of the pictures of the agents among `ids` that have one, each with its agent's id (one query). */
export async function findAgentPictureRows(db: Executor, ids: readonly number[]): Promise<(MediaRow & { record_id: number })[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('agents as a')
    .innerJoin('media as m', 'm.id', 'a.picture_media_id')
    .selectAll('m')
    .select('a.id as record_id')
    .where('a.id', 'in', ids)
    .execute();
}

/** The media rows of the logos of the agencies among `ids` that have one, each with its agency's id (one query). */
export async function findAgencyLogoRows(db: Executor, ids: readonly number[]): Promise<(MediaRow & { record_id: number })[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('agencies as g')
    .innerJoin('media as m', 'm.id', 'g.logo_media_id')
    .selectAll('m')
    .select('g.id as record_id')
    .where('g.id', 'in', ids)
    .execute();
}
