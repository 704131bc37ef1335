import { NOTIFICATION_TYPES, type NotificationType } from '../../../db/schema/index.js';

export const CHANNELS = ['in_app', 'email', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];
export type ChannelSwitches = Record<Channel, boolean>;

/**
 * What a user gets before choosing: everything in the app and on their devices, and e-mail for everything
 * about their own listings, leads, reviews, searches and money. The administrator's `system` messages are
 * not e-mailed unless asked for: a broadcast to every user should not become a mass mailing by default.
 */
function defaultSwitches(type: NotificationType): ChannelSwitches {
  return { in_app: true, email: type !== 'system', push: true };
}

/** Stored preference rows (only the changed types) over the defaults: every type, every channel. */
export function preferencesOf(
  rows: readonly { type: NotificationType; in_app: number; email: number; push: number }[],
): Record<NotificationType, ChannelSwitches> {
  const stored = new Map(rows.map((row) => [row.type, row]));
  const all = {} as Record<NotificationType, ChannelSwitches>;
  for (const type of NOTIFICATION_TYPES) {
    const row = stored.get(type);
    all[type] = row ? { in_app: row.in_app === 1, email: row.email === 1, push: row.push === 1 } : defaultSwitches(type);
  }
  return all;
}
