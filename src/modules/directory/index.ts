import type { DirectoryRecordMaker } from '../accounts/index.js';
import type { AppModule, Platform } from '../module.js';
import { AccountRecords } from './account-records.service.js';
import type { PropertiesServices } from '../properties/index.js';
import type { SearchServices } from '../search/index.js';
import { agencyRoutes } from './agencies.routes.js';
import { AgenciesService } from './agencies.service.js';
import { agentRoutes } from './agents.routes.js';
import { AgentsService } from './agents.service.js';
import { DirectoryListings } from './directory-listings.service.js';
import { DirectoryRatings } from './directory-ratings.service.js';
import { DirectoryRecords } from './directory-records.service.js';
import { DirectorySitemap } from './directory-sitemap.service.js';
import { Agency, Agent } from './directory.schemas.js';

export interface DirectoryServices {
  agents: AgentsService;
  agencies: AgenciesService;
  /** Visible agents and agencies by blocks of ids, for the website's sitemap. */
  agentSitemap: DirectorySitemap;
  agencySitemap: DirectorySitemap;
  /** Agents' and agencies' review totals, which the reviews module changes inside its transactions. */
  directoryRatings: DirectoryRatings;
}

/**
 * The agent and agency records accounts makes at registration and on a role change, for the accounts module,
 * which is built before this one: it needs nothing, so app.ts makes it first and hands it to accounts.
 */
export function createDirectoryRecordMaker(): DirectoryRecordMaker {
  return new AccountRecords();
}

/** The directory (docs/api.md 5): agents, and agencies with their agents and listings. */
export function createDirectoryModule(
  { config, database, stamps, storage }: Platform,
  { properties, search }: Pick<PropertiesServices, 'properties'> & SearchServices,
): AppModule<DirectoryServices> {
  const { db } = database;
  const records = new DirectoryRecords(db, stamps, { publicUrl: config.publicUrl, storage });
  const listings = new DirectoryListings(properties, search);
  const agents = new AgentsService(db, records, listings);
  const agencies = new AgenciesService(db, records, listings, agents);
  return {
    services: {
      agents,
      agencies,
      agentSitemap: new DirectorySitemap(db, 'agents', config.publicUrl),
      agencySitemap: new DirectorySitemap(db, 'agencies', config.publicUrl),
      directoryRatings: new DirectoryRatings(),
    },
    schemas: [Agent, Agency],
    routes: async (api) => {
      await api.register(agentRoutes, { agents });
      await api.register(agencyRoutes, { agencies });
    },
  };
}

export { canSeeAgent, isAdministrator, managesAgency, managesAgent } from './directory-access.js';
export type { AgencyAccess, AgentAccess, ManagedRecords } from './directory-access.js';
export type { DirectoryRatings } from './directory-ratings.service.js';
export { agencyUrl, agentUrl } from './directory.mapper.js';
export {
  AgencyListQuery,
  AgentSearchQuery,
  type AgencyListRecord,
  type AgencyRecord,
  type AgentListRecord,
  type AgentRecord,
  type DirectorySort,
  type SocialRecord,
} from './directory.schemas.js';
export { UpdateAgencyBody, UpdateAgentBody } from './directory.schemas.js';
