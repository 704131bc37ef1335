import { lazyPage } from '../../components/lazy-page';
import type { ConsoleFeature } from '../types';
import { AGENCY_AGENTS_PATH, AGENCY_AGENTS_RESOURCE } from './agents';
import { messages } from './messages';

/** An agency's own agents, hidden ones included (docs/api.md 5.2): list, attach a free agent, detach. */
export const agencyFeature: ConsoleFeature = {
  id: 'agency',
  messages,
  routes: [
    {
      path: '/agency/agents',
      roles: ['agency'],
      element: lazyPage(() => import('./AgencyAgentsPage')),
    },
  ],
  menu: [{ path: '/agency/agents', label: 'agency.title', roles: ['agency'] }],
  resources: [
    // The agency's own agents, hidden ones included (the agency's id in meta.params.id).
    { name: AGENCY_AGENTS_RESOURCE, list: AGENCY_AGENTS_PATH, itemsKey: 'agents' },
    { name: 'agency-agent-candidates', list: '/agents/search', itemsKey: 'agents' },
  ],
};
