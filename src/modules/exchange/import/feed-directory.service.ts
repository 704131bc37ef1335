import type { Kysely } from 'kysely';
import type { FeedAgency, FeedAgent } from '../../../adapters/feeds/feed-records.js';
import type { DB, Role } from '../../../db/schema/index.js';
import { fieldErrors } from '../../../http/error-handler.js';
import { bodyChecker } from '../../../http/validation.js';
import { AppError, type FieldError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import type { AccountsService } from '../../accounts/index.js';
import { type DirectoryServices, UpdateAgencyBody, UpdateAgentBody } from '../../directory/index.js';
import { findDirectoryRecordOf } from '../directory-records.repository.js';
import * as repository from './feed-import.repository.js';

export interface FeedDirectoryDeps {
  db: Kysely<DB>;
  users: AccountsService;
  directory: DirectoryServices;
}

/** The administrator an import acts as: the import is their own act, done without a session of theirs. */
export function importActor(actorId: number): AuthUser {
  return { id: actorId, role: 'administrator', sessionId: 'feed-import', tokenExpiresAt: new Date(8.64e15) };
}

/** What became of a feed's agent or agency: its id here (null when a dry run would make it), or why it was rejected. */
export type DirectoryOutcome = { id: number | null } | { errors: FieldError[] };

type Kind = 'agent' | 'agency';

const TABLES = { agent: 'agents', agency: 'agencies' } as const satisfies Record<Kind, 'agents' | 'agencies'>;
const NOT_OF_KIND = { agent: 'exchange_rule_email_not_agent', agency: 'exchange_rule_email_not_agency' } as const;
/** A feed's details are checked with the rules of PUT /agents/{id} and /agencies/{id}. */
const CHECKS = { agent: bodyChecker(UpdateAgentBody), agency: bodyChecker(UpdateAgencyBody) };

/**
 * Makes sure the agents and agencies a feed describes (RESO Member and Office, a WordPress site's Houzez agents and
 * agencies) exist here, found by e-mail, and gives their ids (docs/data-exchange.md, "Agents and agencies"):
 *
 * - an account of that e-mail and of the record's role is the one: its agent or agency record;
 * - an account of that e-mail and of another role (an owner, an administrator) is refused: an import never changes
 *   an account's role or password, so a feed cannot make an agent of someone, nor reach an administrator's account;
 * - with no such account, an agent or agency record of that contact e-mail is the one (as listings name agents);
 * - else an account without a password is made (the person sets one with "forgot password"), with its record.
 *
 * Then the record's details are the feed's for the fields it carries, written only when they differ, so that an
 * unchanged feed writes nothing. A dry run looks, checks and counts, and writes nothing.
 */
export class FeedDirectory {
  /** Accounts made (none in a dry run). */
  accountsCreated = 0;
  /** Agent and agency records made, or in a dry run that would be made. */
  readonly created: Record<Kind, number> = { agent: 0, agency: 0 };
  /** Accounts by e-mail (in lower case): agents', agencies' and owners' met in this import. */
  private readonly accounts = new Map<string, number>();
  /** Record ids by e-mail; null for one a dry run would make. */
  private readonly records: Record<Kind, Map<string, number | null>> = { agent: new Map(), agency: new Map() };
  private readonly actor: AuthUser;
  private readonly dryRun: boolean;

  constructor(
    private readonly deps: FeedDirectoryDeps,
    options: { actorId: number; dryRun?: boolean },
  ) {
    this.actor = importActor(options.actorId);
    this.dryRun = options.dryRun ?? false;
  }

  /** The account of an e-mail this import met (an agent's, an agency's or an owner's). */
  accountOf(email: string): number | undefined {
    return this.accounts.get(email.toLowerCase());
  }

  async agency(agency: FeedAgency): Promise<DirectoryOutcome> {
    const { name, email, phone, website, address } = agency;
    const details = carried({ name, email, phone, website, address });
    return this.ensure('agency', details, [name, ''], (id) => this.deps.directory.agencies.updateIfChanged(this.actor, id, details));
  }

  /** `agencyId`: the agency the feed puts the agent in (null: none); undefined leaves the agent's agency as it is. */
  async agent(agent: FeedAgent, agencyId?: number | null): Promise<DirectoryOutcome> {
    const { name, email, phone, mobile, position } = agent;
    const details = carried({ name, email, phone, mobile, position });
    const [first = name, ...rest] = name.split(' ');
    return this.ensure('agent', details, [first, rest.join(' ')], async (id) => {
      await this.deps.directory.agents.updateIfChanged(this.actor, id, details);
      if (agencyId !== undefined) await this.moveAgent(id, agencyId);
    });
  }

  /** The account of a site's author (a WordPress `wp:author`): found by e-mail whatever its role, else made an owner's. */
  async owner(email: string, firstName: string, lastName: string, login: string): Promise<number> {
    const key = email.toLowerCase();
    const known = this.accounts.get(key);
    if (known !== undefined) return known;
    const id = (await this.deps.users.findByEmail(key))?.id ?? (await this.newAccount(key, 'owner', firstName, lastName, login));
    this.accounts.set(key, id);
    return id;
  }

  /**
   * The record of `details.email` (see the class), made when there is none, then `update`d with the feed's details.
   * A field the API would refuse, or a field error of the update, rejects the record.
   */
  private async ensure(
    kind: Kind,
    details: { email?: string },
    [firstName, lastName]: [string, string],
    update: (id: number) => Promise<unknown>,
  ): Promise<DirectoryOutcome> {
    if (!details.email) return { errors: [{ field: 'email', key: 'exchange_rule_email_required' }] };
    const errors = fieldErrors(CHECKS[kind](details));
    if (errors.length > 0) return { errors };
    const email = details.email.toLowerCase();
    let id = this.records[kind].get(email);
    if (id === undefined) {
      const found = await this.find(kind, email);
      if (found === 'other role') return { errors: [{ field: 'email', key: NOT_OF_KIND[kind] }] };
      id = found.recordId ?? null;
      if (id === null) {
        this.created[kind]++;
        if (!this.dryRun) id = await this.newRecord(kind, email, found.userId, firstName, lastName);
      }
      this.records[kind].set(email, id);
    }
    if (id === null || this.dryRun) return { id };
    try {
      await update(id);
    } catch (error) {
      if (!(error instanceof AppError) || error.fields.length === 0) throw error;
      return { errors: error.fields };
    }
    return { id };
  }

  /** The account and the record of an e-mail: the account's own record, else a record of that contact e-mail. */
  private async find(kind: Kind, email: string): Promise<{ userId?: number; recordId?: number } | 'other role'> {
    const { db, users } = this.deps;
    const user = await users.findByEmail(email);
    if (user && user.role !== kind) return 'other role';
    if (user) {
      this.accounts.set(email, user.id);
      return { userId: user.id, recordId: await findDirectoryRecordOf(db, TABLES[kind], user.id) };
    }
    const [record] = await repository.findDirectoryRecords(db, TABLES[kind], [email], []);
    return { recordId: record?.id };
  }

  /** A new account with its record; or, for an account of the role that lacks one, its record as a role change makes it. */
  private async newRecord(kind: Kind, email: string, userId: number | undefined, firstName: string, lastName: string): Promise<number> {
    const id = userId ?? (await this.newAccount(email, kind, firstName, lastName));
    if (userId !== undefined) await this.deps.users.changeRole(this.actor.id, userId, kind);
    this.accounts.set(email, id);
    const recordId = await findDirectoryRecordOf(this.deps.db, TABLES[kind], id);
    if (recordId === undefined) throw new Error(`account ${id} has no ${kind} record after it was made`);
    return recordId;
  }

  /** An account without a password (its owner sets one with "forgot password"), named after the e-mail or `login`. */
  private async newAccount(email: string, role: Role, firstName: string, lastName: string, login?: string): Promise<number> {
    const { users } = this.deps;
    const username = await users.freeUsername(login ?? email.split('@')[0] ?? role);
    const user = await users.createUser({ username, email, role, firstName, lastName });
    this.accountsCreated++;
    return user.id;
  }

  /** Puts the agent in the feed's agency (null: in none), out of the one it is in here when that is another. */
  private async moveAgent(agentId: number, agencyId: number | null): Promise<void> {
    const { agents, agencies } = this.deps.directory;
    const current = (await agents.get(this.actor, agentId)).agency?.id ?? null;
    if (current === agencyId) return;
    if (current !== null) await agencies.detach(this.actor, current, agentId);
    if (agencyId !== null) await agencies.attach(this.actor, agencyId, agentId);
  }
}

/** The fields a record carries: those its format reads (undefined is not carried; "" clears). */
function carried<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
