import type { NotificationRow } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { NotificationRecord } from './notifications.schemas.js';

export function toNotification(row: NotificationRow): NotificationRecord {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    data: JSON.parse(row.data) as Record<string, unknown>,
    is_read: row.is_read === 1,
    created_at: toApiTimestamp(row.created_at),
  };
}
