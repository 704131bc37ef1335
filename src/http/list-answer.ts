import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PRIVATE_REVALIDATE, PUBLIC_REVALIDATE, sendCacheable, sendCacheableBody } from './cache.js';

/**
 * How a list answer (`{ success, data: { <items>: [...], … } }`) is sent, decided by the service that made it:
 * - `private`: the caller's own (favorites marked), serialized whole and never shared;
 * - `kept`: an object the service returns again, the same one, while its data holds (sendCacheable keeps its
 *   bytes and ETag);
 * - `spliced`: new each time, but made of items the service keeps (frozen objects returned again while they
 *   hold): each item's JSON is serialized once and the answer's bytes are spliced from them.
 */
export type ListAnswer =
  | { visibility: 'private'; data: object }
  | { visibility: 'kept'; data: object }
  | { visibility: 'spliced'; list: SplicedList; rest: object };

/** The items of a spliced list answer, and the field and schema they are serialized under. */
interface SplicedList {
  /** The answer's first field, which holds the items. */
  field: string;
  /** The `$id` of the items' shared schema. */
  schema: string;
  items: readonly ListItem[];
}

/**
 * An item of a spliced list, and fields this answer appends to it: they must be the last fields of the item's
 * schema, in its order (a search's `distance`), so that the bytes are those the serializer would write.
 */
export interface ListItem {
  value: object;
  appended?: Readonly<Record<string, number>>;
}

/** Sends a list answer: private ones as they are, shared ones with an ETag that answers 304 when it matches. */
export function sendListAnswer(request: FastifyRequest, reply: FastifyReply, answer: ListAnswer): FastifyReply {
  switch (answer.visibility) {
    case 'private':
      return reply.header('cache-control', PRIVATE_REVALIDATE).send({ success: true, data: answer.data });
    case 'kept':
      return sendCacheable(request, reply, answer.data, PUBLIC_REVALIDATE, () => ({ success: true, data: answer.data }));
    case 'spliced':
      return sendCacheableBody(request, reply, splicedListJson(reply, answer.list, answer.rest), PUBLIC_REVALIDATE);
  }
}

/** A list answer's bytes, and a fingerprint of them (a base64url SHA-1) that changes exactly when they do. */
interface ListJson {
  body: Buffer;
  fingerprint: string;
}

/** An item's JSON and the SHA-1 of it. */
interface SerializedItem {
  bytes: Buffer;
  digest: Buffer;
}

/**
 * Per items' schema: the schema by reference, one object, since Fastify compiles a serializer per schema object,
 * and each kept item's JSON, kept while the item is (services return the same frozen object while it holds).
 */
const serializedBySchema = new Map<string, { ref: { $ref: string }; items: WeakMap<object, SerializedItem> }>();
const COMMA = Buffer.from(',');
const OBJECT_END = Buffer.from('}');
const NOTHING_APPENDED = Buffer.from('-');
const ENTRY_END = Buffer.from(';');

/**
 * The JSON bytes of a list answer whose items are serialized once each rather than with every answer: a search
 * page is ten to twenty summaries of 2–5 kB, and serializing and encoding them was about two thirds of a
 * search's time (docs/search-engine.md). `rest` is the answer's data without its items; the bytes are those the
 * route's serializer would write for the whole answer (test/search/list-answer.test.ts holds them to it).
 *
 * The fingerprint (the answer's ETag) is hashed from the items' own digests, kept with their bytes, and the rest
 * of the answer: hashing a whole page of 45 kB took 21 µs, a tenth of a search's time at 100,000 listings.
 */
function splicedListJson(reply: FastifyReply, list: SplicedList, rest: object): ListJson {
  const start = `{"success":true,"data":{${JSON.stringify(list.field)}:[`;
  const skeleton = String(reply.serialize({ success: true, data: { [list.field]: [], ...rest } }));
  if (!skeleton.startsWith(`${start}]`)) throw new Error(`a list answer that does not start with its items: ${skeleton.slice(0, 60)}`);
  const parts: Buffer[] = [Buffer.from(start)];
  // What the fingerprint is hashed from: the count of items, then each item's digest (fixed length) and its
  // appended fields or a dash, ended by a semicolon, then the rest of the answer. Different bytes, different text.
  const printed: Buffer[] = [Buffer.from(`${list.items.length};`)];
  for (const [i, { value, appended }] of list.items.entries()) {
    if (i > 0) parts.push(COMMA);
    const { bytes, digest } = itemJson(reply, list.schema, value);
    printed.push(digest);
    if (appended === undefined) {
      parts.push(bytes);
      printed.push(NOTHING_APPENDED, ENTRY_END);
    } else {
      const fields = Buffer.from(
        Object.entries(appended)
          .map(([key, field]) => `,${JSON.stringify(key)}:${JSON.stringify(field)}`)
          .join(''),
      );
      parts.push(bytes.subarray(0, bytes.length - 1), fields, OBJECT_END);
      printed.push(fields, ENTRY_END);
    }
  }
  const tail = Buffer.from(skeleton.slice(start.length));
  parts.push(tail);
  printed.push(tail);
  return { body: Buffer.concat(parts), fingerprint: hash('sha1', Buffer.concat(printed), 'base64url') };
}

function itemJson(reply: FastifyReply, schema: string, value: object): SerializedItem {
  let serialized = serializedBySchema.get(schema);
  if (!serialized) serializedBySchema.set(schema, (serialized = { ref: { $ref: schema }, items: new WeakMap() }));
  let known = serialized.items.get(value);
  if (!known) {
    const bytes = Buffer.from(reply.serializeInput(value as Record<string, unknown>, serialized.ref));
    known = { bytes, digest: hash('sha1', bytes, 'buffer') };
    // An item made for one answer (not frozen: not a kept one) would only fill the map.
    if (Object.isFrozen(value)) serialized.items.set(value, known);
  }
  return known;
}
