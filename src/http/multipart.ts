import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * Multipart parsing for the scope of the upload routes only: the plugin adds hooks to every request of
 * its scope, which the JSON routes should not pay for (they answer a multipart body with 415).
 */
export async function registerMultipart(scope: FastifyInstance, config: Config): Promise<void> {
  await scope.register(multipart, {
    // Parts beyond the files: the few text fields a form carries; a text field may be as long as a JSON body.
    limits: {
      fileSize: config.uploads.maxFileBytes,
      files: config.uploads.maxFiles,
      fields: 20,
      fieldSize: config.bodyLimitBytes,
      parts: config.uploads.maxFiles + 20,
      headerPairs: 100,
    },
  });
}
