import { type Static, Type } from 'typebox';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';

/** Roles that may upload media (the listing creators of docs/api.md 0.3); anyone signed in may upload an avatar. */
export const MEDIA_UPLOADERS = ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller'] as const;
/** Roles that act on every media item, whoever uploaded it. */
export const MEDIA_MODERATORS = ['administrator', 'manager'] as const;

/** The descriptive text of a media item and each field's length limit in characters (docs/api.md 0.6). */
export const MEDIA_TEXT_LIMITS = { title: 200, caption: 200, alt: 200, description: 20_000 } as const;
type MediaTextField = keyof typeof MEDIA_TEXT_LIMITS;
export type MediaTextInput = Partial<Record<MediaTextField, string>>;

const SizeRecord = Type.Object({
  url: Type.String({ format: 'uri' }),
  width: Type.Integer(),
  height: Type.Integer(),
});

export const Media = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ format: 'uri', description: 'The stored original (re-encoded for images)' }),
    mime_type: Type.Enum(['image/jpeg', 'image/png', 'image/webp', 'application/pdf']),
    width: Type.Union([Type.Integer(), Type.Null()], { description: 'Null for documents' }),
    height: Type.Union([Type.Integer(), Type.Null()], { description: 'Null for documents' }),
    size_bytes: Type.Integer({ description: 'Size of the stored original' }),
    title: Type.String(),
    caption: Type.String(),
    alt: Type.String(),
    description: Type.String(),
    sizes: Type.Object(
      {
        thumbnail: Type.Optional(SizeRecord),
        medium: Type.Optional(SizeRecord),
        large: Type.Optional(SizeRecord),
      },
      {
        description:
          'Images: `thumbnail` (150×150 crop), `medium` (inside 600×600), `large` (inside 1200×1200), never ' +
          'larger than the original. Documents: `{}`.',
      },
    ),
    owner_id: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Media', title: 'Media' },
);
export type MediaRecord = Static<typeof Media>;

const ID = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const MediaIdParams = Type.Object({ id: ID }, { additionalProperties: false });

export const ListMediaQuery = Type.Object(
  {
    ...PageQueryFields,
    property_id: Type.Optional({ ...ID, description: 'Only media attached to this listing' }),
  },
  { additionalProperties: false },
);
export type ListMediaInput = Static<typeof ListMediaQuery>;

const textProperties = {
  title: Type.String({ maxLength: MEDIA_TEXT_LIMITS.title, description: 'Plain text; tags removed, trimmed' }),
  caption: Type.String({ maxLength: MEDIA_TEXT_LIMITS.caption, description: 'Plain text; tags removed, trimmed' }),
  alt: Type.String({ maxLength: MEDIA_TEXT_LIMITS.alt, description: 'Plain text; tags removed, trimmed' }),
  description: Type.String({
    maxLength: MEDIA_TEXT_LIMITS.description,
    description: 'HTML reduced to p, br, strong, em, ul, ol, li, a[href=http/https]; trimmed',
  }),
};

export const UpdateMediaBody = Type.Object(
  {
    title: Type.Optional(textProperties.title),
    caption: Type.Optional(textProperties.caption),
    alt: Type.Optional(textProperties.alt),
    description: Type.Optional(textProperties.description),
  },
  { additionalProperties: false },
);

const binaryFile = (description: string) => Type.String({ format: 'binary', description });

/**
 * The multipart bodies, for the OpenAPI document. They are read by media.multipart.ts, not by the schema
 * validator: Fastify sees no parsed body for multipart requests, so the schema also admits `null`.
 */
export const UploadMediaForm = Type.Unsafe<unknown>({
  type: ['object', 'null'],
  properties: {
    file: binaryFile('JPEG, PNG, WebP or PDF; the type is read from the bytes'),
    ...textProperties,
  },
  required: ['file'],
  additionalProperties: false,
});

export const UploadAvatarForm = Type.Unsafe<unknown>({
  type: ['object', 'null'],
  properties: { avatar: binaryFile('JPEG, PNG or WebP; the type is read from the bytes') },
  required: ['avatar'],
  additionalProperties: false,
});

export const MediaList = Type.Object({ media: Type.Array(Type.Ref('Media')), pagination: Pagination });
export interface MediaListRecord {
  media: MediaRecord[];
  pagination: PaginationRecord;
}

export const AvatarResult = Type.Object({
  user_id: Type.Integer(),
  avatar_id: Type.Integer(),
  avatar_url: Type.String({ format: 'uri', description: 'The `medium` size of the avatar' }),
});
export type AvatarResultRecord = Static<typeof AvatarResult>;

export const MediaDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });
