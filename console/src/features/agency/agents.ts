/** Agents as the directory gives them (docs/api.md 5.1), and what an agency may do with each. */
import type { Schemas } from '@realty-api/client';

export type AgentRecord = Schemas['Agent'];

/** Where an agent stands for this agency: already ours, free to attach, or another agency's (a 409 if tried). */
export function agentStanding(agent: Pick<AgentRecord, 'agency'>, agencyId: number): 'ours' | 'free' | 'other' {
  if (agent.agency === null) return 'free';
  return agent.agency.id === agencyId ? 'ours' : 'other';
}

/**
 * The agency's agents (GET /agencies/{id}/agents, the id in `meta.params.id`): for the agency's own user the list
 * includes its hidden agents, which the public directory search leaves out, so the agency can see and detach them.
 */
export const AGENCY_AGENTS_RESOURCE = 'agency-agents';
export const AGENCY_AGENTS_PATH = '/agencies/:id/agents';

/** Attaching an agent posts to the agency's list of agents. */
export function attachPath(agencyId: number): string {
  return `/agencies/${agencyId}/agents`;
}

/**
 * The page to show once a page's rows are known: when the last agent of a later page was detached, the page before
 * it (the API answers an empty page past the end, which would leave the agency on a page with nothing).
 */
export function pageToShow(currentPage: number, rowsOnPage: number, totalPages: number): number {
  if (rowsOnPage > 0 || currentPage <= 1) return currentPage;
  return Math.max(1, Math.min(currentPage - 1, totalPages));
}

export function detachPath(agencyId: number, agentId: number): string {
  return `/agencies/${agencyId}/agents/${agentId}`;
}
