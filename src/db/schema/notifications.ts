import type { Generated, Selectable } from 'kysely';

/** Notifications, their preferences and devices, and broadcasts (migration 0010). */
export interface NotificationsTables {
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  devices: DevicesTable;
  broadcasts: BroadcastsTable;
}

/** docs/api.md 8: what a notification is about. */
export const NOTIFICATION_TYPES = [
  'property_approved',
  'property_disapproved',
  'property_expired',
  'new_lead',
  'new_review',
  'saved_search_match',
  'membership_activated',
  'membership_expiring',
  'membership_expired',
  'payment_received',
  'system',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const DEVICE_PLATFORMS = ['ios', 'android', 'web'] as const;

export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  type: NotificationType;
  title: string;
  message: string;
  /** JSON object. */
  data: string;
  is_read: Generated<number>;
  /** What caused it (`event:<id>`, `broadcast:<id>` …): unique per user, so nothing is announced twice. */
  source: string;
  created_at: string;
}

/** A row only where the user changed a default (notification-preferences.ts has the defaults). */
interface NotificationPreferencesTable {
  user_id: number;
  type: NotificationType;
  in_app: number;
  email: number;
  push: number;
}

interface DevicesTable {
  id: Generated<number>;
  user_id: number;
  platform: DevicePlatform;
  /** The FCM registration token; a token belongs to the user who registered it last. */
  token: string;
  created_at: string;
  updated_at: string;
}

type BroadcastStatus = 'queued' | 'done';

/** An administrator's notification to a role or to everyone, fanned out in batches by a background job. */
export interface BroadcastsTable {
  id: Generated<number>;
  sender_id: number | null;
  type: NotificationType;
  title: string;
  message: string;
  data: string;
  /** Null: every user. */
  role: string | null;
  /** How many users it was addressed to when it was queued. */
  recipients: number;
  /** The fan-out's progress: users up to this id have their notification. */
  last_user_id: Generated<number>;
  status: Generated<BroadcastStatus>;
  created_at: string;
  finished_at: Generated<string | null>;
}

export type NotificationRow = Selectable<NotificationsTable>;

export type BroadcastRow = Selectable<BroadcastsTable>;
