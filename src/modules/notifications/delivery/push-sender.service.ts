import type { Kysely } from 'kysely';
import type { PushClient, PushMessage } from '../../../adapters/push/fcm.js';
import type { DB, OutboxRow } from '../../../db/schema/index.js';
import { deleteDeviceTokensOf, findDeviceTokensOf } from './devices.repository.js';
import type { DeliveryPayload } from './notifier.service.js';
import type { ChannelSender } from '../../../db/outbox.js';

/** How many devices of one user are sent to at once. */
const PARALLEL_SENDS = 10;

/**
 * Sends `notification_push` messages to every device the user has when the message is sent (not when it was
 * queued), and forgets the devices FCM calls unregistered. When any device fails in a way that may pass, the
 * whole message is retried later: the devices that did receive it get it again with the same
 * `idempotency_key`, which the app uses to drop the repeat (at least once, docs/api.md 8).
 * Once sent, the outbox row keeps who and what kind, not the tokens or the text.
 */
export function pushSender(db: Kysely<DB>, client: PushClient): ChannelSender {
  return async (payload: unknown, row: OutboxRow) => {
    const push = payload as DeliveryPayload;
    const tokens = await findDeviceTokensOf(db, push.user_id);
    const message: PushMessage = { title: push.title, body: push.message, data: pushData(push) };
    const unregistered: string[] = [];
    const failures: unknown[] = [];
    let sent = 0;
    for (let start = 0; start < tokens.length; start += PARALLEL_SENDS) {
      const batch = tokens.slice(start, start + PARALLEL_SENDS);
      const results = await Promise.allSettled(batch.map((token) => client.send(token, message, row.idempotency_key)));
      results.forEach((result, index) => {
        if (result.status === 'rejected') failures.push(result.reason);
        else if (result.value === 'unregistered') unregistered.push(batch[index]!);
        else sent++;
      });
    }
    await deleteDeviceTokensOf(db, push.user_id, unregistered);
    if (failures.length > 0) {
      const first = failures[0];
      const reason = first instanceof Error ? first.message : String(first);
      throw new Error(`push to ${failures.length} of ${tokens.length} devices failed: ${reason}`, { cause: first });
    }
    return { user_id: push.user_id, type: push.type, devices: sent };
  };
}

/** FCM data values are strings: strings as they are, anything else as JSON; plus the type and notification id. */
function pushData(push: DeliveryPayload): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(push.data ?? {})) {
    if (value !== undefined) data[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  data.type = push.type;
  if (push.notification_id !== null && push.notification_id !== undefined) data.notification_id = String(push.notification_id);
  return data;
}
