import type { NotificationRow, NotificationType } from '../../../db/schema/index.js';
import { supportedLanguage } from '../../../i18n/index.js';
import { nowIso } from '../../../lib/time.js';
import { enqueueMany, type OutboxMessage } from '../../../db/outbox.js';
import { usersWithDevices } from './devices.repository.js';
import { type Channel, preferencesOf } from './notification-preferences.js';
import { type NotificationTextKey, notificationText, type TextParams } from './notification-texts.js';
import {
  findEmailOptOuts,
  findPreferenceRows,
  findUserLanguages,
  insertNotifications,
  type PreferenceRow,
} from '../notifications.repository.js';
import type { Executor } from '../../../db/executor.js';

/** The outbox channels of a notification's e-mail and push message. */
export const EMAIL_CHANNEL = 'notification_email';
export const PUSH_CHANNEL = 'notification_push';

/** Text written by the service, in each recipient's language; or text as the administrator wrote it. */
type AnnouncementText =
  { title: NotificationTextKey; message: NotificationTextKey; params: TextParams } | { title: string; message: string; params?: undefined };

/** One notification for one user. */
export interface Announcement {
  userId: number;
  type: NotificationType;
  /** What caused it: the same user and source twice is one notification (and one e-mail, one push). */
  source: string;
  text: AnnouncementText;
  data: Record<string, unknown>;
  /** Channels this cause never uses, whatever the preferences (a lead has its own e-mail). */
  skip?: readonly Channel[];
}

/** The payload of a notification's e-mail and push messages in the outbox. */
export interface DeliveryPayload {
  user_id: number;
  type: NotificationType;
  title: string;
  message: string;
  data: Record<string, unknown>;
  /** Null when the user turned in-app notifications of this type off. */
  notification_id: number | null;
}

/** Where new notifications go once committed: the live streams (notification-hub.service.ts). */
export interface NotificationPublisher {
  publish(notifications: readonly NotificationRow[]): void;
}

/**
 * Turns announcements into notifications, inside the caller's transaction: an in-app row, and e-mail and
 * push messages in the outbox, each as the recipient's preferences allow. Everything is keyed by (user,
 * source), so announcing the same thing again — a job retried after a crash — adds nothing. Users deleted
 * meanwhile are skipped. After the commit, the caller hands the returned rows to `publish`.
 */
export class Notifier {
  private publisher: NotificationPublisher | undefined;

  /** `push`: whether FCM is configured; without it no push message is queued. */
  constructor(private readonly options: { push: boolean }) {}

  /** Connects the live streams; until then, `publish` does nothing. */
  setPublisher(publisher: NotificationPublisher): void {
    this.publisher = publisher;
  }

  /** Which of these users turned e-mails of `type` off (docs/api.md 8 preferences), read in the caller's transaction. */
  emailOptOuts(db: Executor, userIds: readonly number[], type: NotificationType): Promise<Set<number>> {
    return findEmailOptOuts(db, userIds, type);
  }

  async announce(db: Executor, announcements: readonly Announcement[], now = new Date()): Promise<NotificationRow[]> {
    if (announcements.length === 0) return [];
    const userIds = [...new Set(announcements.map((a) => a.userId))];
    const [languages, preferenceRows, withDevices] = await Promise.all([
      findUserLanguages(db, userIds),
      findPreferenceRows(db, userIds),
      this.options.push ? usersWithDevices(db, userIds) : new Set<number>(),
    ]);
    const preferences = preferencesByUser(preferenceRows);
    const at = nowIso(now);
    const texts = new Map<Announcement, { title: string; message: string }>();
    const inApp: Announcement[] = [];
    for (const announcement of announcements) {
      const language = languages.get(announcement.userId);
      if (language === undefined) continue;
      texts.set(announcement, render(announcement.text, supportedLanguage(language) ?? 'en'));
      if (this.allows(preferences, announcement, 'in_app')) inApp.push(announcement);
    }
    const created = await insertNotifications(
      db,
      inApp.map((a) => ({
        user_id: a.userId,
        type: a.type,
        title: texts.get(a)!.title,
        message: texts.get(a)!.message,
        data: JSON.stringify(a.data),
        source: a.source,
        created_at: at,
      })),
    );
    const ids = new Map(created.map((row) => [`${row.user_id}\n${row.source}`, row.id]));
    const messages: OutboxMessage[] = [];
    for (const [announcement, text] of texts) {
      const payload: DeliveryPayload = {
        user_id: announcement.userId,
        type: announcement.type,
        ...text,
        data: announcement.data,
        notification_id: ids.get(`${announcement.userId}\n${announcement.source}`) ?? null,
      };
      const key = `notification:${announcement.userId}:${announcement.source}`;
      if (this.allows(preferences, announcement, 'email')) {
        messages.push({ channel: EMAIL_CHANNEL, idempotencyKey: `${key}:email`, payload });
      }
      if (this.options.push && withDevices.has(announcement.userId) && this.allows(preferences, announcement, 'push')) {
        messages.push({ channel: PUSH_CHANNEL, idempotencyKey: `${key}:push`, payload });
      }
    }
    await enqueueMany(db, messages, now);
    return created;
  }

  /** Hands committed notifications to the live streams. */
  publish(notifications: readonly NotificationRow[]): void {
    if (notifications.length > 0) this.publisher?.publish(notifications);
  }

  private allows(preferences: Map<number, ReturnType<typeof preferencesOf>>, announcement: Announcement, channel: Channel): boolean {
    if (announcement.skip?.includes(channel)) return false;
    return (preferences.get(announcement.userId) ?? DEFAULT_PREFERENCES)[announcement.type][channel];
  }
}

const DEFAULT_PREFERENCES = preferencesOf([]);

function preferencesByUser(rows: readonly PreferenceRow[]): Map<number, ReturnType<typeof preferencesOf>> {
  const byUser = new Map<number, PreferenceRow[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  return new Map([...byUser].map(([userId, own]) => [userId, preferencesOf(own)]));
}

function render(text: AnnouncementText, language: Parameters<typeof notificationText>[0]): { title: string; message: string } {
  if (text.params === undefined) return { title: text.title, message: text.message };
  return {
    title: notificationText(language, text.title, text.params),
    message: notificationText(language, text.message, text.params),
  };
}
