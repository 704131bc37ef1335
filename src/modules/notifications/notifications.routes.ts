import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { NOTIFICATION_TYPES } from '../../db/schema/index.js';
import {
  AllMarkedRead,
  CreateNotificationBody,
  DeviceRegistered,
  DeviceUnregistered,
  MAX_DATA_BYTES,
  MarkedRead,
  NotificationDeleted,
  NotificationIdParams,
  NotificationList,
  NotificationsCreated,
  NotificationsQuery,
  Preferences,
  RegisterDeviceBody,
  UnreadCount,
  UnregisterDeviceBody,
  UpdatePreferencesBody,
} from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

export interface NotificationRouteOptions {
  notifications: NotificationsService;
}

const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;
const tags = ['notifications'];
const NoQuery = Type.Object({}, { additionalProperties: false });
const TYPES = NOTIFICATION_TYPES.map((type) => `\`${type}\``).join(', ');

/** The caller's notifications, preferences and devices, and the administrator's notifications (docs/api.md 8). */
export async function notificationRoutes(app: FastifyInstance, { notifications }: NotificationRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/notifications',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'The caller’s notifications',
        description:
          `Newest first (id descending), paged. \`status\`: \`all\` (default), \`read\`, \`unread\`; \`type\`: one of ${TYPES}. ` +
          '`unread_count` is the caller’s total unread, whatever the filters. Titles and messages are written in the ' +
          'recipient’s profile language when the notification is created.',
        security,
        querystring: NotificationsQuery,
        response: { 200: Envelope(NotificationList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.list(request.user!, request.query) }),
  );

  api.post(
    '/notifications',
    {
      config: { auth: ['administrator'] },
      schema: {
        tags,
        summary: 'Send a notification to a user, a role or everyone (administrator)',
        description:
          '`title` (≤ 200) and `message` (≤ 5,000) are plain text (HTML tags removed); `type` defaults to `system`; ' +
          `\`data\` is an object of at most 50 keys and ${MAX_DATA_BYTES} bytes as JSON. Exactly one target: \`user_id\`, ` +
          '`role` or `all: true` (none or several → 400). To one user the notification is written at once and ' +
          '`created` is 1 (0 when that user turned in-app notifications of the type off; the e-mail and push still ' +
          'follow their own switches); an unknown user → 404. To a role or everyone the broadcast is queued: the ' +
          'answer comes at once with `queued: true`, `broadcast_id` and `created` = the users addressed, and a ' +
          'background job writes the notifications a thousand users at a time. Broadcasts are not e-mailed unless a ' +
          'user turned e-mail on for the type (`system` e-mails are off by default).',
        security,
        body: CreateNotificationBody,
        response: { 201: Envelope(NotificationsCreated), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.status(201).send({ success: true, data: await notifications.create(request.user!, request.body) }),
  );

  api.get(
    '/notifications/unread-count',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'How many of the caller’s notifications are unread',
        description: '`{unread_count}`: the caller’s notifications not yet marked read, for a badge.',
        security,
        querystring: NoQuery,
        response: { 200: Envelope(UnreadCount), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: { unread_count: await notifications.unreadCount(request.user!.id) } }),
  );

  api.post(
    '/notifications/mark-all-read',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Mark all the caller’s notifications read',
        description: 'Marks every unread notification of the caller read; answers how many were (`marked`) and the unread count after.',
        security,
        querystring: NoQuery,
        response: { 200: Envelope(AllMarkedRead), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.markAllRead(request.user!) }),
  );

  api.post(
    '/notifications/:id/read',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Mark one notification read',
        description: 'Idempotent. Another user’s notification, or an unknown id → 404.',
        security,
        params: NotificationIdParams,
        response: { 200: Envelope(MarkedRead), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.markRead(request.user!, request.params.id) }),
  );

  api.delete(
    '/notifications/:id',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Delete one of the caller’s notifications',
        description: 'Another user’s notification, or an unknown id → 404.',
        security,
        params: NotificationIdParams,
        response: { 200: Envelope(NotificationDeleted), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.remove(request.user!, request.params.id) }),
  );

  api.get(
    '/notifications/preferences',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'The caller’s channels per notification type',
        description:
          'Every type with `{in_app, email, push}`. Defaults: all on, except e-mail for `system`. A `new_lead`’s ' +
          'e-mail is the lead itself (docs/api.md 6.3, reply-to the sender): `new_lead.email: false` stops those e-mails; ' +
          'the lead is still kept at GET /users/leads.',
        security,
        querystring: NoQuery,
        response: { 200: Envelope(Preferences), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.preferences(request.user!) }),
  );

  api.put(
    '/notifications/preferences',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Change the caller’s channels per notification type',
        description:
          'Partial: `{preferences: {new_review: {email: false}}}` changes only the switches named; the answer holds every ' +
          'type. An unknown type or channel, or an empty object → 400.',
        security,
        body: UpdatePreferencesBody,
        response: { 200: Envelope(Preferences), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.updatePreferences(request.user!, request.body) }),
  );

  api.post(
    '/notifications/register-device',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Register a device for push notifications',
        description:
          '`platform`: `ios`, `android` or `web`; `token`: the FCM registration token (printable ASCII, ≤ 4,096). ' +
          'Idempotent. A token registered before by another user moves to the caller: a device pushes to the user ' +
          'who signed in on it last. Tokens FCM reports as unregistered are forgotten.',
        security,
        body: RegisterDeviceBody,
        response: { 200: Envelope(DeviceRegistered), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.registerDevice(request.user!, request.body) }),
  );

  api.post(
    '/notifications/unregister-device',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Stop push notifications to a device',
        description:
          'Forgets the token if it is the caller’s; the answer is the same whether it was (nothing is revealed about others’ tokens).',
        security,
        body: UnregisterDeviceBody,
        response: { 200: Envelope(DeviceUnregistered), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await notifications.unregisterDevice(request.user!, request.body.token) }),
  );
}
