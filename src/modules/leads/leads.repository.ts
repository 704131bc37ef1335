import type { AgentDisplay, LeadTarget } from '../../db/schema/index.js';
import type { PageWindow } from '../../lib/paging.js';
import type { Executor } from '../../db/executor.js';

/** Lead storage (docs/api.md 6.3): the leads, who they are addressed to, and the records they can be sent to. */

/**
 * A directory record or account a lead can be addressed to, with the account behind it. `email` is the
 * record's own address ('' for an account, or a record without one); the account's is the fallback.
 */
export interface ContactCard {
  name: string;
  email: string;
  userId: number | null;
  userEmail: string | null;
  userLanguage: string | null;
}

/** What decides who hears about a listing's lead: its `agent_display` choice and the records it names. */
export interface ListingContactRule {
  listingId: number;
  agentDisplay: AgentDisplay;
  authorId: number | null;
  agencyId: number | null;
}

export async function findListingContactRule(db: Executor, listingId: number): Promise<ListingContactRule | undefined> {
  const row = await db
    .selectFrom('listings')
    .select(['agent_display', 'author_id', 'agency_id'])
    .where('id', '=', listingId)
    .executeTakeFirst();
  return row && { listingId, agentDisplay: row.agent_display, authorId: row.author_id, agencyId: row.agency_id };
}

/** The agents a listing names, in the author's order, with their accounts. */
export async function findListingAgentCards(db: Executor, listingId: number): Promise<ContactCard[]> {
  const rows = await db
    .selectFrom('listing_agents as la')
    .innerJoin('agents as a', 'a.id', 'la.agent_id')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.name', 'a.email', 'u.id as user_id', 'u.email as user_email', 'u.language as user_language'])
    .where('la.listing_id', '=', listingId)
    .orderBy('la.position')
    .orderBy('a.id')
    .execute();
  return rows.map(toCard);
}

export async function findAgentCard(db: Executor, agentId: number): Promise<ContactCard | undefined> {
  const row = await db
    .selectFrom('agents as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.name', 'a.email', 'u.id as user_id', 'u.email as user_email', 'u.language as user_language'])
    .where('a.id', '=', agentId)
    .executeTakeFirst();
  return row && toCard(row);
}

export async function findAgencyCard(db: Executor, agencyId: number): Promise<ContactCard | undefined> {
  const row = await db
    .selectFrom('agencies as g')
    .leftJoin('users as u', 'u.id', 'g.user_id')
    .select(['g.name', 'g.email', 'u.id as user_id', 'u.email as user_email', 'u.language as user_language'])
    .where('g.id', '=', agencyId)
    .executeTakeFirst();
  return row && toCard(row);
}

/** An account as a contact: its display name, its own address only. */
export async function findUserCard(db: Executor, userId: number): Promise<ContactCard | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['display_name as name', 'id as user_id', 'email as user_email', 'language as user_language'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row && toCard({ ...row, email: '' });
}

interface CardRow {
  name: string;
  email: string;
  user_id: number | null;
  user_email: string | null;
  user_language: string | null;
}

function toCard(row: CardRow): ContactCard {
  return { name: row.name, email: row.email, userId: row.user_id, userEmail: row.user_email, userLanguage: row.user_language };
}

export interface NewLead {
  targetType: LeadTarget;
  targetId: number;
  senderUserId: number | null;
  name: string;
  email: string;
  phone: string;
  message: string;
  userType: string;
  createdAt: string;
}

/** Stores the lead with the users it is addressed to; returns its id. */
export async function insertLead(db: Executor, lead: NewLead, recipientIds: readonly number[]): Promise<number> {
  const { id } = await db
    .insertInto('leads')
    .values({
      target_type: lead.targetType,
      property_id: lead.targetType === 'property' ? lead.targetId : null,
      agent_id: lead.targetType === 'agent' ? lead.targetId : null,
      agency_id: lead.targetType === 'agency' ? lead.targetId : null,
      sender_user_id: lead.senderUserId,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      message: lead.message,
      user_type: lead.userType,
      created_at: lead.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (recipientIds.length > 0) {
    await db
      .insertInto('lead_recipients')
      .values(recipientIds.map((userId) => ({ lead_id: id, user_id: userId })))
      .execute();
  }
  return id;
}

export interface LeadRow {
  id: number;
  target_type: LeadTarget;
  property_id: number | null;
  agent_id: number | null;
  agency_id: number | null;
  name: string;
  email: string;
  phone: string;
  message: string;
  user_type: string;
  created_at: string;
}

/** The leads among `ids` that exist (outbound webhooks read the new ones by the change log's ids). */
export async function findLeadsByIds(db: Executor, ids: readonly number[]): Promise<LeadRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('leads')
    .select(['id', 'target_type', 'property_id', 'agent_id', 'agency_id', 'name', 'email', 'phone', 'message', 'user_type', 'created_at'])
    .where('id', 'in', ids)
    .execute();
}

/**
 * One page of the leads addressed to the user, newest (highest id) first, and their total. Both walk
 * lead_recipients_user_idx (user_id, lead_id); the page's leads come through the leads primary key.
 */
export async function findLeadPage(db: Executor, userId: number, window: PageWindow): Promise<{ rows: LeadRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('lead_recipients as r')
      .innerJoin('leads as l', 'l.id', 'r.lead_id')
      .select([
        'l.id',
        'l.target_type',
        'l.property_id',
        'l.agent_id',
        'l.agency_id',
        'l.name',
        'l.email',
        'l.phone',
        'l.message',
        'l.user_type',
        'l.created_at',
      ])
      .where('r.user_id', '=', userId)
      .orderBy('r.lead_id', 'desc')
      .limit(window.perPage)
      .offset(window.offset)
      .execute(),
    db
      .selectFrom('lead_recipients')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
