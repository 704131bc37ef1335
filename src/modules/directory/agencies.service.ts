import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { sortKey } from '../../lib/slug.js';
import { nowIso } from '../../lib/time.js';
import type { MediaRecord } from '../media/index.js';
import type { PropertyListRecord } from '../properties/index.js';
import type { SearchQueryInput } from '../search/index.js';
import type { AgentsService } from './agents.service.js';
import { AnswerCache } from '../../lib/answer-cache.js';
import {
  type AgencyAccess,
  assertCanSeeAgent,
  assertMayEditAgency,
  canSeeAgent,
  mayDetachAgent,
  seesHiddenAgentsOf,
} from './directory-access.js';
import { findAgencyAccess, findAgentAccess } from './directory.repository.js';
import { changesAgency, checkAgencyInput } from './directory-input.js';
import type { DirectoryListings } from './directory-listings.service.js';
import { findAgencyPage } from './directory-pages.repository.js';
import type { DirectoryRecords } from './directory-records.service.js';
import * as repository from './directory.repository.js';
import type {
  AgencyListInput,
  AgencyListRecord,
  AgencyRecord,
  AgentListInput,
  AgentListRecord,
  AgentRecord,
  DirectorySort,
  UpdateAgencyInput,
} from './directory.schemas.js';

/** A page of an agency's agents; with hidden agents it is the caller's own answer, not a shared one. */
export interface AgencyAgentsPage {
  page: AgentListRecord;
  withHidden: boolean;
}

/** An agency as its page shows it: the record and its logo with the logo's sizes. */
export interface AgencyProfile {
  agency: AgencyRecord;
  logo: MediaRecord | null;
}

/** Distinct agency list pages kept; past this the cache starts over. */
const MAX_CACHED_PAGES = 2000;

/**
 * Agencies (docs/api.md 5.1, 5.2): lists, one agency, its agents and listings, updates, and attaching and
 * detaching agents. Agency records are public and carry nothing per caller: answers are shared.
 */
