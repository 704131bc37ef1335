import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type WxrRecord, readWxrSite } from '../../../../src/adapters/feeds/wxr/wxr-reader.js';

/** A path for the reader's spool of properties, in the system's temporary directory; the reader removes it. */
export function spoolFile(): string {
  return path.join(os.tmpdir(), `wxr-test-${randomUUID()}.jsonl`);
}

/** The text as a stream of small byte chunks, so that elements and multi-byte characters straddle chunks. */
export function streamOf(text: string, size = 7): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

export async function read(text: string, chunkSize?: number): Promise<WxrRecord[]> {
  const records: WxrRecord[] = [];
  for await (const record of readWxrSite(streamOf(text, chunkSize), spoolFile())) records.push(record);
  return records;
}

/** A WXR 1.2 document: the XML declaration, `<rss>` and `<channel>` on lines 1–3, then `body` from line 4. */
export function wxr(body: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">',
    '<channel>',
    body,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** One `<item>` on one line; `meta` values in order, a list for a repeated key. */
export function item(
  id: string,
  type: string,
  { status = 'publish', title = `Post ${id}`, creator = 'admin', meta = {}, extra = '' }: ItemOptions = {},
): string {
  const metas = Object.entries(meta).flatMap(([key, values]) =>
    (Array.isArray(values) ? values : [values]).map(
      (value) =>
        `<wp:postmeta><wp:meta_key><![CDATA[${key}]]></wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`,
    ),
  );
  return (
    `<item><title><![CDATA[${title}]]></title><dc:creator><![CDATA[${creator}]]></dc:creator><wp:post_id>${id}</wp:post_id>` +
    `<wp:status><![CDATA[${status}]]></wp:status><wp:post_type><![CDATA[${type}]]></wp:post_type>${extra}${metas.join('')}</item>`
  );
}

export interface ItemOptions {
  status?: string;
  title?: string;
  creator?: string;
  meta?: Record<string, string | string[]>;
  extra?: string;
}

/** The records of one kind, narrowed. */
export function only<K extends WxrRecord['kind']>(records: readonly WxrRecord[], kind: K): Extract<WxrRecord, { kind: K }>[] {
  return records.filter((record): record is Extract<WxrRecord, { kind: K }> => record.kind === kind);
}

/** A PHP-serialized string as PHP writes it: the length in UTF-8 bytes. */
export const phpString = (text: string) => `s:${Buffer.byteLength(text, 'utf8')}:"${text}";`;

/** Houzez's `additional_features` meta: PHP-serialized rows of a title and a value. */
export const featureRows = (rows: readonly [string, string][]) =>
  `a:${rows.length}:{${rows
    .map(
      ([title, value], n) =>
        `i:${n};a:2:{${phpString('fave_additional_feature_title')}${phpString(title)}${phpString('fave_additional_feature_value')}${phpString(value)}}`,
    )
    .join('')}}`;
