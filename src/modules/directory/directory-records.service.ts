import type { Kysely } from 'kysely';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { DB } from '../../db/schema/index.js';
import { type MediaRecord, toMedia } from '../media/index.js';
import type { AgencyAccess, AgentAccess } from './directory-access.js';
import { type DirectoryUrls, toAgency, toAgent } from './directory.mapper.js';
import * as repository from './directory.repository.js';
import type { AgencyRecord, AgentRecord } from './directory.schemas.js';

/** A record with the permission facts that go with it. */
export interface Loaded<T, A> {
  record: T;
  access: A;
}
export type LoadedAgent = Loaded<AgentRecord, AgentAccess>;
export type LoadedAgency = Loaded<AgencyRecord, AgencyAccess>;

/** Distinct records kept per kind; past this the cache starts over. */
const MAX_CACHED = 20_000;

/**
 * Builds agent and agency records in a fixed number of queries whatever their number (agents: rows, terms,
 * published counts; agencies: rows, visible agents, published counts), and keeps them while the `directory`,
 * `listings` (their `properties_count`) and `terms` (category and city names) stamps hold. Records are
 * frozen and the same object is returned while valid, so an unchanged answer is not serialized again.
 */
export class DirectoryRecords {
  private readonly agents = new Map<number, LoadedAgent>();
  private readonly agencies = new Map<number, LoadedAgency>();
  private stamp = '';

  constructor(
    private readonly db: Kysely<DB>,
    private readonly stamps: CacheStamps,
    private readonly urls: DirectoryUrls,
  ) {}

  /** The current data version; every cached directory answer is valid only under it. */
  async version(): Promise<string> {
    const stamp = `${await this.stamps.current('directory')}/${await this.stamps.current('listings')}/${await this.stamps.current('terms')}`;
    if (stamp !== this.stamp) {
      this.agents.clear();
      this.agencies.clear();
      this.stamp = stamp;
    }
    return stamp;
  }

  /** The agents that exist among `ids`, in that order. */
  async agentsOf(ids: readonly number[]): Promise<LoadedAgent[]> {
    return this.cached(this.agents, ids, async (missing) => {
      const [rows, terms, counts] = await Promise.all([
        repository.findAgentRows(this.db, missing),
        repository.findAgentTerms(this.db, missing),
        repository.countPublishedByAgent(this.db, missing),
      ]);
      return rows.map((row) => ({
        record: toAgent(
          row,
          terms.filter((term) => term.agent_id === row.id),
          counts.get(row.id) ?? 0,
          this.urls,
        ),
        access: { id: row.id, userId: row.user_id, agencyId: row.agency_id, agencyUserId: row.agency_user_id, visible: row.visible === 1 },
      }));
    });
  }

  /** One agent, if it exists (visibility is the caller's check). */
  async agent(id: number): Promise<LoadedAgent | undefined> {
    return (await this.agentsOf([id]))[0];
  }

  /** The agencies that exist among `ids`, in that order. */
  async agenciesOf(ids: readonly number[]): Promise<LoadedAgency[]> {
    return this.cached(this.agencies, ids, async (missing) => {
      const [rows, agents, listings] = await Promise.all([
        repository.findAgencyRows(this.db, missing),
        repository.countVisibleAgents(this.db, missing),
        repository.countPublishedByAgency(this.db, missing),
      ]);
      return rows.map((row) => ({
        record: toAgency(row, agents.get(row.id) ?? 0, listings.get(row.id) ?? 0, this.urls),
        access: { id: row.id, userId: row.user_id },
      }));
    });
  }

  /** One agency, if it exists. */
  async agency(id: number): Promise<LoadedAgency | undefined> {
    return (await this.agenciesOf([id]))[0];
  }

  /**
   * The pictures of the agents (or the logos of the agencies) among `ids` that have one, as media records with
   * their sizes: what a page needs for its srcset and its width and height. One query, not kept.
   */
  async images(kind: 'agent' | 'agency', ids: readonly number[]): Promise<Map<number, MediaRecord>> {
    const rows = await (kind === 'agent' ? repository.findAgentPictureRows : repository.findAgencyLogoRows)(this.db, ids);
    return new Map(rows.map(({ record_id, ...media }) => [record_id, toMedia(media, this.urls.storage)]));
  }

  private async cached<T extends Loaded<{ id: number }, unknown>>(
    cache: Map<number, T>,
    ids: readonly number[],
    load: (missing: number[]) => Promise<T[]>,
  ): Promise<T[]> {
    const version = await this.version();
    // Collected here rather than re-read from the cache: a change seen by a concurrent call while loading
    // empties the cache, which must not drop records from this answer.
    const found = new Map<number, T>();
    for (const id of ids) {
      const hit = cache.get(id);
      if (hit) found.set(id, hit);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      for (const loaded of await load(missing)) {
        Object.freeze(loaded.record);
        Object.freeze(loaded);
        found.set(loaded.record.id, loaded);
        // A change committed while loading renewed the stamp: keep nothing that may be stale.
        if (version !== this.stamp) continue;
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(loaded.record.id, loaded);
      }
    }
    return ids.flatMap((id) => {
      const loaded = found.get(id);
      return loaded ? [loaded] : [];
    });
  }
}
