import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import {
  type AgencyAccess,
  type AgentAccess,
  canSeeAgent,
  managesAgency,
  managesAgent,
  findAgencyAccess,
  findAgentAccess,
} from '../directory/index.js';
import { canView, isOwner, PUBLIC_STATES, type ListingAccess, type PropertiesService } from '../properties/index.js';
import type { TargetRef } from './reviews.repository.js';

/** Who stands behind a reviewed record, by its kind: what the review rules are decided on. */
export type TargetAccess =
  { type: 'property'; listing: ListingAccess } | { type: 'agent'; agent: AgentAccess } | { type: 'agency'; agency: AgencyAccess };

/** Loads the access facts of a review target (one query); undefined when it does not exist. */
export async function findTargetAccess(
  db: Kysely<DB>,
  properties: PropertiesService,
  target: TargetRef,
): Promise<TargetAccess | undefined> {
  switch (target.type) {
    case 'property': {
      const listing = await properties.findAccess(target.id);
      return listing && { type: 'property', listing };
    }
    case 'agent': {
      const agent = await findAgentAccess(db, target.id);
      return agent && { type: 'agent', agent };
    }
    case 'agency': {
      const agency = await findAgencyAccess(db, target.id);
      return agency && { type: 'agency', agency };
    }
  }
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
