import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';

export interface MultipartFormSpec<F extends string> {
  /** The one file part the form carries. */
  fileField: string;
  /** Accepted text fields and each one's length limit in characters; any other part is refused. */
  textFields: Readonly<Record<F, number>>;
  /** The per-file limit that @fastify/multipart enforces (config.uploads.maxFileBytes), for the message. */
  maxFileBytes: number;
}

export interface MultipartForm<F extends string> {
  file: Buffer;
  fields: Partial<Record<F, string>>;
}

/**
 * Reads a multipart/form-data body with one file into memory, within the per-file limit registered with
 * @fastify/multipart. The rules, and the answers they give:
 * - not multipart → 415; a second file part (or more parts than the plugin's limits) → 413; the file over
 *   its limit → 413;
 * - the file missing → 400 naming the field; an unknown part, a repeated or over-long text field → 400;
 * - a malformed body → 400.
 */
export async function readMultipartForm<F extends string>(request: FastifyRequest, spec: MultipartFormSpec<F>): Promise<MultipartForm<F>> {
  const fields: Partial<Record<F, string>> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { files: 1 } })) {
      // busboy leaves `fieldname` undefined for a part without a name (its type says string): a malformed form.
      if (typeof part.fieldname !== 'string') throw new AppError('validation_failed', 'media_malformed_multipart');
      if (part.type === 'file') {
        if (part.fieldname !== spec.fileField) throw AppError.invalidField(part.fieldname, 'rule_unknown_field');
        file = await part.toBuffer();
        continue;
      }
      const name = part.fieldname;
      if (name === spec.fileField) throw AppError.invalidField(name, 'media_rule_file_expected');
      if (!Object.hasOwn(spec.textFields, name)) throw AppError.invalidField(name, 'rule_unknown_field');
      const field = name as F;
      if (fields[field] !== undefined) throw AppError.invalidField(name, 'media_rule_repeated');
      if (typeof part.value !== 'string') throw AppError.invalidField(name, 'rule_type', { type: 'string' });
      if (part.valueTruncated) throw new AppError('payload_too_large', 'media_too_many_parts');
      const limit = spec.textFields[field];
      if ([...part.value].length > limit) throw AppError.invalidField(name, 'rule_max_length', { limit });
      fields[field] = part.value;
    }
  } catch (error) {
    throw multipartAppError(error, spec.maxFileBytes);
  }
  if (file === undefined) throw AppError.invalidField(spec.fileField, 'rule_required');
  return { file, fields };
}

/** The plugin's errors (and busboy's, for malformed bodies) as the contract's codes. */
export function multipartAppError(error: unknown, maxFileBytes: number): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: unknown } | null)?.code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', 'media_not_multipart');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('payload_too_large', 'payload_too_large', [], { limit: maxFileBytes });
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('payload_too_large', 'media_too_many_parts');
    default:
      return new AppError('validation_failed', 'media_malformed_multipart');
  }
}
