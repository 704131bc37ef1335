import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../config.js';
import { lazyModule } from '../../lib/lazy-module.js';
import { IMMUTABLE_CACHE_CONTROL, type FileStorage } from './storage.js';

/** DeleteObjects takes at most 1000 keys per request. */
const DELETE_BATCH = 1000;

/** The AWS SDK takes about a second to load: loaded at the first upload or deletion, not at start. */
const s3Library = lazyModule(() => import('@aws-sdk/client-s3'));

/** An S3 bucket, or an S3-compatible service (MinIO, R2, …) at `endpoint`, whose objects are public under `publicUrl`. */
export class S3Storage implements FileStorage {
  private readonly client: () => Promise<S3Client>;

  constructor(private readonly config: S3Config) {
    const credentials =
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined; // the SDK's default chain: AWS_* variables, profiles, instance roles
    this.client = lazyModule(async () => {
      const { S3Client } = await s3Library();
      return new S3Client({
        region: config.region,
        ...(credentials ? { credentials } : {}),
        ...(config.endpoint
          ? {
              endpoint: config.endpoint,
              // Compatible services address buckets by path; few support virtual-hosted names.
              forcePathStyle: true,
              // Only the checksums S3 requires: many compatible services reject the SDK's newer defaults.
              requestChecksumCalculation: 'WHEN_REQUIRED' as const,
              responseChecksumValidation: 'WHEN_REQUIRED' as const,
            }
          : {}),
      });
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const [client, { PutObjectCommand }] = await Promise.all([this.client(), s3Library()]);
    await client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      }),
    );
  }

  async delete(keys: readonly string[]): Promise<void> {
    const [client, { DeleteObjectsCommand }] = await Promise.all([this.client(), s3Library()]);
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const result = await client.send(
        new DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      // DeleteObjects answers 200 even when some keys failed; a missing key is not among the failures.
      const failed = result.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(`S3 could not delete ${failed.length} object(s): ${failed.map((e) => `${e.Key} (${e.Code})`).join(', ')}`);
      }
    }
  }

  url(key: string): string {
    return `${this.config.publicUrl}/${key}`;
  }
}
