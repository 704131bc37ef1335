/** Notification types (docs/api.md 8); an administrator's message is usually `system`. */
export const NOTIFICATION_TYPES = [
  'system',
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
] as const;

export const ROLES = ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller', 'buyer'] as const;

export type Target = 'user' | 'role' | 'all';

export interface BroadcastFormValues {
  title: string;
  message: string;
  type: (typeof NOTIFICATION_TYPES)[number];
  target: Target;
  user_id: string;
  role: (typeof ROLES)[number];
}

export const EMPTY_BROADCAST: BroadcastFormValues = { title: '', message: '', type: 'system', target: 'all', user_id: '', role: 'buyer' };

/** The body of POST /notifications: exactly one target, as the API requires. */
export interface BroadcastBody {
  title: string;
  message: string;
  type: BroadcastFormValues['type'];
  user_id?: number;
  role?: BroadcastFormValues['role'];
  all?: true;
}

export function formToBroadcastBody(values: BroadcastFormValues): BroadcastBody {
  const body: BroadcastBody = { title: values.title.trim(), message: values.message.trim(), type: values.type };
  if (values.target === 'user') body.user_id = Number(values.user_id.trim());
  else if (values.target === 'role') body.role = values.role;
  else body.all = true;
  return body;
}

/** The answer of POST /notifications. */
export interface BroadcastAnswer {
  created: number;
  queued: boolean;
  broadcast_id?: number;
}

/** A message of the outbox (GET /notifications/deliveries). */
export interface DeliveryRecord {
  id: number;
  channel: string;
  status: 'pending' | 'sent' | 'dead';
  attempts: number;
  last_error: string | null;
  idempotency_key: string;
  created_at: string;
  available_at: string;
  sent_at: string | null;
}

export interface RetryAllResult {
  retried: number;
  failed: number;
}

/** One page of dead messages, and whether a page follows. */
export interface DeadPage {
  items: readonly { id: number }[];
  hasNext: boolean;
}

/**
 * Sends every dead message again, for want of a bulk route: reads a page of dead messages and retries
 * those it has not tried yet; a page holding only tried ones (they failed again, or a retry was refused)
 * sends it to the next page, and the end of the list ends it. A retried message leaves the dead list, so
 * the page is read again before moving on. Each message is tried at most once, so the loop always ends;
 * `retryOne` rejecting (a 409 when the worker took it meanwhile) counts as failed and goes on.
 */
export async function retryAllDead(
  readDead: (page: number) => Promise<DeadPage>,
  retryOne: (id: number) => Promise<unknown>,
  onProgress?: (done: RetryAllResult) => void,
): Promise<RetryAllResult> {
  const seen = new Set<number>();
  const result: RetryAllResult = { retried: 0, failed: 0 };
  let page = 1;
  for (;;) {
    const { items, hasNext } = await readDead(page);
    const fresh = items.filter((item) => !seen.has(item.id));
    if (fresh.length === 0) {
      if (!hasNext || items.length === 0) return result;
      page += 1;
      continue;
    }
    for (const { id } of fresh) {
      seen.add(id);
      try {
        await retryOne(id);
        result.retried += 1;
      } catch {
        result.failed += 1;
      }
      onProgress?.({ ...result });
    }
  }
}
