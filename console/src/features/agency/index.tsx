import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

const AgencyAgentsPage = lazy(() => import('./AgencyAgentsPage'));

/** An agency's own agents, hidden ones included (docs/api.md 5.2): list, attach a free agent, detach. */
export const agencyFeature: ConsoleFeature = {
  id: 'agency',
  messages,
  routes: [
    {
      path: '/agency/agents',
      roles: ['agency'],
      element: (
        <Suspense fallback={<Loading />}>
          <AgencyAgentsPage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/agency/agents', label: 'agency.title', roles: ['agency'] }],
  // The agency's own agents are read from GET /agencies/{id}/agents (hidden ones included), see AgencyAgentsPage.
  resources: [{ name: 'agency-agent-candidates', list: '/agents/search', itemsKey: 'agents' }],
};
