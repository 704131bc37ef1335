import { randomBytes } from 'node:crypto';
import { type Algorithm, hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import type { Insertable, Kysely } from 'kysely';
import type {
  AgenciesTable,
  AgentsTable,
  DB,
  ListingState,
  MediaRow,
  NewListing,
  NewMedia,
  Role,
  Taxonomy,
  UserRow,
} from '../../src/db/schema/index.js';
import { sortKey } from '../../src/lib/slug.js';
import { insertListing, type TermLink } from '../../src/modules/properties/properties.repository.js';
import type { CreateTermInput, TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import type { TaxonomiesService } from '../../src/modules/taxonomies/taxonomies.service.js';
import { insertUser } from '../../src/modules/accounts/accounts.repository.js';
import { TEST_JWT_SECRET, type TestApp } from './app.js';

export const DEFAULT_PASSWORD = 'correct horse battery staple';

/**
 * Every factory user shares one hash of the default password: argon2id, as the application stores them, at
 * the smallest cost. Verification takes its cost from the stored hash, so signing a factory user in through
 * the API skips the deliberately slow part (≈15–40 ms each, paid over a thousand times a run). Registration
 * and unknown users still cost what they cost in production; a test about that cost makes its user's hash with
 * the application's PasswordHasher (test/auth/hashing-event-loop.test.ts).
 */
let defaultHash: Promise<string> | undefined;
const CHEAPEST_ARGON2ID = { algorithm: 2 as Algorithm, memoryCost: 1024, timeCost: 1, parallelism: 1 };

export function unique(prefix: string): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

export async function newUser(db: Kysely<DB>, overrides: Partial<Omit<UserRow, 'id'>> & { role?: Role } = {}): Promise<UserRow> {
  defaultHash ??= hash(DEFAULT_PASSWORD, CHEAPEST_ARGON2ID);
  const username = overrides.username ?? unique('user_');
  const now = new Date().toISOString();
  return insertUser(db, {
    username,
    email: `${username.toLowerCase()}@example.test`,
    password_hash: await defaultHash,
    role: 'buyer',
    status: 'active',
    display_name: username,
    created_at: now,
    updated_at: now,
    ...overrides,
  });
}

/** Logs in through the API (under `apiPrefix` when the app has API_PREFIX) and returns the bearer token. */
export async function tokenFor(
  app: FastifyInstance,
  user: UserRow,
  { password = DEFAULT_PASSWORD, apiPrefix = '' }: { password?: string; apiPrefix?: string } = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `${apiPrefix}/realty-api/v1/auth/login`,
    payload: { username: user.username, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return response.json().data.token as string;
}

/** The Authorization header of a signed-in caller. */
export type Auth = { authorization: string };

export function bearer(token: string): Auth {
  return { authorization: `Bearer ${token}` };
}

/** The Authorization header of `user`, logged in through the API. */
export async function signIn(app: FastifyInstance, user: UserRow): Promise<Auth> {
  return bearer(await tokenFor(app, user));
}

/** A new user (a buyer unless `overrides` say else), logged in through the API: the user and its Authorization header. */
export async function newSignedInUser(
  t: Pick<TestApp, 'app' | 'database'>,
  overrides: Partial<Omit<UserRow, 'id'>> & { role?: Role } = {},
): Promise<{ user: UserRow; auth: Auth }> {
  const user = await newUser(t.database.db, overrides);
  return { user, auth: await signIn(t.app, user) };
}

/**
 * The Authorization header of a session started by the auth service itself: no login request, so no login
 * rate limit or lock is touched (for tests that count requests against those).
 */
export async function sessionFor(t: Pick<TestApp, 'services'>, user: UserRow): Promise<Auth> {
  return bearer((await t.services.auth.signIn(user)).token);
}

export async function newTerm(
  taxonomies: TaxonomiesService,
  taxonomy: Taxonomy,
  input: Partial<CreateTermInput> = {},
): Promise<TermRecord> {
  return taxonomies.createTerm(taxonomy, { name: unique('Term '), ...input });
}

/** A term row written straight into the table (no service, no stamps): for data that predates later migrations. */
export async function insertTermRow(db: Kysely<DB>, taxonomy: Taxonomy, slug: string): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('terms')
    .values({
      taxonomy,
      name: slug,
      slug,
      sort_key: slug,
      parent_id: null,
      location_parent_id: null,
      image_url: null,
      marker_icon_url: null,
      marker_retina_icon_url: null,
      custom_link: null,
      color: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function newListing(
  db: Kysely<DB>,
  { status = 'publish', terms = [] as TermLink[], ...overrides }: Partial<NewListing> & { status?: ListingState; terms?: TermLink[] } = {},
): Promise<number> {
  const now = new Date().toISOString();
  return insertListing(
    db,
    {
      slug: unique('listing-'),
      title: 'A listing',
      status,
      currency: 'USD',
      created_at: now,
      updated_at: now,
      published_at: status === 'publish' ? now : null,
      ...overrides,
    },
    terms,
  );
}

/** Links for `newListing` from term records. */
export function links(taxonomy: Taxonomy, ...terms: TermRecord[]): TermLink[] {
  return terms.map((t) => ({ termId: t.id, taxonomy }));
}

// Profiles and users

/** Marks a listing as a favorite of the user. */
export async function addFavorite(db: Kysely<DB>, userId: number, listingId: number): Promise<void> {
  await db.insertInto('favorites').values({ user_id: userId, listing_id: listingId, created_at: new Date().toISOString() }).execute();
}

/** A correctly signed access token for a real session that expired an hour ago. */
export async function expiredAccessToken(userId: number, sessionId: string): Promise<string> {
  return accessTokenExpiringIn(userId, sessionId, -3600);
}

/** A correctly signed access token for a real session, expiring `seconds` from now (negative: in the past). */
export async function accessTokenExpiringIn(userId: number, sessionId: string, seconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuer('realty-api')
    .setAudience('realty-api')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + seconds)
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

// Agents and agencies

/** An agency user with its agency record, and an agent user whose agent record belongs to that agency. */
export async function newAgencyWithAgent(
  db: Kysely<DB>,
): Promise<{ agencyUser: UserRow; agencyId: number; agentUser: UserRow; agentId: number }> {
  const agencyUser = await newUser(db, { role: 'agency' });
  const agentUser = await newUser(db, { role: 'agent' });
  const now = new Date().toISOString();
  const directoryRecord = (user: UserRow) => ({
    user_id: user.id,
    name: user.display_name,
    slug: unique('directory-'),
    sort_key: user.display_name.toLowerCase(),
    created_at: now,
    updated_at: now,
  });
  const agency = await db.insertInto('agencies').values(directoryRecord(agencyUser)).returning('id').executeTakeFirstOrThrow();
  const agent = await db
    .insertInto('agents')
    .values({ ...directoryRecord(agentUser), agency_id: agency.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { agencyUser, agencyId: agency.id, agentUser, agentId: agent.id };
}

/** An agent record (no user unless `user_id` is given); `sort_key` follows `name` unless given. */
export async function newAgent(db: Kysely<DB>, overrides: Partial<Insertable<AgentsTable>> = {}): Promise<number> {
  const now = new Date().toISOString();
  const name = overrides.name ?? unique('Agent ');
  const row = await db
    .insertInto('agents')
    .values({ name, slug: unique('agent-'), sort_key: sortKey(name), created_at: now, updated_at: now, ...overrides })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An agency record (no user unless `user_id` is given); `sort_key` follows `name` unless given. */
export async function newAgency(db: Kysely<DB>, overrides: Partial<Insertable<AgenciesTable>> = {}): Promise<number> {
  const now = new Date().toISOString();
  const name = overrides.name ?? unique('Agency ');
  const row = await db
    .insertInto('agencies')
    .values({ name, slug: unique('agency-'), sort_key: sortKey(name), created_at: now, updated_at: now, ...overrides })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// Media

/** A media row without a stored file (an image unless `mime_type` says else); for checks that read rows only. */
export async function newMedia(db: Kysely<DB>, ownerId: number, overrides: Partial<NewMedia> = {}): Promise<MediaRow> {
  return db
    .insertInto('media')
    .values({
      owner_id: ownerId,
      storage_key: `${unique('test/')}.jpg`,
      mime_type: 'image/jpeg',
      width: 800,
      height: 600,
      size_bytes: 1000,
      created_at: new Date().toISOString(),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
