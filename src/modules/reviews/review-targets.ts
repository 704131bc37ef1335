import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import {
  type AgencyAccess,
  type AgentAccess,
  canSeeAgent,
  managesAgency,
  managesAgent,
  type DirectoryServices,
  type ManagedRecords,
} from '../directory/index.js';
import { canView, isOwner, PUBLIC_STATES, type ListingAccess, type PropertiesService } from '../properties/index.js';
import { findAgencyNames, findAgentTargets, type OwnedTargets, type TargetRef } from './reviews.repository.js';

/** Who stands behind a reviewed record, by its kind: what the review rules are decided on. */
export type TargetAccess =
  { type: 'property'; listing: ListingAccess } | { type: 'agent'; agent: AgentAccess } | { type: 'agency'; agency: AgencyAccess };

/** What the review rules ask the directory: who stands behind an agent or an agency. */
export interface TargetDirectory {
  agents: Pick<DirectoryServices['agents'], 'findAccess'>;
  agencies: Pick<DirectoryServices['agencies'], 'findAccess'>;
}

/** Loads the access facts of a review target (one query); undefined when it does not exist. */
export async function findTargetAccess(
  properties: PropertiesService,
  directory: TargetDirectory,
  target: TargetRef,
): Promise<TargetAccess | undefined> {
  switch (target.type) {
    case 'property': {
      const listing = await properties.findAccess(target.id);
      return listing && { type: 'property', listing };
    }
    case 'agent': {
      const agent = await directory.agents.findAccess(target.id);
      return agent && { type: 'agent', agent };
    }
    case 'agency': {
      const agency = await directory.agencies.findAccess(target.id);
      return agency && { type: 'agency', agency };
    }
  }
}

/** The key of a target in the maps below: `property:12`. */
export function targetKey(target: TargetRef): string {
  return `${target.type}:${target.id}`;
}

/**
 * What each target is called, as its reviewer's list shows it (GET /users/reviews): a listing's title, an agent's
 * or an agency's name, by targetKey. A target that is gone, or that the caller may not see now (a listing back in
 * draft, a hidden agent), is absent: a hidden record stays hidden. A fixed number of queries for any number of
 * targets.
 */
export async function findTargetTitles(
  db: Kysely<DB>,
  properties: PropertiesService,
  caller: AuthUser,
  targets: readonly TargetRef[],
): Promise<Map<string, string>> {
  const idsOf = (type: TargetRef['type']) => [...new Set(targets.filter((target) => target.type === type).map((target) => target.id))];
  const [listings, agents, agencies] = await Promise.all([
    properties.loadSummaries(idsOf('property')),
    findAgentTargets(db, idsOf('agent')),
    findAgencyNames(db, idsOf('agency')),
  ]);
  const titles = new Map<string, string>();
  for (const { record, access } of listings) {
    if (canView(caller, access)) titles.set(targetKey({ type: 'property', id: record.id }), record.title);
  }
  for (const { name, access } of agents) {
    if (canSeeAgent(caller, access)) titles.set(targetKey({ type: 'agent', id: access.id }), name);
  }
  for (const [id, name] of agencies) titles.set(targetKey({ type: 'agency', id }), name);
  return titles;
}

/** A target's reviews are visible exactly when the target is: listings by state, hidden agents to their managers. */
export function canSeeTarget(caller: AuthUser | null, access: TargetAccess): boolean {
  switch (access.type) {
    case 'property':
      return canView(caller, access.listing);
    case 'agent':
      return canSeeAgent(caller, access.agent);
    case 'agency':
      return true;
  }
}

/**
 * Only public listings take new reviews (published or sold, docs/api.md 12): a moderator or owner who can see a
 * pending or held listing may not review it. Visible agents and agencies always can be reviewed.
 */
export function isReviewable(access: TargetAccess): boolean {
  return access.type !== 'property' || PUBLIC_STATES.includes(access.listing.status);
}

/** Nobody reviews their own listing, agent record or agency (docs/api.md 6.1); an agency's agents count as its own. */
export function ownsTarget(caller: AuthUser, access: TargetAccess): boolean {
  switch (access.type) {
    case 'property':
      return isOwner(caller, access.listing);
    case 'agent':
      return managesAgent(caller, access.agent);
    case 'agency':
      return managesAgency(caller, access.agency);
  }
}

/**
 * The records whose reviews the caller receives, as sets: exactly the targets ownsTarget holds for, so what counts as
 * "mine" is what the caller may not review as their own. Listings: the caller's own and those of the agents of the
 * caller's agency (isOwner, docs/api.md 0.3); agent records: the caller's and their agency's agents (managesAgent);
 * agencies: the caller's (managesAgency). Administrators and managers act on every listing, but own only these.
 */
export function ownedTargets(caller: AuthUser, managed: ManagedRecords): OwnedTargets {
  return {
    listingAuthorIds: [...new Set([caller.id, ...managed.agencyAgentUserIds])],
    agentIds: managed.agentIds,
    agencyIds: managed.agencyId === null ? [] : [managed.agencyId],
  };
}

/** The users who hear of a new review of the target, each once and never the reviewer. */
export function reviewRecipients(access: TargetAccess, reviewerId: number): number[] {
  const candidates =
    access.type === 'property'
      ? [access.listing.authorId, access.listing.authorAgencyUserId]
      : access.type === 'agent'
        ? [access.agent.userId]
        : [access.agency.userId];
  const recipients = candidates.filter((id): id is number => id !== null && id !== reviewerId);
  return [...new Set(recipients)];
}

/** The cache stamp that moves when a target's visibility or totals change (beside `reviews`). */
export function targetStamp(target: TargetRef): 'listings' | 'directory' {
  return target.type === 'property' ? 'listings' : 'directory';
}
