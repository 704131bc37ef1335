import type { Kysely } from 'kysely';
import { asciiLowerCase } from '../../db/dialect/index.js';
import type { DB } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { sortKey } from '../../lib/slug.js';
import { nowIso } from '../../lib/time.js';
import type { MediaRecord } from '../media/index.js';
import type { PropertyListRecord } from '../properties/index.js';
import type { SearchQueryInput } from '../search/index.js';
import { AnswerCache } from '../../lib/answer-cache.js';
import { type AgentAccess, assertCanSeeAgent, assertMayEditAgent, type ManagedRecords } from './directory-access.js';
import { findAgentAccess } from './directory.repository.js';
import { changesAgent, checkAgentInput } from './directory-input.js';
import type { DirectoryListings } from './directory-listings.service.js';
import { type AgentFilter, findAgentPage } from './directory-pages.repository.js';
import type { DirectoryRecords } from './directory-records.service.js';
import * as repository from './directory.repository.js';
import type { AgentListRecord, AgentRecord, AgentSearchInput, DirectorySort, UpdateAgentInput } from './directory.schemas.js';

/** An agent as its page shows it: the record and its picture with the picture's sizes. */
export interface AgentProfile {
  agent: AgentRecord;
  picture: MediaRecord | null;
}

/** Distinct agent list pages kept; past this the cache starts over. */
const MAX_CACHED_PAGES = 2000;
/** docs/api.md 0.6: array parameters hold at most 50 items. */
const MAX_SLUGS = 50;

/**
 * Agents (docs/api.md 5.1, 5.2): lists and search, one agent, its listings, updates. Lists hold visible agents
 * only (but an agency's list for the people who manage it) and carry nothing per caller, so every caller shares one
 * cached answer per query and data version.
 */
