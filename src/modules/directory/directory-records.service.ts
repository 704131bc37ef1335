import type { Kysely } from 'kysely';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { DB } from '../../db/schema/index.js';
import { type RecordKind, StampedRecords } from '../../lib/stamped-records.js';
import { type MediaRecord, toMedia } from '../media/index.js';
import type { AgencyAccess, AgentAccess } from './directory-access.js';
import { type DirectoryUrls, toAgency, toAgent } from './directory.mapper.js';
import * as repository from './directory.repository.js';
import type { AgencyRecord, AgentRecord } from './directory.schemas.js';

/** A record with the permission facts that go with it. */
interface Loaded<T, A> {
  record: T;
  access: A;
}
export type LoadedAgent = Loaded<AgentRecord, AgentAccess>;
export type LoadedAgency = Loaded<AgencyRecord, AgencyAccess>;

/**
 * Builds agent and agency records in a fixed number of queries whatever their number (agents: rows, terms,
 * published counts; agencies: rows, visible agents, published counts), and keeps them while the `directory`,
 * `listings` (their `properties_count`) and `terms` (category and city names) stamps hold
 * (lib/stamped-records.ts).
 */
export class DirectoryRecords {
  private readonly kept: StampedRecords;
  private readonly agents: RecordKind<LoadedAgent>;
  private readonly agencies: RecordKind<LoadedAgency>;

  constructor(
    private readonly db: Kysely<DB>,
    stamps: CacheStamps,
    private readonly urls: DirectoryUrls,
  ) {
    this.kept = new StampedRecords(
      async () => `${await stamps.current('directory')}/${await stamps.current('listings')}/${await stamps.current('terms')}`,
    );
    this.agents = this.kept.kind();
    this.agencies = this.kept.kind();
  }

  /** The current data version; every cached directory answer is valid only under it. */
  version(): Promise<string> {
    return this.kept.version();
  }

  /** The agents that exist among `ids`, in that order. */
  async agentsOf(ids: readonly number[]): Promise<LoadedAgent[]> {
    return this.kept.recordsOf(this.agents, ids, async (missing) => {
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
    return this.kept.recordsOf(this.agencies, ids, async (missing) => {
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
}
