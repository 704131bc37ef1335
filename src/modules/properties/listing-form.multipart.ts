import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { multipartAppError } from '../media/index.js';

export interface ListingForm {
  /** The parsed JSON of the `data` part, not yet validated. */
  data: unknown;
  /** The `images` file parts, in order. */
  images: Buffer[];
}

/**
 * Reads POST /properties/with-media: one `data` part holding the JSON body (a text field, or a part of type
 * application/json, docs/api.md 12) and up to the per-request file limit of `images` parts, within the limits
 * registered with @fastify/multipart (too many files or a file too large → 413). Any other part → 400.
 */
export async function readListingForm(request: FastifyRequest, maxFileBytes: number): Promise<ListingForm> {
  /** The `data` part: its text, or its value when @fastify/multipart parsed it (a text part of type application/json). */
  let json: { text: string } | { value: unknown } | undefined;
  const images: Buffer[] = [];
  try {
    for await (const part of request.parts()) {
      // busboy leaves `fieldname` undefined for a part without a name (its type says string): a malformed form.
      if (typeof part.fieldname !== 'string') throw new AppError('validation_failed', 'media_malformed_multipart');
      if (part.fieldname === 'images' && part.type === 'file') {
        images.push(await part.toBuffer());
        continue;
      }
      if (part.fieldname !== 'data') throw AppError.invalidField(part.fieldname, 'rule_unknown_field');
      if (json !== undefined) throw AppError.invalidField('data', 'media_rule_repeated');
      if (part.type === 'file') {
        if (part.mimetype !== 'application/json') throw AppError.invalidField('data', 'listing_data_part_invalid');
        json = { text: (await part.toBuffer()).toString('utf8') };
      } else {
        if (part.valueTruncated) throw new AppError('payload_too_large', 'media_too_many_parts');
        json = part.mimetype === 'application/json' ? { value: part.value } : { text: String(part.value) };
      }
    }
  } catch (error) {
    throw multipartAppError(error, maxFileBytes);
  }
  if (json === undefined) throw AppError.invalidField('data', 'rule_required');
  let data: unknown;
  try {
    data = 'text' in json ? JSON.parse(json.text) : json.value;
  } catch {
    throw AppError.invalidField('data', 'listing_data_part_invalid');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw AppError.invalidField('data', 'listing_data_part_invalid');
  return { data, images };
}
