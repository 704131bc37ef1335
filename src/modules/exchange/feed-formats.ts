import { readCsvFeed, writeCsvFeed } from '../../adapters/feeds/csv.js';
import { readKyeroFeed, writeKyeroFeed } from '../../adapters/feeds/kyero.js';
import { readResoFeed, writeResoFeed } from '../../adapters/feeds/reso.js';
import type { FeedReader, FeedWriter } from '../../adapters/feeds/feed-records.js';

/**
 * The formats a feed is read from or written in (docs/data-exchange.md). `directoryIds`: whether a listing may
 * name an agent or agency by its id here, as a CSV export names one without an e-mail; in the other formats a
 * reference is the feed's own key (a RESO MemberKey), which may be digits that mean nothing here.
 */
export const FEED_FORMATS = {
  csv: { read: readCsvFeed, write: writeCsvFeed, mediaType: 'text/csv; charset=utf-8', extension: 'csv', directoryIds: true },
  reso: { read: readResoFeed, write: writeResoFeed, mediaType: 'application/json; charset=utf-8', extension: 'json', directoryIds: false },
  kyero: { read: readKyeroFeed, write: writeKyeroFeed, mediaType: 'application/xml; charset=utf-8', extension: 'xml', directoryIds: false },
} as const satisfies Record<string, { read?: FeedReader; write?: FeedWriter; mediaType: string; extension: string; directoryIds: boolean }>;

export type FeedFormat = keyof typeof FEED_FORMATS;
export const FEED_FORMAT_NAMES = Object.keys(FEED_FORMATS) as FeedFormat[];

export function isFeedFormat(name: string): name is FeedFormat {
  return Object.hasOwn(FEED_FORMATS, name);
}
