import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { jsonValidator } from '../../../http/validation.js';
import { AppError } from '../../../lib/errors.js';
import { multipartAppError } from '../../media/index.js';
import type { ImportFiles } from './import-files.js';
import type { ReceivedUpload } from './import-runs.service.js';
import { type ImportRequest, UploadImportFields, type UploadImportFieldsInput } from './import-runs.schemas.js';

const TEXT_FIELDS = new Set(Object.keys(UploadImportFields.properties));
const checkFields = jsonValidator<UploadImportFieldsInput>(UploadImportFields);

/**
 * Reads POST /imports as multipart/form-data: one `file` part, streamed to disk under a random name as it arrives
 * (a 200 MB feed is never held in memory), and the text fields, before or after it. The answers it gives:
 * - the file over IMPORT_MAX_FILE_BYTES → 413, and the part written so far is removed;
 * - a second file part, too many parts → 413; a malformed body → 400;
 * - the file missing, an unknown or repeated part, a field breaking its rule → 400 naming it.
 * Whatever fails after the file is on disk removes it: a refused upload leaves nothing behind.
 */
export async function readImportUpload(
  request: FastifyRequest,
  files: ImportFiles,
  maxFileBytes: number,
): Promise<{ upload: ReceivedUpload; request: ImportRequest }> {
  const fields: Record<string, string> = {};
  let upload: ReceivedUpload | undefined;
  try {
    try {
      for await (const part of request.parts({ limits: { fileSize: maxFileBytes, files: 1 } })) {
        // busboy leaves `fieldname` undefined for a part without a name (its type says string): a malformed form.
        if (typeof part.fieldname !== 'string') throw new AppError('validation_failed', 'media_malformed_multipart');
        const name = part.fieldname;
        if (part.type === 'file') {
          if (name !== 'file') throw AppError.invalidField(name, 'rule_unknown_field');
          // Recorded before the first byte is written, so that any failure below removes the file.
          upload = { fileKey: files.newKey('upload'), fileName: part.filename ?? '' };
          await pipeline(part.file, await files.create(upload.fileKey));
          // busboy stops a file at the limit and ends it short: truncated, not failed.
          if (part.file.truncated) throw new AppError('payload_too_large', 'payload_too_large', [], { limit: maxFileBytes });
          continue;
        }
        if (name === 'file') throw AppError.invalidField(name, 'media_rule_file_expected');
        if (!TEXT_FIELDS.has(name)) throw AppError.invalidField(name, 'rule_unknown_field');
        if (Object.hasOwn(fields, name)) throw AppError.invalidField(name, 'media_rule_repeated');
        if (part.valueTruncated) throw new AppError('payload_too_large', 'media_too_many_parts');
        // A part typed application/json arrives parsed: it is not the text these fields are, and fails their rules.
        fields[name] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      }
    } catch (error) {
      // The disk's own failures (full, not writable) are the server's, not a malformed form.
      if ((error as NodeJS.ErrnoException | null)?.syscall !== undefined) throw error;
      throw multipartAppError(error, maxFileBytes);
    }
    if (upload === undefined) throw AppError.invalidField('file', 'rule_required');
    const checked = checkFields(fields);
    return {
      upload,
      request: {
        format: checked.format,
        source: checked.source,
        dryRun: checked.dry_run === 'true',
        strict: checked.strict === 'true',
        withdrawMissing: checked.withdraw_missing === 'true',
        ownerEmail: checked.owner_email,
      },
    };
  } catch (error) {
    if (upload !== undefined) await files.remove(upload.fileKey);
    throw error;
  }
}
