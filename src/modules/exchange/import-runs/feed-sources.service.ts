import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../db/dialect/index.js';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { plainText } from '../../../lib/text.js';
import { nowIso } from '../../../lib/time.js';
import * as repository from './feed-sources.repository.js';
import type { CreateFeedSourceInput, FeedSourceListRecord, FeedSourceRecord, UpdateFeedSourceInput } from './feed-sources.schemas.js';
import { checkedFeedUrl } from './feed-urls.js';
import { toFeedSource } from './import-runs.mapper.js';
import * as runs from './import-runs.repository.js';

const MINUTE_MS = 60_000;
/** Sources queued per run of the job; more wait for its next run (seconds later). */
const DUE_BATCH = 50;

/**
 * Feed sources (docs/data-exchange.md, "Imports over HTTP"): URLs the `feed-imports` job pulls on a schedule,
 * each pull an import run under the source's name. Administrators manage them (the routes say who may). The URL
 * may carry a token: it is shown in these records only, and never logged.
 */
export class FeedSources {
  constructor(private readonly db: Kysely<DB>) {}

  /** A new source, due at once: its first import is queued at the job's next run. */
  async create(caller: AuthUser, input: CreateFeedSourceInput, now = new Date()): Promise<FeedSourceRecord> {
    const name = plainText(input.name);
    if (name === '') throw AppError.invalidField('name', 'import_rule_blank_name');
    const url = checkedFeedUrl(input.url, 'url');
    const at = nowIso(now);
    try {
      const row = await repository.insertSource(this.db, {
        name,
        url,
        format: input.format,
        interval_minutes: input.interval_minutes,
        withdraw_missing: input.withdraw_missing ? 1 : 0,
        next_pull_at: at,
        created_by: caller.id,
        created_at: at,
        updated_at: at,
      });
      return toFeedSource(row, undefined);
    } catch (error) {
      // Two sources of one name would share (and withdraw) each other's listings.
      if (isUniqueViolation(error)) throw new AppError('conflict', 'feed_source_name_taken');
      throw error;
    }
  }

  async list(): Promise<FeedSourceListRecord> {
    const rows = await repository.findSources(this.db);
    const latest = new Map(
      (
        await runs.latestRunsOf(
          this.db,
          rows.map((row) => row.id),
        )
      ).map((run) => [run.feed_source_id, run]),
    );
    return { sources: rows.map((row) => toFeedSource(row, latest.get(row.id))), total_sources: rows.length };
  }

  /**
   * Pauses or resumes it, or changes its URL, interval or withdrawal. A shorter interval brings the next pull
   * forward to at most one new interval from now; resuming leaves the next pull as it was (one overdue
   * meanwhile is queued at the job's next run).
   */
  async update(id: number, input: UpdateFeedSourceInput, now = new Date()): Promise<FeedSourceRecord> {
    const current = await repository.findSource(this.db, id);
    if (!current) throw AppError.notFound();
    const changes: Parameters<typeof repository.updateSource>[2] = { updated_at: nowIso(now) };
    if (input.url !== undefined) changes.url = checkedFeedUrl(input.url, 'url');
    if (input.paused !== undefined) changes.paused = input.paused ? 1 : 0;
    if (input.withdraw_missing !== undefined) changes.withdraw_missing = input.withdraw_missing ? 1 : 0;
    if (input.interval_minutes !== undefined) {
      changes.interval_minutes = input.interval_minutes;
      const soonest = nowIso(new Date(now.getTime() + input.interval_minutes * MINUTE_MS));
      if (soonest < current.next_pull_at) changes.next_pull_at = soonest;
    }
    const row = await repository.updateSource(this.db, id, changes);
    if (!row) throw AppError.notFound();
    const [latest] = await runs.latestRunsOf(this.db, [id]);
    return toFeedSource(row, latest);
  }

  /** Deletes it; its imports stay listed, and those still queued fail rather than pull a source that is gone. */
  async delete(id: number, now = new Date()): Promise<void> {
    const deleted = await this.db.transaction().execute(async (trx) => {
      await runs.failQueuedOfSource(trx, id, 'its feed source was deleted before it ran', nowIso(now));
      return repository.deleteSource(trx, id);
    });
    if (!deleted) throw AppError.notFound();
  }

  /**
   * Queues an import for each unpaused source due at `now` and moves its next pull one interval on. A pull that
   * falls due while the source's last import is still queued or running is skipped (the next one comes an
   * interval later): a slow feed never piles imports up. Returns how many were queued.
   */
  async queueDue(now: Date): Promise<number> {
    const at = nowIso(now);
    let queued = 0;
    for (const source of await repository.findDueSources(this.db, at, DUE_BATCH)) {
      const next = nowIso(new Date(now.getTime() + source.interval_minutes * MINUTE_MS));
      const didQueue = await this.db.transaction().execute(async (trx) => {
        if (!(await repository.advanceSource(trx, source.id, source.next_pull_at, next))) return false;
        if (await runs.hasActiveRun(trx, source.id)) return false;
        await runs.insertRun(trx, {
          state: 'queued',
          format: source.format,
          source: source.name,
          withdraw_missing: source.withdraw_missing,
          url: source.url,
          feed_source_id: source.id,
          created_by: source.created_by,
          created_at: at,
        });
        return true;
      });
      if (didQueue) queued++;
    }
    return queued;
  }
}
