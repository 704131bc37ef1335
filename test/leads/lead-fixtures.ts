import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AgentDisplay, DB, ListingState, UserRow } from '../../src/db/schema/index.js';
import { newListing, unique } from '../helpers/factories.js';

/** Directory records and listings for the lead tests, and readers of what a lead leaves behind. */

export const API = '/realty-api/v1';

const now = () => new Date().toISOString();

/** An agent record, of `user` (null: an agent without an account), in an agency or not. */
export async function newAgent(
  db: Kysely<DB>,
  user: UserRow | null,
  { agencyId = null, email = '', visible = true }: { agencyId?: number | null; email?: string; visible?: boolean } = {},
): Promise<number> {
  const name = user?.display_name ?? unique('Agent ');
  const row = await db
    .insertInto('agents')
    .values({
      user_id: user?.id ?? null,
      agency_id: agencyId,
      name,
      slug: unique('agent-'),
      sort_key: name.toLowerCase(),
      email,
      visible: visible ? 1 : 0,
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An agency record of `user` (null: an agency without an account). */
export async function newAgency(db: Kysely<DB>, user: UserRow | null, { email = '', name = unique('Agency ') } = {}): Promise<number> {
  const row = await db
    .insertInto('agencies')
    .values({
      user_id: user?.id ?? null,
      name,
      slug: unique('agency-'),
      sort_key: name.toLowerCase(),
      email,
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A listing by `authorId` with the given contact choice, agents (in order) and agency. */
export async function newContactListing(
  db: Kysely<DB>,
  authorId: number | null,
  {
    display = 'author_info',
    agentIds = [],
    agencyId = null,
    status = 'publish',
    title = unique('Listing '),
  }: {
    display?: AgentDisplay;
    agentIds?: number[];
    agencyId?: number | null;
    status?: ListingState;
    title?: string;
  } = {},
): Promise<number> {
  const id = await newListing(db, { author_id: authorId, agent_display: display, agency_id: agencyId, status, title });
  if (agentIds.length > 0) {
    await db
      .insertInto('listing_agents')
      .values(agentIds.map((agentId, position) => ({ listing_id: id, agent_id: agentId, position })))
      .execute();
  }
  return id;
}

export interface ContactForm {
  name?: string;
  email?: string;
  phone?: string;
  message?: string;
  user_type?: string;
  [field: string]: unknown;
}

export const aForm = (overrides: ContactForm = {}): ContactForm => ({
  name: 'Ana Buyer',
  email: 'ana.buyer@example.test',
  message: 'Is it still available?',
  ...overrides,
});

/** POST a contact form; `path` like `/properties/3/contact`. */
export function postContact(
  app: FastifyInstance,
  path: string,
  payload: unknown,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  return app.inject({
    method: 'POST',
    url: `${API}${path}`,
    payload: payload as object,
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** The users a lead is addressed to, by id. */
export async function recipientIds(db: Kysely<DB>, leadId: number): Promise<number[]> {
  const rows = await db.selectFrom('lead_recipients').select('user_id').where('lead_id', '=', leadId).orderBy('user_id').execute();
  return rows.map((row) => row.user_id);
}

export interface QueuedMail {
  key: string;
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/** The mails queued for a lead, by idempotency key. */
export async function mailsOf(db: Kysely<DB>, leadId: number): Promise<QueuedMail[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['idempotency_key', 'channel', 'payload'])
    .where('idempotency_key', 'like', `lead:${leadId}:%`)
    .orderBy('idempotency_key')
    .execute();
  return rows.map((row) => {
    if (row.channel !== 'email') throw new Error(`unexpected channel ${row.channel}`);
    return { key: row.idempotency_key, ...(JSON.parse(row.payload) as Omit<QueuedMail, 'key'>) };
  });
}

/** The payload of the lead's `new_lead` domain event (undefined when there is none). */
export async function newLeadEvent(db: Kysely<DB>, leadId: number): Promise<Record<string, unknown> | undefined> {
  const rows = await db.selectFrom('domain_events').select('payload').where('type', '=', 'new_lead').execute();
  return rows.map((row) => JSON.parse(row.payload) as Record<string, unknown>).find((payload) => payload.lead_id === leadId);
}
