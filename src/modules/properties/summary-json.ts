import { hash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { PropertySummaryRecord } from './properties.schemas.js';

/** A summary in a list answer, with the distance a search with a centre gives it (docs/api.md 4.4). */
export interface SummaryEntry {
  summary: PropertySummaryRecord;
  distance?: number;
}

/** The summary schema by reference, as list answers name it: compiled once per route with the shared schemas. */
const SUMMARY: Record<string, unknown> = { $ref: 'PropertySummary' };
/** What the envelope of a list answer starts with when its `properties` come first (docs/api.md 0.2, 4.4). */
const LIST_START = '{"success":true,"data":{"properties":[';
const LIST_START_BYTES = Buffer.from(LIST_START);
const COMMA = Buffer.from(',');
const DISTANCE_KEY = Buffer.from(',"distance":');
const OBJECT_END = Buffer.from('}');

/** A list answer's bytes, and a fingerprint of them (a base64url SHA-1) that changes exactly when they do. */
export interface ListJson {
  body: Buffer;
  fingerprint: string;
}

/** A summary's JSON and the SHA-1 of it. */
interface SerializedSummary {
  bytes: Buffer;
  digest: Buffer;
}

/** Each summary's JSON, kept while the summary is: ListingRecords returns the same frozen object while it is valid. */
const serialized = new WeakMap<PropertySummaryRecord, SerializedSummary>();
const NO_DISTANCE = Buffer.from('-');
const ENTRY_END = Buffer.from(';');

/**
 * The JSON bytes of a list answer (`{ success, data: { properties, … } }`) whose summaries are serialized once
 * each rather than with every answer: a search page is ten to twenty summaries of 2–5 kB, and serializing and
 * encoding them was about two thirds of a search's time (docs/search-engine.md). `envelope` is the answer
 * without its properties; the bytes are those the route's serializer would write for the whole answer
 * (test/search/summary-json.test.ts holds them to it), `distance` included: the summary schema's last field,
 * absent from the cached summaries.
 *
 * The fingerprint (the answer's ETag) is hashed from the summaries' own digests, kept with their bytes, and the
 * rest of the answer: hashing a whole page of 45 kB took 21 µs, a tenth of a search's time at 100,000 listings.
 */
export function summaryListJson(
  reply: FastifyReply,
  envelope: { success: true; data: object },
  entries: readonly SummaryEntry[],
): ListJson {
  const skeleton = String(reply.serialize({ ...envelope, data: { properties: [], ...envelope.data } }));
  if (!skeleton.startsWith(`${LIST_START}]`))
    throw new Error(`a list answer that does not start with its properties: ${skeleton.slice(0, 60)}`);
  const parts: Buffer[] = [LIST_START_BYTES];
  // What the fingerprint is hashed from: the count of entries, then each entry's digest (fixed length) and its
  // distance or a dash, ended by a semicolon, then the rest of the answer. Different bytes, different text.
  const printed: Buffer[] = [Buffer.from(`${entries.length};`)];
  for (const [i, { summary, distance }] of entries.entries()) {
    if (i > 0) parts.push(COMMA);
    const { bytes, digest } = summaryJson(reply, summary);
    printed.push(digest);
    if (distance === undefined) {
      parts.push(bytes);
      printed.push(NO_DISTANCE, ENTRY_END);
    } else {
      const distanceBytes = Buffer.from(JSON.stringify(distance));
      parts.push(bytes.subarray(0, bytes.length - 1), DISTANCE_KEY, distanceBytes, OBJECT_END);
      printed.push(distanceBytes, ENTRY_END);
    }
  }
  const rest = Buffer.from(skeleton.slice(LIST_START.length));
  parts.push(rest);
  printed.push(rest);
  return { body: Buffer.concat(parts), fingerprint: hash('sha1', Buffer.concat(printed), 'base64url') };
}

function summaryJson(reply: FastifyReply, summary: PropertySummaryRecord): SerializedSummary {
  let known = serialized.get(summary);
  if (!known) {
    const bytes = Buffer.from(reply.serializeInput(summary, SUMMARY));
    known = { bytes, digest: hash('sha1', bytes, 'buffer') };
    // A summary built for one answer (not frozen: not the cached one) would only fill the map.
    if (Object.isFrozen(summary)) serialized.set(summary, known);
  }
  return known;
}
