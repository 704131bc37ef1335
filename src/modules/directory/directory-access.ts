import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';

/** Who stands behind an agent record: its own user and the user of its agency (either may be null). */
export interface AgentAccess {
  id: number;
  userId: number | null;
  agencyId: number | null;
  agencyUserId: number | null;
  visible: boolean;
}

/** Who stands behind an agency record. */
export interface AgencyAccess {
  id: number;
  userId: number | null;
}

/**
 * The directory records a user stands behind (GET /users/reviews-received): their agency, and the agents they
 * manage (managesAgent): their own agent record and every agent of their agency, hidden ones included.
 */
export interface ManagedRecords {
  /** The agency whose user this is (one at most: `agencies.user_id` is unique), or null. */
  agencyId: number | null;
  agentIds: number[];
  /** The users of their agency's agents: the listings those users write are the agency's too (docs/api.md 0.3). */
  agencyAgentUserIds: number[];
}

export function isAdministrator(caller: AuthUser | null): boolean {
  return caller?.role === 'administrator';
}

/** The agent's own user or its agency's user: who may edit the record (administrators too, docs/api.md 5.2). */
export function managesAgent(caller: AuthUser | null, agent: AgentAccess): boolean {
  return caller !== null && (agent.userId === caller.id || agent.agencyUserId === caller.id);
}

export function managesAgency(caller: AuthUser | null, agency: AgencyAccess): boolean {
  return caller !== null && agency.userId === caller.id;
}

/** Administrators and managers see every hidden agent. */
function seesAllHiddenAgents(caller: AuthUser | null): boolean {
  return isAdministrator(caller) || caller?.role === 'manager';
}

/** A hidden agent is left out of public lists and is 404 to everyone but the people who manage it. */
export function canSeeAgent(caller: AuthUser | null, agent: AgentAccess): boolean {
  return agent.visible || managesAgent(caller, agent) || seesAllHiddenAgents(caller);
}

/**
 * Who may see every hidden agent of the agency, and so gets them in its list of agents (docs/api.md 5.2): the
 * agency's user (who manages each of its agents), administrators and managers; canSeeAgent says the same per agent.
 */
export function seesHiddenAgentsOf(caller: AuthUser | null, agency: AgencyAccess): boolean {
  return managesAgency(caller, agency) || seesAllHiddenAgents(caller);
}

/** A missing agent, or a hidden one the caller may not see, is 404 (existence is not leaked). */
export function assertCanSeeAgent(caller: AuthUser | null, agent: AgentAccess | undefined): asserts agent is AgentAccess {
  if (!agent || !canSeeAgent(caller, agent)) throw AppError.notFound();
}

/** Who may change an agent record (docs/api.md 5.2): 404 when the caller cannot see it, else 403 unless they may. */
export function assertMayEditAgent(caller: AuthUser, agent: AgentAccess | undefined): asserts agent is AgentAccess {
  assertCanSeeAgent(caller, agent);
  if (!managesAgent(caller, agent) && !isAdministrator(caller)) throw new AppError('forbidden');
}

/** Who may change an agency record and attach agents to it: its user and administrators (agencies are public: 403). */
export function assertMayEditAgency(caller: AuthUser, agency: AgencyAccess | undefined): asserts agency is AgencyAccess {
  if (!agency) throw AppError.notFound();
  if (!managesAgency(caller, agency) && !isAdministrator(caller)) throw new AppError('forbidden');
}

/** Who may take an agent out of its agency: the agency's user, the agent's user, administrators. */
export function mayDetachAgent(caller: AuthUser, agency: AgencyAccess, agent: AgentAccess): boolean {
  return managesAgency(caller, agency) || agent.userId === caller.id || isAdministrator(caller);
}