export class AgentsService {
  private readonly pages = new AnswerCache<AgentListRecord>(MAX_CACHED_PAGES);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly records: DirectoryRecords,
    private readonly listings: DirectoryListings,
  ) {}

  /**
   * GET /agents, /agents/search and /agencies/{id}/agents: a page of visible agents, or of all with
   * `includeHidden` (the caller's permission to see each of them is checked before: agencies.service.ts).
   */
  async search(query: AgentSearchInput, includeHidden = false): Promise<AgentListRecord> {
    const window = pageWindow(query);
    const sort: DirectorySort = query.sortby ?? 'a_name';
    const filter = agentFilter(query);
    if (includeHidden) filter.includeHidden = true;
    const key = `${sort}:${window.page}:${window.perPage}:${JSON.stringify(filter)}`;
    const version = await this.records.version();
    const cached = this.pages.get(key, version);
    if (cached) return cached;
    const page = await findAgentPage(this.db, filter, sort, window);
    const agents = (await this.records.agentsOf(page.ids)).map((loaded) => loaded.record);
    const answer = Object.freeze({ agents, pagination: paginationOf(page.total, window) });
    this.pages.set(key, version, answer);
    return answer;
  }

  /**
   * As update, when the input changes the record: an import's unchanged record writes nothing (every write renews
   * the directory's cache stamp). Whether it wrote.
   */
  async updateIfChanged(caller: AuthUser, id: number, input: UpdateAgentInput): Promise<boolean> {
    assertMayEditAgent(caller, await findAgentAccess(this.db, id));
    const [row] = await repository.findAgentRows(this.db, [id]);
    if (row && !changesAgent(row, input)) return false;
    await this.update(caller, id, input);
    return true;
  }

  /** The user's agency and the agent records they manage, whatever their visibility (docs/api.md 0.3, 5.2). */
  /** Who stands behind an agent (account, agency, visibility): what other modules' permission rules read. */
  findAccess(id: number): Promise<AgentAccess | undefined> {
    return findAgentAccess(this.db, id);
  }

  async managedBy(userId: number): Promise<ManagedRecords> {
    return repository.findManagedRecords(this.db, userId);
  }

  /**
   * The agents among `ids` that exist, hidden ones too, as an administrator reads them, by id: what the outbound
   * webhooks send as `agent.updated`.
   */
  async recordsOf(ids: readonly number[]): Promise<Map<number, AgentRecord>> {
    return new Map((await this.records.agentsOf(ids)).map(({ record }) => [record.id, record]));
  }

  /** One agent as the caller may see it (a hidden one only for its managers, administrators and managers). */
  async get(caller: AuthUser | null, id: number): Promise<AgentRecord> {
    const loaded = await this.records.agent(id);
    assertCanSeeAgent(caller, loaded?.access);
    return loaded!.record;
  }

  /**
   * The agent of a slug (the path of its `url`, docs/api.md 5.1) as GET /agents/{id} answers it: unknown slugs and
   * hidden agents the caller may not see are 404. With its picture's media record, for the page's srcset.
   */
  async bySlug(caller: AuthUser | null, slug: string): Promise<AgentProfile> {
    const id = await repository.findAgentIdBySlug(this.db, slug);
    if (id === undefined) throw AppError.notFound();
    const agent = await this.get(caller, id);
    return { agent, picture: (await this.records.images('agent', [id])).get(id) ?? null };
  }

  /** The pictures of the agents among `ids` that have one, by agent id (one query): a list's cards. */
  async picturesOf(ids: readonly number[]): Promise<Map<number, MediaRecord>> {
    return this.records.images('agent', ids);
  }

  /** The published listings naming an agent the caller may see (else 404). */
  async properties(caller: AuthUser | null, id: number, query: SearchQueryInput): Promise<PropertyListRecord> {
    const version = await this.records.version();
    assertCanSeeAgent(caller, (await this.records.agent(id))?.access);
    return this.listings.page(caller, { kind: 'agent', id }, query, version);
  }

  /**
   * Partial update by the agent's user, its agency's user or an administrator (docs/api.md 5.2). A hidden agent
   * the caller cannot see → 404; one they see but may not change → 403. The slug stays as it is.
   */
  async update(caller: AuthUser, id: number, input: UpdateAgentInput): Promise<AgentRecord> {
    await this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      if (!(await repository.lockAgent(trx, id, now))) throw AppError.notFound();
      const access = await findAgentAccess(trx, id);
      assertMayEditAgent(caller, access);
      const changes = await checkAgentInput(trx, caller, access, input);
      await repository.updateAgent(trx, id, { ...changes.columns, updated_at: now });
      for (const terms of changes.terms) await repository.replaceAgentTerms(trx, id, terms.taxonomy, terms.ids);
    });
    // This process's write renewed the stamp, so the record is rebuilt.
    const loaded = await this.records.agent(id);
    if (!loaded) throw AppError.notFound(); // deleted by someone else in the meantime
    return loaded.record;
  }
}

/** The search parameters normalized (equal searches share a cache key): folded keyword, sorted unique slugs. */
function agentFilter(query: AgentSearchInput): AgentFilter {
  const filter: AgentFilter = {};
  if (query.agency_id !== undefined) filter.agencyId = query.agency_id;
  const keyword = query.keyword?.trim();
  if (keyword) filter.keyword = sortKey(keyword);
  if (query.city !== undefined) filter.citySlugs = slugList('city', query.city);
  if (query.category !== undefined) filter.categorySlugs = slugList('category', query.category);
  const language = query.language?.trim();
  if (language) filter.language = asciiLowerCase(language);
  return filter;
}

function slugList(field: string, value: string): string[] {
  const slugs = [
    ...new Set(
      value
        .split(',')
        .map((slug) => slug.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].sort();
  if (slugs.length > MAX_SLUGS) throw AppError.invalidField(field, 'rule_max_items', { limit: MAX_SLUGS });
  if (slugs.length === 0) throw AppError.invalidField(field, 'rule_slug_list');
  return slugs;
}
