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

/** Each summary's JSON, kept while the summary is: ListingRecords returns the same frozen object while it is valid. */
const serialized = new WeakMap<PropertySummaryRecord, Buffer>();

/**
 * The JSON bytes of a list answer (`{ success, data: { properties, … } }`) whose summaries are serialized once
 * each rather than with every answer: a search page is ten to twenty summaries of 2–5 kB, and serializing and
 * encoding them was about two thirds of a search's time (docs/search-engine.md). `envelope` is the answer
 * without its properties; the bytes are those the route's serializer would write for the whole answer
 * (test/search/summary-json.test.ts holds them to it), `distance` included: the summary schema's last field,
 * absent from the cached summaries.
 */
export function summaryListJson(reply: FastifyReply, envelope: { success: true; data: object }, entries: readonly SummaryEntry[]): Buffer {
  const skeleton = String(reply.serialize({ ...envelope, data: { properties: [], ...envelope.data } }));
  if (!skeleton.startsWith(`${LIST_START}]`))
    throw new Error(`a list answer that does not start with its properties: ${skeleton.slice(0, 60)}`);
  const parts: Buffer[] = [LIST_START_BYTES];
  for (const [i, { summary, distance }] of entries.entries()) {
    if (i > 0) parts.push(COMMA);
    const bytes = summaryJson(reply, summary);
    if (distance === undefined) parts.push(bytes);
    else parts.push(bytes.subarray(0, bytes.length - 1), DISTANCE_KEY, Buffer.from(JSON.stringify(distance)), OBJECT_END);
  }
  parts.push(Buffer.from(skeleton.slice(LIST_START.length)));
  return Buffer.concat(parts);
}

function summaryJson(reply: FastifyReply, summary: PropertySummaryRecord): Buffer {
  let bytes = serialized.get(summary);
  if (!bytes) {
    bytes = Buffer.from(reply.serializeInput(summary, SUMMARY));
    // A summary built for one answer (not frozen: not the cached one) would only fill the map.
    if (Object.isFrozen(summary)) serialized.set(summary, bytes);
  }
  return bytes;
}
