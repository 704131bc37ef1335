import { registerMultipart } from '../../http/multipart.js';
import type { AccountsServices } from '../accounts/index.js';
import type { AppModule, Platform } from '../module.js';
import { mediaRoutes } from './media.routes.js';
import { Media } from './media.schemas.js';
import { MediaService } from './media.service.js';

export interface MediaServices {
  media: MediaService;
}

/** Uploads (docs/api.md 9): images sniffed by content, resized, stored on disk or S3. */
export function createMediaModule(
  { config, database, storage, log }: Platform,
  { users }: Pick<AccountsServices, 'users'>,
): AppModule<MediaServices> {
  const media = new MediaService(database.db, storage, { maxImagePixels: config.uploads.maxImagePixels }, log, users);
  return {
    services: { media },
    schemas: [Media],
    routes: async (api) => {
      await api.register(async (uploads) => {
        await registerMultipart(uploads, config);
        await uploads.register(mediaRoutes, { media, uploads: config.uploads });
      });
    },
  };
}

export { type GalleryPicture, GalleryRows } from './gallery-rows.service.js';
export { IMAGE_TYPES, processUpload } from './image-processing.js';
export { IMAGE_SIZES, avatarUrl, sizeUrl } from './media-urls.js';
export type { StoredSizes } from './media-urls.js';
export { toMedia } from './media.mapper.js';
export { multipartAppError } from './media.multipart.js';
export type { MediaRecord } from './media.schemas.js';
export type { MediaService } from './media.service.js';
export { newStorageKeys } from './storage-keys.js';
