import type { Kysely } from 'kysely';
import type { FileStorage } from '../adapters/storage/storage.js';
import type { DB, Role } from '../db/schema/index.js';
import { seededRandom } from '../lib/random.js';
import { slugify } from '../lib/slug.js';
import type { AccountsService } from '../modules/accounts/index.js';
import {
  type DirectoryDetailsInput,
  needsDirectoryDetails,
  renderDirectoryPictures,
  writeDirectoryDetails,
} from './demo-directory-details.js';

/**
 * The people behind the demo listings: agencies with their agents, and private owners and sellers. Their
 * accounts have no password (they cannot sign in until someone sets one through the password reset), so a
 * demo database that ends up reachable from outside has no known credentials. Created once: a second demo
 * seed finds them by e-mail and reuses them.
 */

interface AgencyProfile {
  name: string;
  /** E-mail domain (`.example` is reserved for examples: no mail can reach a real person). */
  domain: string;
  /** Prefix of the agency's listing references, e.g. `SCR-004211`. */
  referencePrefix: string;
  /** State names (demo-places.ts) where the agency lists properties. */
  states: readonly string[];
  phonePrefix: string;
  agents: readonly (readonly [first: string, last: string])[];
}

const AGENCIES: readonly AgencyProfile[] = [
  {
    name: 'Sunshine Coast Realty',
    domain: 'sunshine-coast-realty.example',
    referencePrefix: 'SCR',
    states: ['Florida'],
    phonePrefix: '+1 305 555 01',
    agents: [
      ['Olivia', 'Carter'],
      ['Mateo', 'Alvarez'],
      ['Grace', 'Whitfield'],
      ['Daniel', 'Brooks'],
      ['Isabella', 'Reyes'],
    ],
  },
  {
    name: 'Empire Metro Homes',
    domain: 'empire-metro-homes.example',
    referencePrefix: 'EMH',
    states: ['New York'],
    phonePrefix: '+1 212 555 01',
    agents: [
      ['Ethan', 'Goldberg'],
      ['Sophia', 'Chen'],
      ['Marcus', 'Johnson'],
      ['Rachel', 'Kim'],
    ],
  },
  {
    name: 'Pacific Crest Properties',
    domain: 'pacific-crest-properties.example',
    referencePrefix: 'PCP',
    states: ['California'],
    phonePrefix: '+1 310 555 01',
    agents: [
      ['Ava', 'Thompson'],
      ['Lucas', 'Nguyen'],
      ['Chloe', 'Ramirez'],
      ['Noah', 'Patel'],
      ['Emily', 'Foster'],
      ['Ryan', "O'Connor"],
    ],
  },
  {
    name: 'Iberia Prime Inmobiliaria',
    domain: 'iberia-prime.example',
    referencePrefix: 'IPI',
    states: ['Madrid', 'Catalonia'],
    phonePrefix: '+34 910 000 0',
    agents: [
      ['Lucía', 'Fernández'],
      ['Javier', 'Morales'],
      ['Carmen', 'Ruiz'],
      ['Pablo', 'Navarro'],
      ['Marta', 'Vidal'],
    ],
  },
  {
    name: 'Maison Lumière Immobilier',
    domain: 'maison-lumiere.example',
    referencePrefix: 'MLI',
    states: ['Île-de-France', "Provence-Alpes-Côte d'Azur"],
    phonePrefix: '+33 1 00 00 00 ',
    agents: [
      ['Camille', 'Laurent'],
      ['Julien', 'Moreau'],
      ['Léa', 'Dubois'],
      ['Antoine', 'Lefèvre'],
    ],
  },
  {
    name: 'Gulf Horizon Real Estate',
    domain: 'gulf-horizon.example',
    referencePrefix: 'GHR',
    states: ['Dubai', 'Abu Dhabi'],
    phonePrefix: '+971 4 000 00',
    agents: [
      ['Omar', 'Al Mansouri'],
      ['Layla', 'Haddad'],
      ['Ahmed', 'Khalil'],
      ['Sara', 'Rahman'],
      ['James', 'Whitaker'],
    ],
  },
];

const PRIVATE_SELLERS: readonly (readonly [first: string, last: string, role: Role])[] = [
  ['Michael', 'Turner', 'owner'],
  ['Laura', 'Bennett', 'seller'],
  ['Hugo', 'Martin', 'owner'],
  ['Elena', 'García', 'seller'],
  ['Karim', 'Nasser', 'owner'],
  ['Jennifer', 'Walsh', 'seller'],
  ['Pierre', 'Girard', 'seller'],
  ['Ana', 'López', 'owner'],
];
const PRIVATE_DOMAIN = 'demo-owners.example';

/** Buyers who write the demo reviews. */
const REVIEWERS: readonly (readonly [first: string, last: string])[] = [
  ['Emma', 'Schultz'],
  ['Liam', 'Murphy'],
  ['Zoe', 'Adams'],
  ['Mohammed', 'Saleh'],
  ['Inès', 'Bernard'],
  ['Diego', 'Santos'],
  ['Hannah', 'Wright'],
  ['Tom', 'Becker'],
  ['Yuki', 'Tanaka'],
  ['Nadia', 'Petrova'],
  ['Samuel', 'Okafor'],
  ['Clara', 'Rossi'],
];
const REVIEWER_DOMAIN = 'demo-buyers.example';

