import { formsRateLimit } from '../../http/rate-limit.js';
import type { AppModule, Platform } from '../module.js';
import type { DirectoryServices } from '../directory/index.js';
import type { NotificationsServices } from '../notifications/index.js';
import type { PropertiesServices } from '../properties/index.js';
import { leadRoutes } from './leads.routes.js';
import { Lead } from './leads.schemas.js';
import { LeadsService } from './leads.service.js';

export interface LeadsServices {
  /** Contact forms and the caller's leads. */
  leads: LeadsService;
}

/** Leads (docs/api.md 6.3): contact forms about listings, agents and agencies, mailed through the outbox. */
export function createLeadsModule(
  { config, database }: Platform,
  {
    properties,
    agents,
    notifier,
  }: Pick<PropertiesServices, 'properties'> & Pick<DirectoryServices, 'agents'> & Pick<NotificationsServices, 'notifier'>,
): AppModule<LeadsServices> {
  const leads = new LeadsService(database.db, properties, agents, notifier);
  return {
    services: { leads },
    schemas: [Lead],
    routes: async (api) => {
      await api.register(leadRoutes, { leads, contactRateLimit: formsRateLimit(config) });
    },
  };
}

export { ContactBody, LEAD_USER_TYPES } from './leads.schemas.js';
