import type { Config } from '../../config.js';
import { DiskStorage } from './disk-storage.js';
import { S3Storage } from './s3-storage.js';
import type { FileStorage } from './storage.js';

export type { FileStorage };

/** The storage the configuration names: S3-compatible when S3_BUCKET is set, else the local upload directory. */
export function createStorage(config: Config): FileStorage {
  return config.s3 ? new S3Storage(config.s3) : new DiskStorage(config.uploads.dir, config.publicUrl);
}
