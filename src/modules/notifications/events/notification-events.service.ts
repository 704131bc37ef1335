import type { Kysely } from 'kysely';
import { markEventsProcessed } from '../../../db/domain-events.js';
import type { DB } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import { announcementsOf, type PublishedListingAlerts } from './event-announcements.js';
import { findPendingEvents } from './event-facts.repository.js';
import type { Notifier } from '../delivery/notifier.service.js';

const BATCH_SIZE = 100;
const MAX_BATCHES_PER_RUN = 20;

/**
 * Turns domain events (a lead, a review, a listing move, a payment…) into notifications. Each batch is one
 * transaction: the notifications, their e-mail and push messages in the outbox, and the events marked
 * processed commit together, so a crash loses nothing and a batch done again adds nothing (notifications are
 * keyed by `event:<id>`). Committed notifications go to the live streams afterwards.
 */
export class NotificationEventsJob {
  /** Until the saved-searches module is wired in (app.ts), listings entering `publish` alert no one. */
  private alerts: PublishedListingAlerts = { matchPublished: async () => [] };

  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifier: Notifier,
  ) {}

  /**
   * Who hears of listings entering `publish`: the saved-searches module, which depends on this one and so is
   * handed in once both exist rather than through the constructor.
   */
  alertPublishedListingsWith(alerts: PublishedListingAlerts): void {
    this.alerts = alerts;
  }

  /** Processes pending events; returns how many, and 0 as the delay when some are left (the scheduler runs it again at once). */
  async runOnce(now = new Date()): Promise<{ processed: number; more: boolean }> {
    let processed = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      const done = await this.processBatch(now);
      processed += done;
      if (done < BATCH_SIZE) return { processed, more: false };
    }
    return { processed, more: true };
  }

  private async processBatch(now: Date): Promise<number> {
    const { count, created } = await this.db.transaction().execute(async (trx) => {
      const events = await findPendingEvents(trx, BATCH_SIZE);
      if (events.length === 0) return { count: 0, created: [] };
      const announcements = await announcementsOf(trx, events, this.alerts, now);
      const rows = await this.notifier.announce(trx, announcements, now);
      await markEventsProcessed(
        trx,
        events.map((event) => event.id),
        nowIso(now),
      );
      return { count: events.length, created: rows };
    });
    this.notifier.publish(created);
    return count;
  }
}
