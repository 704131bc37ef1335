import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isForeignKeyViolation } from '../../db/dialect/index.js';
import type { DB, NotificationRow, NotificationType } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { plainText } from '../../lib/text.js';
import { nowIso } from '../../lib/time.js';
import type { Broadcasts } from './broadcasts/broadcasts.service.js';
import * as devices from './delivery/devices.repository.js';
import { type CHANNELS, preferencesOf } from './delivery/notification-preferences.js';
import { toNotification } from './notifications.mapper.js';
import * as repository from './notifications.repository.js';
import {
  type CreateNotificationInput,
  MAX_DATA_BYTES,
  type NotificationListRecord,
  type NotificationRecord,
  type NotificationsCreatedRecord,
  type NotificationsQueryInput,
  type PreferencesRecord,
  type RegisterDeviceInput,
  type UpdatePreferencesInput,
} from './notifications.schemas.js';
import type { Notifier } from './delivery/notifier.service.js';

/**
 * A user's notifications (docs/api.md 8): reading and marking them, channel preferences, push devices; and the
 * administrator's notifications to one user (written at once) or to a role or everyone (queued).
 * Every operation is scoped to the caller's own rows: another user's notification is a 404.
 */
export class NotificationsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifier: Notifier,
    private readonly broadcasts: Broadcasts,
  ) {}

  async list(caller: AuthUser, query: NotificationsQueryInput): Promise<NotificationListRecord> {
    const window = pageWindow(query);
    const filter: repository.NotificationFilter = {
      ...(query.status === 'read' ? { read: true } : query.status === 'unread' ? { read: false } : {}),
      ...(query.type ? { type: query.type } : {}),
    };
    const [rows, total, unread] = await Promise.all([
      repository.findNotifications(this.db, caller.id, filter, { limit: window.perPage, offset: window.offset }),
      repository.countNotifications(this.db, caller.id, filter),
      this.unreadCount(caller.id),
    ]);
    return { notifications: rows.map(toNotification), pagination: paginationOf(total, window), unread_count: unread };
  }

  unreadCount(userId: number): Promise<number> {
    return repository.countNotifications(this.db, userId, { read: false });
  }

  async markRead(caller: AuthUser, id: number): Promise<{ id: number; is_read: true; unread_count: number }> {
    if (!(await repository.markRead(this.db, caller.id, id))) throw AppError.notFound();
    return { id, is_read: true, unread_count: await this.unreadCount(caller.id) };
  }

  async markAllRead(caller: AuthUser): Promise<{ marked: number; unread_count: number }> {
    const marked = await repository.markAllRead(this.db, caller.id);
    return { marked, unread_count: await this.unreadCount(caller.id) };
  }

  async remove(caller: AuthUser, id: number): Promise<{ id: number; deleted: true; unread_count: number }> {
    if (!(await repository.deleteNotification(this.db, caller.id, id))) throw AppError.notFound();
    return { id, deleted: true, unread_count: await this.unreadCount(caller.id) };
  }

  /** The user's notifications after `afterId`, oldest first (the live stream's resume). */
  async after(userId: number, afterId: number, limit: number): Promise<NotificationRecord[]> {
    return (await repository.findNotificationsAfter(this.db, userId, afterId, limit)).map(toNotification);
  }

  async preferences(caller: AuthUser): Promise<PreferencesRecord> {
    return { preferences: preferencesOf(await repository.findPreferenceRows(this.db, [caller.id])) };
  }

  /** Changes the switches named in the body; the others keep their value. Answers every type. */
  async updatePreferences(caller: AuthUser, input: UpdatePreferencesInput): Promise<PreferencesRecord> {
    await userMustExist(
      this.db.transaction().execute(async (trx) => {
        const current = preferencesOf(await repository.findPreferenceRows(trx, [caller.id]));
        const changes = Object.entries(input.preferences).flatMap(([type, switches]) =>
          switches === undefined ? [] : [{ type: type as NotificationType, value: { ...current[type as NotificationType], ...switches } }],
        );
        await repository.upsertPreferences(trx, caller.id, changes);
      }),
    );
    return this.preferences(caller);
  }

  /** Turns one channel of one type off (the e-mail's unsubscribe link); a user deleted meanwhile → 404. */
  async switchOff(userId: number, type: NotificationType, channel: (typeof CHANNELS)[number]): Promise<void> {
    await userMustExist(
      this.db.transaction().execute(async (trx) => {
        const current = preferencesOf(await repository.findPreferenceRows(trx, [userId]))[type];
        await repository.upsertPreferences(trx, userId, [{ type, value: { ...current, [channel]: false } }]);
      }),
    );
  }

  async registerDevice(caller: AuthUser, input: RegisterDeviceInput): Promise<{ platform: string; registered: true }> {
    await userMustExist(devices.registerDevice(this.db, caller.id, input.platform, input.token, nowIso()));
    return { platform: input.platform, registered: true };
  }

  async unregisterDevice(caller: AuthUser, token: string): Promise<{ unregistered: true }> {
    await devices.unregisterDevice(this.db, caller.id, token);
    return { unregistered: true };
  }

  /**
   * The administrator's notification. To one user it is written at once (a deleted or unknown user → 404);
   * to a role or everyone it is queued and written by the broadcast job, and `created` counts the users
   * addressed.
   */
  async create(caller: AuthUser, input: CreateNotificationInput): Promise<NotificationsCreatedRecord> {
    const targets = [input.user_id !== undefined, input.role !== undefined, input.all === true].filter(Boolean).length;
    if (targets !== 1) throw AppError.invalidField('user_id', 'notification_rule_one_target');
    const data = input.data ?? {};
    if (jsonBytes(data) > MAX_DATA_BYTES) {
      throw AppError.invalidField('data', 'notification_rule_data_size', { max: MAX_DATA_BYTES });
    }
    const title = plainText(input.title);
    const message = plainText(input.message);
    if (title === '') throw AppError.invalidField('title', 'notification_rule_blank');
    if (message === '') throw AppError.invalidField('message', 'notification_rule_blank');
    const type = input.type ?? 'system';
    if (input.user_id === undefined) {
      const { id, recipients } = await this.broadcasts.queue({ senderId: caller.id, type, title, message, data, role: input.role ?? null });
      return { created: recipients, queued: true, broadcast_id: id };
    }
    const userId = input.user_id;
    const rows: NotificationRow[] = await this.db.transaction().execute(async (trx) => {
      if ((await repository.findUserLanguages(trx, [userId])).size === 0) throw AppError.notFound();
      return this.notifier.announce(trx, [{ userId, type, source: `admin:${randomUUID()}`, text: { title, message }, data }]);
    });
    this.notifier.publish(rows);
    return { created: rows.length, queued: false };
  }
}

/** A write keyed to a user whose account was deleted meanwhile meets the foreign key: that is a 404, not a 500. */
async function userMustExist(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw AppError.notFound();
    throw error;
  }
}

/**
 * The size of `value` as JSON. JSON.stringify throws a RangeError on a value nested too deep for the stack (some
 * thousands of levels, from any request): such a value is far over any size limit here, so it counts as endless.
 */
function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value));
  } catch (error) {
    if (error instanceof RangeError) return Infinity;
    throw error;
  }
}
