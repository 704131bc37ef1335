import type { EventFacets } from '../webhook-filter.js';
import type { WebhookEventType } from '../webhooks.schemas.js';
import { fieldHashes } from './listing-events.js';

/**
 * The events of the records other than listings (docs/webhooks.md, "Event types"), from what the follower saw
 * before and the record now, as an administrator reads it through its module (undefined: gone, or never there).
 * Like listing-events.ts, each function is pure: the follower loads, these decide.
 */

/** What the follower keeps of a record it saw: a hash per field, and what filters and events need of it. */
export interface RecordSnapshot {
  fields: Record<string, string>;
  facets: EventFacets & { user_id?: number };
}

interface DerivedEvent {
  type: WebhookEventType;
  /** The event body's `data`. */
  data: Record<string, unknown>;
  facets: EventFacets;
}

export interface RecordChangeOutcome {
  events: DerivedEvent[];
  /** The snapshot to keep now; null deletes it; undefined keeps none (records that never change: leads, reviews). */
  snapshot?: RecordSnapshot | null;
}

/** What the follower knows of the target of a lead or a review: the facets of its listing, agent or agency. */
export type TargetFacets = (type: 'property' | 'agent' | 'agency', id: number) => EventFacets;

/**
 * Fields of an agent's or agency's record that move without a change of its own: its published listings and
 * visible agents are counted when read, so a listing's publication changes them; and the stamp of every change.
 */
const DIRECTORY_IGNORED = new Set(['updated_at', 'properties_count', 'agents_count']);

/** A lead's change is its creation (the change log records leads when inserted; they are never changed). */
export function leadEvents(
  id: number,
  record: { target_type: 'property' | 'agent' | 'agency'; target_id: number | null } | undefined,
  target: TargetFacets,
): RecordChangeOutcome {
  if (!record) return { events: [] }; // deleted with its target before the follower read it
  const facets = record.target_id === null ? {} : target(record.target_type, record.target_id);
  return { events: [{ type: 'lead.created', data: { id, record }, facets }] };
}

/** A review's change is its creation (the change log records reviews when inserted). */
export function reviewEvents(
  id: number,
  record: { target_type: 'property' | 'agent' | 'agency'; target_id: number } | undefined,
  target: TargetFacets,
): RecordChangeOutcome {
  if (!record) return { events: [] };
  return { events: [{ type: 'review.created', data: { id, record }, facets: target(record.target_type, record.target_id) }] };
}

/**
 * `agent.updated` / `agency.updated`: the record's fields differ from those seen last (the changed ones named),
 * or the follower had not seen the record (`changed_fields` null: a record made since, whose creation is no type
 * of its own, or one older than the follower whose change is unknown). A deletion is no event of these types; a
 * review of the record is one (its `rating` and `reviews_count`).
 */
export function directoryEvents(
  type: 'agent.updated' | 'agency.updated',
  id: number,
  previous: RecordSnapshot | undefined,
  record: object | undefined,
  facets: EventFacets,
): RecordChangeOutcome {
  if (!record) return { events: [], snapshot: null };
  const snapshot: RecordSnapshot = { fields: fieldHashes(record, DIRECTORY_IGNORED), facets };
  const changed = previous ? changedFields(previous, snapshot) : null;
  if (changed !== null && changed.length === 0) return { events: [], snapshot };
  return { events: [{ type, data: { id, changed_fields: changed, record }, facets }], snapshot };
}

/**
 * `invoice.paid`: the invoice is paid now and was not when seen last; one not seen before counts when it was
 * paid after the follower started (an invoice made paid, or made and paid between two runs).
 */
export function invoiceEvents(
  id: number,
  previous: RecordSnapshot | undefined,
  record: { status: string; paid_at: string | null } | undefined,
  startedAt: number,
): RecordChangeOutcome {
  if (!record) return { events: [], snapshot: null };
  const snapshot: RecordSnapshot = { fields: { status: record.status }, facets: {} };
  const paid = record.status === 'paid';
  const paidBefore = previous ? previous.fields.status === 'paid' : record.paid_at === null || Date.parse(record.paid_at) < startedAt;
  if (!paid || paidBefore) return { events: [], snapshot };
  return { events: [{ type: 'invoice.paid', data: { id, record }, facets: {} }], snapshot };
}

/**
 * `membership.changed`: a membership made, changed (package, state, period, renewal: the change log records
 * nothing else) or deleted. `changed_fields` null when it was not seen before; `record` null once deleted.
 */
export function membershipEvents(
  id: number,
  previous: RecordSnapshot | undefined,
  found: { user_id: number; membership: object } | undefined,
): RecordChangeOutcome {
  if (!found) {
    if (!previous) return { events: [], snapshot: null };
    const data = { id, user_id: previous.facets.user_id ?? null, changed_fields: null, record: null };
    return { events: [{ type: 'membership.changed', data, facets: {} }], snapshot: null };
  }
  const snapshot: RecordSnapshot = { fields: fieldHashes(found.membership, new Set()), facets: { user_id: found.user_id } };
  const changed = previous ? changedFields(previous, snapshot) : null;
  if (changed !== null && changed.length === 0) return { events: [], snapshot };
  const data = { id, user_id: found.user_id, changed_fields: changed, record: found.membership };
  return { events: [{ type: 'membership.changed', data, facets: {} }], snapshot };
}

function changedFields(previous: RecordSnapshot, now: RecordSnapshot): string[] {
  return Object.keys({ ...now.fields, ...previous.fields })
    .filter((field) => now.fields[field] !== previous.fields[field])
    .sort();
}