export class AgenciesService {
  private readonly pages = new AnswerCache<AgencyListRecord>(MAX_CACHED_PAGES);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly records: DirectoryRecords,
    private readonly listings: DirectoryListings,
    private readonly agents: AgentsService,
  ) {}

  /** Who stands behind an agency (its account): what other modules' permission rules read. */
  findAccess(id: number): Promise<AgencyAccess | undefined> {
    return findAgencyAccess(this.db, id);
  }

  /** GET /agencies: one page, shared by every caller while the data version holds. */
  async list(query: AgencyListInput): Promise<AgencyListRecord> {
    const window = pageWindow(query);
    const sort: DirectorySort = query.sortby ?? 'a_name';
    const keyword = query.keyword?.trim() ? sortKey(query.keyword.trim()) : undefined;
    const key = `${sort}:${window.page}:${window.perPage}:${keyword ?? ''}`;
    const version = await this.records.version();
    const cached = this.pages.get(key, version);
    if (cached) return cached;
    const page = await findAgencyPage(this.db, keyword, sort, window);
    const agencies = (await this.records.agenciesOf(page.ids)).map((loaded) => loaded.record);
    const answer = Object.freeze({ agencies, pagination: paginationOf(page.total, window) });
    this.pages.set(key, version, answer);
    return answer;
  }

  /** The agencies among `ids` that exist, by id: what the outbound webhooks send as `agency.updated`. */
  async recordsOf(ids: readonly number[]): Promise<Map<number, AgencyRecord>> {
    return new Map((await this.records.agenciesOf(ids)).map(({ record }) => [record.id, record]));
  }

  /** One agency (agencies are public), else 404. */
  async get(id: number): Promise<AgencyRecord> {
    const loaded = await this.records.agency(id);
    if (!loaded) throw AppError.notFound();
    return loaded.record;
  }

  /** The agency of a slug (the path of its `url`, docs/api.md 5.1), else 404; with its logo's media record. */
  async bySlug(slug: string): Promise<AgencyProfile> {
    const id = await repository.findAgencyIdBySlug(this.db, slug);
    if (id === undefined) throw AppError.notFound();
    const agency = await this.get(id);
    return { agency, logo: (await this.records.images('agency', [id])).get(id) ?? null };
  }

  /** The logos of the agencies among `ids` that have one, by agency id (one query): a list's cards. */
  async logosOf(ids: readonly number[]): Promise<Map<number, MediaRecord>> {
    return this.records.images('agency', ids);
  }

  /**
   * The agency's agents (404 for an unknown agency): the visible ones, shared by every caller; hidden ones too for
   * the agency's user, administrators and managers, who may see each of them (and may detach them).
   */
  async agentsOf(caller: AuthUser | null, id: number, query: AgentListInput): Promise<AgencyAgentsPage> {
    const loaded = await this.records.agency(id);
    if (!loaded) throw AppError.notFound();
    const withHidden = seesHiddenAgentsOf(caller, loaded.access);
    return { page: await this.agents.search({ ...query, agency_id: id }, withHidden), withHidden };
  }

  /** The agency's published listings and those of its agents (docs/api.md 12). */
  async properties(caller: AuthUser | null, id: number, query: SearchQueryInput): Promise<PropertyListRecord> {
    const version = await this.records.version();
    if (!(await this.records.agency(id))) throw AppError.notFound();
    return this.listings.page(caller, { kind: 'agency', id }, query, version);
  }

  /** Partial update by the agency's user or an administrator (else 403). The slug stays as it is. */
  async update(caller: AuthUser, id: number, input: UpdateAgencyInput): Promise<AgencyRecord> {
    await this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      if (!(await repository.lockAgency(trx, id, now))) throw AppError.notFound();
      const access = await findAgencyAccess(trx, id);
      assertMayEditAgency(caller, access);
      const columns = await checkAgencyInput(trx, caller, access, input);
      await repository.updateAgency(trx, id, { ...columns, updated_at: now });
    });
    return this.get(id);
  }

  /** As update, when the input changes the record (see AgentsService.updateIfChanged). Whether it wrote. */
  async updateIfChanged(caller: AuthUser, id: number, input: UpdateAgencyInput): Promise<boolean> {
    assertMayEditAgency(caller, await findAgencyAccess(this.db, id));
    const [row] = await repository.findAgencyRows(this.db, [id]);
    if (row && !changesAgency(row, input)) return false;
    await this.update(caller, id, input);
    return true;
  }

  /**
   * Puts an agent into the agency (the agency's user or an administrator; anyone else 403). An agent the
   * caller cannot see (unknown, or hidden and not theirs) → 404; one in another agency → 409; one already
   * in this agency → 200 as well (idempotent).
   */
  async attach(caller: AuthUser, id: number, agentId: number): Promise<AgentRecord> {
    assertMayEditAgency(caller, await findAgencyAccess(this.db, id));
    const agent = await findAgentAccess(this.db, agentId);
    assertCanSeeAgent(caller, agent);
    if (agent.agencyId !== id) {
      if (agent.agencyId !== null) throw new AppError('conflict', 'directory_agent_in_other_agency');
      // Conditional: of two agencies attaching the same free agent at once, one wins and the other gets 409.
      if (!(await repository.attachAgent(this.db, agentId, id, nowIso()))) {
        const current = await findAgentAccess(this.db, agentId);
        if (current?.agencyId !== id) throw new AppError('conflict', 'directory_agent_in_other_agency');
      }
    }
    return this.freshAgent(agentId);
  }

  /**
   * Takes an agent out of the agency (the agency's user, the agent's user, an administrator). An agent that
   * is not in this agency, or that the caller cannot see, → 404; one they see but may not detach → 403.
   */
  async detach(caller: AuthUser, id: number, agentId: number): Promise<AgentRecord> {
    const agency = await findAgencyAccess(this.db, id);
    const agent = await findAgentAccess(this.db, agentId);
    if (!agency || !agent || agent.agencyId !== id || !canSeeAgent(caller, agent)) throw AppError.notFound();
    if (!mayDetachAgent(caller, agency, agent)) throw new AppError('forbidden');
    if (!(await repository.detachAgent(this.db, agentId, id, nowIso()))) throw AppError.notFound(); // detached meanwhile
    return this.freshAgent(agentId);
  }

  /** The agent after a write of this process (which renewed the stamp, so it is rebuilt). */
  private async freshAgent(id: number): Promise<AgentRecord> {
    const loaded = await this.records.agent(id);
    if (!loaded) throw AppError.notFound(); // deleted by someone else in the meantime
    return loaded.record;
  }
}
