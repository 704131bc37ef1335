import type { Kysely } from 'kysely';
import { changeLogHead, readChangesAfter } from '../../../db/change-log.js';
import type { DB } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import type { DirectoryServices } from '../../directory/index.js';
import type { LeadsServices } from '../../leads/index.js';
import type { PaymentsServices } from '../../payments/index.js';
import type { PropertiesService, PropertyRecord } from '../../properties/index.js';
import type { ReviewsServices } from '../../reviews/index.js';
import { GIVE_UP_AFTER_MS } from '../delivery/backoff.js';
import { type EventFacets, passesFilter } from '../webhook-filter.js';
import type { WebhookFilterInput, WebhookRecordType } from '../webhooks.schemas.js';
import { type ListingSnapshot, listingChangeEvents, listingFacets } from './listing-events.js';
import {
  directoryEvents,
  invoiceEvents,
  leadEvents,
  membershipEvents,
  type RecordChangeOutcome,
  type RecordSnapshot,
  reviewEvents,
  type TargetFacets,
} from './record-events.js';
import * as repository from './webhook-events.repository.js';

/** Changes read per run: one transaction writes their events and deliveries. */
const BATCH = 500;
/** How long one run goes on with batch after batch; well inside the job's lease (SHORT_LEASE_MS). */
const RUN_BUDGET_MS = 10_000;
/** How long events are kept (for the deliveries list and replays) once no delivery waits for them. */
const EVENT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * Derives webhook events from the change log (docs/webhooks.md, "Where events come from") and queues one
 * delivery per event and endpoint that wants it. The change log is numbered in commit order, so following it by
 * number misses no commit, and every event carries the number it came from. A change names a record, not what
 * changed: the follower reads the record as an administrator sees it, through the module that owns it
 * (`WebhookSources`), and compares it with what it saw last (`webhook_snapshots`: a hash per field), which names
 * the changed fields and a state's move. Listings, leads, reviews, agents, agencies, invoices and memberships are
 * followed; other entities of the log (terms) are skipped.
 *
 * Runs as the scheduled job `webhook-events`, once at a time across processes; the position moves in the same
 * transaction as the events it wrote, and only from where this run read it, so a run taken over mid-way writes
 * nothing twice. While no endpoint exists nothing is derived: the position jumps to the head, and records seen
 * for the first time after that are `listing.created` only if they were created after it.
 */
