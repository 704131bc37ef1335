import type { Kysely } from 'kysely';
import { changeLogHead, readChangesAfter } from '../../../db/change-log.js';
import type { DB } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import type { PropertiesService } from '../../properties/index.js';
import { GIVE_UP_AFTER_MS } from '../delivery/backoff.js';
import { type EventFacets, passesFilter } from '../webhook-filter.js';
import type { WebhookFilterInput } from '../webhooks.schemas.js';
import { type ListingSnapshot, listingChangeEvents } from './listing-events.js';
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
 * changed: the follower reads the record as an administrator sees it and compares it with what it saw last
 * (`webhook_snapshots`: a hash per field), which names the changed fields and a state's move.
 *
 * Runs as the scheduled job `webhook-events`, once at a time across processes; the position moves in the same
 * transaction as the events it wrote, and only from where this run read it, so a run taken over mid-way writes
 * nothing twice. While no endpoint exists nothing is derived: the position jumps to the head, and records seen
 * for the first time after that are `listing.created` only if they were created after it.
 */
export class WebhookEventsFollower {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
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
    const listings = new Map<number, number>();
    for (const change of changes) if (change.entity === 'listing') listings.set(change.entityId, change.seq);
    const ids = [...listings.keys()];
    const [records, snapshotRows] = await Promise.all([
      this.properties.recordsForModerators(ids),
      repository.findSnapshots(this.db, 'listing', ids),
    ]);
    const snapshots = new Map(
      snapshotRows.map((row) => [row.entity_id, { fields: JSON.parse(row.fields), facets: JSON.parse(row.facets) } as ListingSnapshot]),
    );
    const at = nowIso(now);
    const giveUpAt = nowIso(new Date(now.getTime() + GIVE_UP_AFTER_MS));
    // Records show times to the second: one made in the follower's first second counts as made after it.
    const startSecond = Math.floor(Date.parse(follower.startedAt) / 1000) * 1000;
    const events: QueuedEvent[] = [];
    const keep: { entity: string; entity_id: number; fields: string; facets: string }[] = [];
    const forget: number[] = [];
    for (const [id, seq] of [...listings].sort((a, b) => a[1] - b[1])) {
      const record = records.get(id);
      const outcome = listingChangeEvents(
        id,
        snapshots.get(id),
        record,
        record !== undefined && Date.parse(record.created_at) >= startSecond,
      );
      outcome.events.forEach((event, index) => {
        const publicId = `evt_${seq}_${index + 1}`;
        const body = JSON.stringify({ id: publicId, type: event.type, timestamp: at, sequence: seq, data: event.data });
        events.push({ publicId, seq, type: event.type, recordKey: `listing:${id}`, entityId: id, body, facets: event.facets });
      });
      if (outcome.snapshot) {
        keep.push({
          entity: 'listing',
          entity_id: id,
          fields: JSON.stringify(outcome.snapshot.fields),
          facets: JSON.stringify(outcome.snapshot.facets),
        });
      } else if (snapshots.has(id)) forget.push(id);
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
          entity: 'listing',
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
      await repository.deleteSnapshots(trx, 'listing', forget);
    });
    return changes.length === BATCH;
  }
}

/** An event derived in this run, before it has its row. */
interface QueuedEvent {
  publicId: string;
  seq: number;
  type: string;
  recordKey: string;
  entityId: number;
  body: string;
  facets: EventFacets;
}
