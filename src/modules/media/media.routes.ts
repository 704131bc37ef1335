import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { translate } from '../../i18n/index.js';
import {
  AvatarResult,
  ListMediaQuery,
  MEDIA_TEXT_LIMITS,
  MEDIA_UPLOADERS,
  MediaDeleted,
  MediaIdParams,
  MediaList,
  UpdateMediaBody,
  UploadAvatarForm,
  UploadMediaForm,
} from './media.schemas.js';
import { readMultipartForm } from './media.multipart.js';
import type { MediaService } from './media.service.js';

export interface MediaRouteOptions {
  media: MediaService;
  uploads: Config['uploads'];
}

const MediaRef = Type.Ref('Media');
const security = [{ bearer: [] }];

const UPLOAD_RULES =
  'The type is read from the bytes, never from the file name or the part’s Content-Type: anything but the ' +
  'accepted types (SVG, HTML, GIF, …) or a file that cannot be decoded → 415 `unsupported_media_type`. ' +
  'Images are re-encoded in their own format with EXIF orientation applied and all metadata (GPS ' +
  'included) removed; stored names are generated. Limits: the file `UPLOAD_MAX_FILE_BYTES` (default 10 MiB) ' +
  'and images `IMAGE_MAX_MEGAPIXELS` (default 40) → 413 `payload_too_large`; exactly one file part per ' +
  'request: a second file part → 413. A body that is not multipart/form-data → 415; the file part missing → ' +
  '400 `validation_failed` naming it; an unknown part → 400.';

export async function mediaRoutes(app: FastifyInstance, { media, uploads }: MediaRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/media/upload',
    {
      config: { auth: MEDIA_UPLOADERS },
      schema: {
        tags: ['media'],
        summary: 'Upload an image or a PDF document (listing creators)',
        description: `Multipart field \`file\`: JPEG, PNG, WebP or PDF, with optional text fields \`title\`, \`caption\`, \`alt\` (≤ 200 characters) and \`description\` (≤ 20,000). ${UPLOAD_RULES}`,
        security,
        body: { content: { 'multipart/form-data': { schema: UploadMediaForm } } },
        response: { 201: Envelope(MediaRef), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const form = await readMultipartForm(request, {
        fileField: 'file',
        textFields: MEDIA_TEXT_LIMITS,
        maxFileBytes: uploads.maxFileBytes,
      });
      return reply.code(201).send({ success: true, data: await media.upload(request.user!, form) });
    },
  );

  api.get(
    '/media',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['media'],
        summary: 'The caller’s own uploads, newest first',
        description: 'Moderators too see only their own uploads here. A page past the last one is an empty list.',
        security,
        querystring: ListMediaQuery,
        response: { 200: Envelope(MediaList), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ success: true, data: await media.listOwn(request.user!, request.query) }),
  );

  api.get(
    '/media/:id',
    {
      schema: {
        tags: ['media'],
        summary: 'One media item',
        description:
          'Visible to its owner and to administrators and managers; to anyone, signed in or not, when it is ' +
          'attached to a published or sold listing. Otherwise 404.',
        params: MediaIdParams,
        response: { 200: Envelope(MediaRef), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await media.get(request.user, request.params.id) }),
  );

  api.put(
    '/media/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['media'],
        summary: 'Update a media item’s text (owner, administrator, manager); omitted fields stay',
        description: 'A caller who can see the item (public listing) but may not change it → 403; one who cannot see it → 404.',
        security,
        params: MediaIdParams,
        body: UpdateMediaBody,
        response: { 200: Envelope(MediaRef), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await media.update(request.user!, request.params.id, request.body) }),
  );

  api.delete(
    '/media/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['media'],
        summary: 'Delete a media item and its files (owner, administrator, manager)',
        description: 'Detaches it from its listing; when it is someone’s avatar, that user has no avatar any more.',
        security,
        params: MediaIdParams,
        response: { 200: Envelope(MediaDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await media.delete(request.user!, request.params.id);
      return { success: true, data: { id: request.params.id, deleted: true as const }, message: translate(request.lang, 'media_deleted') };
    },
  );

  api.post(
    '/users/upload-avatar',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users', 'media'],
        summary: 'Set the caller’s avatar',
        description: `Multipart field \`avatar\`: JPEG, PNG or WebP (a PDF → 415). The previous avatar is deleted. \`avatar_url\` is the \`medium\` size (inside 600×600). ${UPLOAD_RULES}`,
        security,
        body: { content: { 'multipart/form-data': { schema: UploadAvatarForm } } },
        response: { 201: Envelope(AvatarResult), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const form = await readMultipartForm(request, { fileField: 'avatar', textFields: {}, maxFileBytes: uploads.maxFileBytes });
      return reply.code(201).send({ success: true, data: await media.uploadAvatar(request.user!, form.file) });
    },
  );
}