export class WebhookEventsFollower {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly sources: WebhookSources,
  ) {}

  /**
   * Deletes events older than EVENT_RETENTION_MS that no delivery waits for, with their deliveries: the
   * deliveries list and replays reach back that far.
   */
  async prune(now: Date): Promise<number> {
    return repository.deleteEventsBefore(this.db, nowIso(new Date(now.getTime() - EVENT_RETENTION_MS)));
  }

  /**
   * Batches of changes for up to RUN_BUDGET_MS (a job that asks to run again waits for the scheduler's next tick,
   * so one batch per run would cap the rate at a batch a second); true when there may be more at once.
   */
  async runOnce(now: Date): Promise<boolean> {
    const started = performance.now();
    for (;;) {
      const more = await this.runBatch(new Date(now.getTime() + (performance.now() - started)));
      if (!more) return false;
      if (performance.now() - started >= RUN_BUDGET_MS) return true;
    }
  }

  /** One batch of changes; true when there may be more at once. */
  private async runBatch(now: Date): Promise<boolean> {
    const follower = await repository.findFollower(this.db);
    if (!follower) {
      await repository.insertFollower(this.db, await changeLogHead(this.db), nowIso(now));
      return false;
    }
    if (!(await repository.hasEndpoints(this.db))) {
      const head = await changeLogHead(this.db);
      if (head === follower.position) return false;
      await this.db.transaction().execute(async (trx) => {
        if (await repository.moveFollower(trx, follower.position, head, nowIso(now))) await repository.deleteAllSnapshots(trx);
      });
      return false;
    }
    const changes = await readChangesAfter(this.db, follower.position, BATCH);
    if (changes.length === 0) return false;
    const last = changes[changes.length - 1]!.seq;
    // A record named twice in the batch is read once, at its last number (the record now shows both changes).
    // Entities the follower does not know (terms: a rename is no listing's event) are skipped.
    const named = new Map<string, { entity: FollowedEntity; id: number; seq: number }>();
    for (const change of changes) {
      if (!isFollowed(change.entity)) continue;
      const key = `${change.entity}:${change.entityId}`;
      named.delete(key); // re-inserted at its last number, so that the map's order is the order of last numbers
      named.set(key, { entity: change.entity, id: change.entityId, seq: change.seq });
    }
    const idsOf = (entity: FollowedEntity) => [...named.values()].filter((one) => one.entity === entity).map((one) => one.id);
    const loaded = await this.load(idsOf);
    const at = nowIso(now);
    const giveUpAt = nowIso(new Date(now.getTime() + GIVE_UP_AFTER_MS));
    // Records show times to the second: one made in the follower's first second counts as made after it.
    const startSecond = Math.floor(Date.parse(follower.startedAt) / 1000) * 1000;
    const events: QueuedEvent[] = [];
    const keep: { entity: string; entity_id: number; fields: string; facets: string }[] = [];
    const forget = new Map<string, number[]>();
    for (const { entity, id, seq } of [...named.values()].sort((a, b) => a.seq - b.seq)) {
      const previous = loaded.snapshots.get(`${entity}:${id}`);
      const outcome = this.derive(entity, id, previous, loaded, startSecond);
      outcome.events.forEach((event, index) => {
        const publicId = `evt_${seq}_${index + 1}`;
        const body = JSON.stringify({ id: publicId, type: event.type, timestamp: at, sequence: seq, data: event.data });
        events.push({ publicId, seq, type: event.type, entity, recordKey: `${entity}:${id}`, entityId: id, body, facets: event.facets });
      });
      if (outcome.snapshot) {
        keep.push({
          entity,
          entity_id: id,
          fields: JSON.stringify(outcome.snapshot.fields),
          facets: JSON.stringify(outcome.snapshot.facets),
        });
      } else if (outcome.snapshot === null && previous) forget.set(entity, [...(forget.get(entity) ?? []), id]);
    }
    await this.db.transaction().execute(async (trx) => {
      if (!(await repository.moveFollower(trx, follower.position, last))) return; // another run got there first
      const endpoints = (await repository.findEnabledEndpoints(trx)).map((row) => ({
        id: row.id,
        events: JSON.parse(row.events) as string[],
        filter: row.filter === null ? null : (JSON.parse(row.filter) as WebhookFilterInput),
      }));
      const eventIds = await repository.insertEvents(
        trx,
        events.map((event) => ({
          public_id: event.publicId,
          seq: event.seq,
          type: event.type,
          entity: event.entity,
          entity_id: event.entityId,
          body: event.body,
          facets: JSON.stringify(event.facets),
          created_at: at,
        })),
      );
      await repository.insertDeliveries(
        trx,
        events.flatMap((event, index) =>
          endpoints
            .filter((endpoint) => endpoint.events.includes(event.type) && passesFilter(endpoint.filter, event.type, event.facets))
            .map((endpoint) => ({
              endpoint_id: endpoint.id,
              event_id: eventIds[index]!,
              record_key: event.recordKey,
              next_attempt_at: at,
              give_up_at: giveUpAt,
              created_at: at,
            })),
        ),
      );
      await repository.upsertSnapshots(trx, keep);
      for (const [entity, ids] of forget) await repository.deleteSnapshots(trx, entity, ids);
    });
    return changes.length === BATCH;
  }

  /**
   * Reads what the batch's changes name, as an administrator sees it, through each record's module, with the
   * snapshots the follower kept of them; and the listings and agents that its leads and reviews are about (their
   * facets are what filters test). A fixed number of queries per batch.
   */
  private async load(idsOf: (entity: FollowedEntity) => number[]): Promise<LoadedRecords> {
    const sources = this.sources;
    const [leads, reviews, invoices, memberships, snapshotRows] = await Promise.all([
      sources.leads.recordsOf(idsOf('lead')),
      sources.reviews.recordsOf(idsOf('review')),
      sources.invoices.recordsOf(idsOf('invoice')),
      sources.memberships.recordsOf(idsOf('membership')),
      Promise.all(SNAPSHOT_ENTITIES.map((entity) => repository.findSnapshots(this.db, entity, idsOf(entity)))),
    ]);
    // The targets of leads and reviews are read with the batch's own listings and agents.
    const targets = [...leads.values(), ...reviews.values()].filter((one) => one.target_id !== null);
    const listingIds = new Set(idsOf('listing'));
    const agentIds = new Set(idsOf('agent'));
    for (const { target_type: type, target_id: id } of targets) {
      if (type === 'property') listingIds.add(id!);
      else if (type === 'agent') agentIds.add(id!);
    }
    const [listings, agents, agencies] = await Promise.all([
      sources.properties.recordsForModerators([...listingIds]),
      sources.agents.recordsOf([...agentIds]),
      sources.agencies.recordsOf(idsOf('agency')),
    ]);
    const snapshots = new Map<string, RecordSnapshot>();
    SNAPSHOT_ENTITIES.forEach((entity, index) => {
      for (const row of snapshotRows[index]!) {
        snapshots.set(`${entity}:${row.entity_id}`, { fields: JSON.parse(row.fields), facets: JSON.parse(row.facets) } as RecordSnapshot);
      }
    });
    return { listings, agents, agencies, leads, reviews, invoices, memberships, snapshots };
  }

  /** The events of one record's change, and the snapshot to keep of it (docs/webhooks.md, "Event types"). */
  private derive(
    entity: FollowedEntity,
    id: number,
    previous: RecordSnapshot | undefined,
    loaded: LoadedRecords,
    startSecond: number,
  ): RecordChangeOutcome {
    const target: TargetFacets = (type, targetId) => {
      if (type === 'property') {
        const listing = loaded.listings.get(targetId);
        return listing ? listingFacets(listing) : {};
      }
      if (type === 'agent') {
        const agent = loaded.agents.get(targetId);
        return { agent_ids: [targetId], agency_id: agent?.agency?.id ?? null };
      }
      return { agency_id: targetId };
    };
    switch (entity) {
      case 'listing': {
        const record = loaded.listings.get(id);
        const isNew = record !== undefined && Date.parse(record.created_at) >= startSecond;
        return listingChangeEvents(id, previous as ListingSnapshot | undefined, record, isNew);
      }
      case 'lead':
        return leadEvents(id, loaded.leads.get(id), target);
      case 'review':
        return reviewEvents(id, loaded.reviews.get(id), target);
      case 'agent': {
        const agent = loaded.agents.get(id);
        return directoryEvents('agent.updated', id, previous, agent, { agent_ids: [id], agency_id: agent?.agency?.id ?? null });
      }
      case 'agency':
        return directoryEvents('agency.updated', id, previous, loaded.agencies.get(id), { agency_id: id });
      case 'invoice':
        return invoiceEvents(id, previous, loaded.invoices.get(id), startSecond);
      case 'membership':
        return membershipEvents(id, previous, loaded.memberships.get(id));
    }
  }
}

