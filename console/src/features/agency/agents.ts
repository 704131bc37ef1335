/** Agents as the directory gives them (docs/api.md 5.1), and what an agency may do with each. */
export interface AgentRecord {
  id: number;
  user_id: number | null;
  name: string;
  url: string;
  position: string;
  email: string;
  phone: string;
  picture_url: string | null;
  agency: { id: number; name: string; slug: string } | null;
  properties_count: number;
  rating: number | null;
  reviews_count: number;
  visible: boolean;
}

/** Where an agent stands for this agency: already ours, free to attach, or another agency's (a 409 if tried). */
export function agentStanding(agent: Pick<AgentRecord, 'agency'>, agencyId: number): 'ours' | 'free' | 'other' {
  if (agent.agency === null) return 'free';
  return agent.agency.id === agencyId ? 'ours' : 'other';
}

export function attachPath(agencyId: number): string {
  return `/agencies/${agencyId}/agents`;
}

export function detachPath(agencyId: number, agentId: number): string {
  return `/agencies/${agencyId}/agents/${agentId}`;
}