export interface DemoAgent {
  agentId: number;
  userId: number;
  name: string;
}

interface DemoAgency {
  agencyId: number;
  userId: number;
  referencePrefix: string;
  states: readonly string[];
  agents: readonly DemoAgent[];
}

export interface DemoDirectory {
  agencies: readonly DemoAgency[];
  /** User ids of the private owners and sellers. */
  privateSellers: readonly number[];
  /** User ids of the buyers who write the demo reviews. */
  reviewers: readonly number[];
}

/** The demo directory's accounts, and the details still to write. */
export interface DemoDirectorySetup {
  directory: DemoDirectory;
  /**
   * Writes the details, pictures and reviews of agencies and agents that have none yet. Their pictures are
   * rendered from the moment `ensureDemoDirectory` returns (on sharp's threads), so that a seed writes its
   * listings meanwhile and calls this afterwards: the listings need the accounts only.
   */
  writeDetails(): Promise<void>;
}

/**
 * The demo agencies, agents, private sellers and reviewers, created through the users service where
 * missing; agencies and agents get their details, pictures and reviews the first time (`writeDetails`).
 */
export async function ensureDemoDirectory(
  db: Kysely<DB>,
  users: AccountsService,
  storage: FileStorage,
  now: Date,
): Promise<DemoDirectorySetup> {
  const reviewers: number[] = [];
  for (const [first, last] of REVIEWERS) {
    const local = `${slugify(first)}.${slugify(last)}`;
    reviewers.push(
      await ensureAccount(users, {
        username: local,
        email: `${local}@${REVIEWER_DOMAIN}`,
        role: 'buyer',
        firstName: first,
        lastName: last,
      }),
    );
  }
  const agencies: DemoAgency[] = [];
  const details: DirectoryDetailsInput[] = [];
  for (const profile of AGENCIES) {
    const agencyUser = await ensureAccount(users, {
      username: slugify(profile.name),
      email: `office@${profile.domain}`,
      role: 'agency',
      firstName: profile.name,
      phone: `${profile.phonePrefix}00`,
    });
    const { id: agencyId } = await db.selectFrom('agencies').select('id').where('user_id', '=', agencyUser).executeTakeFirstOrThrow();
    const agents: DemoAgent[] = [];
    for (const [index, [first, last]] of profile.agents.entries()) {
      const local = `${slugify(first)}.${slugify(last)}`;
      const userId = await ensureAccount(users, {
        username: local,
        email: `${local}@${profile.domain}`,
        role: 'agent',
        firstName: first,
        lastName: last,
        phone: `${profile.phonePrefix}${String(index + 1).padStart(2, '0')}`,
      });
      // Registration creates the agent record without an agency; the demo agents work for theirs.
      const agent = await db
        .updateTable('agents')
        .set({ agency_id: agencyId })
        .where('user_id', '=', userId)
        .returning('id')
        .executeTakeFirstOrThrow();
      agents.push({ agentId: agent.id, userId, name: `${first} ${last}` });
    }
    details.push({ ...profile, agencyId, agencyUserId: agencyUser, agents });
    agencies.push({ agencyId, userId: agencyUser, referencePrefix: profile.referencePrefix, states: profile.states, agents });
  }

  const privateSellers: number[] = [];
  for (const [first, last, role] of PRIVATE_SELLERS) {
    const local = `${slugify(first)}.${slugify(last)}`;
    privateSellers.push(
      await ensureAccount(users, { username: local, email: `${local}@${PRIVATE_DOMAIN}`, role, firstName: first, lastName: last }),
    );
  }

  const pending: DirectoryDetailsInput[] = [];
  for (const agency of details) if (await needsDirectoryDetails(db, agency)) pending.push(agency);
  const pictures = Promise.all(pending.map((agency) => renderDirectoryPictures(storage, agency, now)));
  // Awaited by writeDetails; a seed that fails before it must not leave the rejection unhandled.
  pictures.catch(() => undefined);
  return {
    directory: { agencies, privateSellers, reviewers },
    async writeDetails() {
      const rendered = await pictures;
      // A stream of its own, so that the details do not change the listings a seed draws.
      const random = seededRandom(7);
      for (const [n, agency] of pending.entries()) await writeDirectoryDetails(db, random, agency, rendered[n]!, reviewers, now);
    },
  };
}

interface DemoAccount {
  username: string;
  email: string;
  role: Role;
  firstName: string;
  lastName?: string;
  phone?: string;
}

/** The id of the account with that e-mail, created (without a password) when there is none. */
async function ensureAccount(users: AccountsService, account: DemoAccount): Promise<number> {
  const existing = await users.findByEmail(account.email);
  if (existing) return existing.id;
  const username = await users.freeUsername(account.username);
  const created = await users.createUser({ ...account, username });
  return created.id;
}