/** The change-log entities events are derived from; others (terms) are skipped. */
const FOLLOWED_ENTITIES = [
  'listing',
  'lead',
  'review',
  'agent',
  'agency',
  'invoice',
  'membership',
] as const satisfies readonly WebhookRecordType[];
type FollowedEntity = (typeof FOLLOWED_ENTITIES)[number];
/** Those whose last sight the follower keeps (leads and reviews are never changed: their change is their creation). */
const SNAPSHOT_ENTITIES = ['listing', 'agent', 'agency', 'invoice', 'membership'] as const satisfies readonly FollowedEntity[];

function isFollowed(entity: string): entity is FollowedEntity {
  return (FOLLOWED_ENTITIES as readonly string[]).includes(entity);
}

/** The records a batch's changes name, as their modules show them to an administrator, by id. */
interface LoadedRecords {
  listings: Map<number, PropertyRecord>;
  agents: Awaited<ReturnType<WebhookSources['agents']['recordsOf']>>;
  agencies: Awaited<ReturnType<WebhookSources['agencies']['recordsOf']>>;
  leads: Awaited<ReturnType<WebhookSources['leads']['recordsOf']>>;
  reviews: Awaited<ReturnType<WebhookSources['reviews']['recordsOf']>>;
  invoices: Awaited<ReturnType<WebhookSources['invoices']['recordsOf']>>;
  memberships: Awaited<ReturnType<WebhookSources['memberships']['recordsOf']>>;
  /** By `entity:id`. */
  snapshots: Map<string, RecordSnapshot>;
}

/**
 * The modules whose records events carry, each read through its face as an administrator sees them (never their
 * tables: the follower holds no SQL of theirs).
 */
export interface WebhookSources {
  properties: Pick<PropertiesService, 'recordsForModerators'>;
  leads: Pick<LeadsServices['leads'], 'recordsOf'>;
  reviews: Pick<ReviewsServices['reviews'], 'recordsOf'>;
  agents: Pick<DirectoryServices['agents'], 'recordsOf'>;
  agencies: Pick<DirectoryServices['agencies'], 'recordsOf'>;
  invoices: Pick<PaymentsServices['invoices'], 'recordsOf'>;
  memberships: Pick<PaymentsServices['memberships'], 'recordsOf'>;
}

/** An event derived in this run, before it has its row. */
interface QueuedEvent {
  publicId: string;
  seq: number;
  type: string;
  entity: FollowedEntity;
  recordKey: string;
  entityId: number;
  body: string;
  facets: EventFacets;
}
