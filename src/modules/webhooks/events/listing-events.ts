import { createHash } from 'node:crypto';
import type { ListingState } from '../../../db/schema/index.js';
import type { PropertyRecord } from '../../properties/index.js';
import type { EventFacets } from '../webhook-filter.js';
import type { WebhookEventType } from '../webhooks.schemas.js';

/**
 * Fields whose change is no event: the view counter (flushed every few seconds on a busy site, and not in the
 * change log either), the caller's own favourite mark, and the stamp that moves with every other change.
 */
const IGNORED_FIELDS = new Set(['views', 'is_favorite', 'updated_at']);
/** Fields that move with a state: a change of these alone beside the state is the `listing.state_changed` only. */
const STATE_FIELDS = new Set(['status', 'published_at', 'expires_at']);

/** What the follower keeps of a listing it saw: a hash per field, and its facets. */
export interface ListingSnapshot {
  fields: Record<string, string>;
  facets: EventFacets;
}

interface DerivedEvent {
  type: WebhookEventType;
  /** The event body's `data`. */
  data: Record<string, unknown>;
  facets: EventFacets;
}

export interface ListingChangeOutcome {
  events: DerivedEvent[];
  /** The snapshot to keep now; null deletes it (the listing is gone). */
  snapshot: ListingSnapshot | null;
}

/**
 * The events one listing's change makes, from what the follower saw before (`previous`) and the record now
 * (`record`, as an administrator sees it; undefined when deleted). `isNew`: a listing never seen that was
 * created after the follower started (its first sight is its creation); one created before is an update whose
 * changed fields are unknown (null).
 */
export function listingChangeEvents(
  id: number,
  previous: ListingSnapshot | undefined,
  record: PropertyRecord | undefined,
  isNew: boolean,
): ListingChangeOutcome {
  if (!record) {
    if (!previous) return { events: [], snapshot: null }; // made and deleted between two runs, or never seen
    return { events: [{ type: 'listing.deleted', data: { id, record: null }, facets: previous.facets }], snapshot: null };
  }
  const snapshot: ListingSnapshot = { fields: fieldHashes(record), facets: listingFacets(record) };
  if (!previous) {
    if (isNew) return { events: [{ type: 'listing.created', data: { id, record }, facets: snapshot.facets }], snapshot };
    return {
      events: [
        { type: 'listing.updated', data: { id, changed_fields: null, record }, facets: { ...snapshot.facets, changed_fields: null } },
      ],
      snapshot,
    };
  }
  const changed = Object.keys({ ...snapshot.fields, ...previous.fields })
    .filter((field) => snapshot.fields[field] !== previous.fields[field])
    .sort();
  const events: DerivedEvent[] = [];
  const from = previous.facets.state;
  const to = record.status;
  if (from !== to) {
    events.push({
      type: 'listing.state_changed',
      data: { id, from, to, changed_fields: changed, record },
      facets: { ...snapshot.facets, ...(from === null ? {} : { previous_state: from }), changed_fields: changed },
    });
  }
  const edits = from !== to ? changed.filter((field) => !STATE_FIELDS.has(field)) : changed;
  if (edits.length > 0) {
    events.push({
      type: 'listing.updated',
      data: { id, changed_fields: changed, record },
      facets: { ...snapshot.facets, changed_fields: changed },
    });
  }
  return { events, snapshot };
}

/** Field name → a short hash of its JSON: enough to tell a change, without keeping a copy of every record. */
export function fieldHashes(record: object, ignored: ReadonlySet<string> = IGNORED_FIELDS): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const [field, value] of Object.entries(record)) {
    if (ignored.has(field)) continue;
    hashes[field] = createHash('sha256')
      .update(JSON.stringify(value ?? null))
      .digest('base64')
      .slice(0, 16);
  }
  return hashes;
}

export function listingFacets(record: PropertyRecord): EventFacets {
  return {
    state: record.status as ListingState,
    types: record.property_type.map((term) => term.slug),
    city: record.address.city?.slug ?? null,
    agent_ids: record.agents.map((agent) => agent.id),
    agency_id: record.agency?.id ?? null,
  };
}
