import { type Static, Type } from 'typebox';
import { DEVICE_PLATFORMS, NOTIFICATION_TYPES, ROLES } from '../../db/schema/index.js';
import { PageQueryFields, Pagination } from '../../lib/paging.js';

const INT4_MAX = 2_147_483_647;
/** An administrator's `data` object, serialized, is at most this long (it travels in every e-mail and push). */
export const MAX_DATA_BYTES = 4096;

export const NotificationTypeSchema = Type.Enum(NOTIFICATION_TYPES);

export const Notification = Type.Object(
  {
    id: Type.Integer(),
    type: NotificationTypeSchema,
    title: Type.String(),
    message: Type.String(),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'What it is about, e.g. `{property_id}`' }),
    is_read: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Notification', additionalProperties: false },
);
export type NotificationRecord = Static<typeof Notification>;
const NotificationRef = Type.Ref('Notification');

export const NotificationsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('all'), Type.Literal('read'), Type.Literal('unread')], { description: 'Default `all`' }),
    ),
    type: Type.Optional(NotificationTypeSchema),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);
export type NotificationsQueryInput = Static<typeof NotificationsQuery>;

export const UnreadCount = Type.Object({ unread_count: Type.Integer() });

export const NotificationList = Type.Object({
  notifications: Type.Array(NotificationRef),
  pagination: Pagination,
  unread_count: Type.Integer({ description: 'The caller’s unread notifications, whatever the filters' }),
});
export type NotificationListRecord = Static<typeof NotificationList>;

export const NotificationIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) });

export const MarkedRead = Type.Object({ id: Type.Integer(), is_read: Type.Literal(true), unread_count: Type.Integer() });
export const AllMarkedRead = Type.Object({ marked: Type.Integer({ description: 'How many were unread' }), unread_count: Type.Integer() });
export const NotificationDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true), unread_count: Type.Integer() });

export const CreateNotificationBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 5000 }),
    type: Type.Optional(NotificationTypeSchema),
    data: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 50 })),
    user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: INT4_MAX })),
    role: Type.Optional(Type.Enum(ROLES)),
    all: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
export type CreateNotificationInput = Static<typeof CreateNotificationBody>;

export const NotificationsCreated = Type.Object({
  created: Type.Integer({ description: 'Notifications created (to a user), or users addressed (a queued broadcast)' }),
  queued: Type.Boolean({ description: 'True for a role or everyone: the notifications are written in the background' }),
  broadcast_id: Type.Optional(Type.Integer()),
});
export type NotificationsCreatedRecord = Static<typeof NotificationsCreated>;

const Switches = Type.Object({ in_app: Type.Boolean(), email: Type.Boolean(), push: Type.Boolean() }, { additionalProperties: false });
const PartialSwitches = Type.Object(
  { in_app: Type.Optional(Type.Boolean()), email: Type.Optional(Type.Boolean()), push: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const Preferences = Type.Object({
  preferences: Type.Object(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, Switches])), { additionalProperties: false }),
});
export type PreferencesRecord = Static<typeof Preferences>;

export const UpdatePreferencesBody = Type.Object(
  {
    preferences: Type.Object(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, Type.Optional(PartialSwitches)])), {
      additionalProperties: false,
      minProperties: 1,
    }),
  },
  { additionalProperties: false },
);
export type UpdatePreferencesInput = Static<typeof UpdatePreferencesBody>;

/** FCM registration tokens are printable ASCII without spaces, well under 4 kB. */
const DeviceToken = Type.String({ minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7E]+$' });

export const RegisterDeviceBody = Type.Object(
  { platform: Type.Enum(DEVICE_PLATFORMS), token: DeviceToken },
  { additionalProperties: false },
);
export type RegisterDeviceInput = Static<typeof RegisterDeviceBody>;
export const UnregisterDeviceBody = Type.Object({ token: DeviceToken }, { additionalProperties: false });
export const DeviceRegistered = Type.Object({ platform: Type.String(), registered: Type.Literal(true) });
export const DeviceUnregistered = Type.Object({ unregistered: Type.Literal(true) });
