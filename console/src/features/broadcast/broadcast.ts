import type { AnswerData, RequestBody, Schemas } from '@realty-api/client';

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
] as const satisfies readonly Schemas['Notification']['type'][];

export const ROLES = [
  'administrator',
  'manager',
  'agency',
  'agent',
  'owner',
  'seller',
  'buyer',
] as const satisfies readonly Schemas['UserProfile']['role'][];

type Target = 'user' | 'role' | 'all';

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
export type BroadcastBody = RequestBody<'/realty-api/v1/notifications', 'post'>;

export function formToBroadcastBody(values: BroadcastFormValues): BroadcastBody {
  const body: BroadcastBody = { title: values.title.trim(), message: values.message.trim(), type: values.type };
  if (values.target === 'user') body.user_id = Number(values.user_id.trim());
  else if (values.target === 'role') body.role = values.role;
  else body.all = true;
  return body;
}

/** The answer of POST /notifications. */
export type BroadcastAnswer = AnswerData<'/realty-api/v1/notifications', 'post'>;

/** A message of the outbox (GET /notifications/deliveries). */
export type DeliveryRecord = AnswerData<'/realty-api/v1/notifications/deliveries', 'get'>['deliveries'][number];

/** Which dead messages POST /notifications/deliveries/retry sends again: the page's channel, or all of them. */
export function retryAllBody(channel: string): { channel?: string } {
  return channel === '' ? {} : { channel };
}

/** The answer of POST /notifications/deliveries/retry: how many dead messages went back to the queue. */
export type RetryAllAnswer = AnswerData<'/realty-api/v1/notifications/deliveries/retry', 'post'>;
