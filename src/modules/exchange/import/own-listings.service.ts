import { Readable } from 'node:stream';
import type { FeedListing } from '../../../adapters/feeds/feed-records.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import type { AccountsService } from '../../accounts/index.js';
import { isModerator, isOwner, type PropertiesService } from '../../properties/index.js';
import type { FeedExporter } from '../export/feed-export.service.js';
import { FEED_FORMATS, type FeedFormat } from '../feed-formats.js';
import { ownListingId } from '../own-keys.js';

/** A listing of this site that a record's own key names, as this site would write it in the record's format today. */
export interface OwnListing {
  listingId: number;
  current: FeedListing;
}

/** Fields a feed stamps for information (never imported), and the old address (a redirect, not a field): never a change. */
const NOT_COMPARED = new Set(['key', 'created_at', 'updated_at', 'url']);

/**
 * Finds the listings made here that a feed read back names by their own keys (`realty:<site key>:<id>`, own-keys.ts;
 * docs/data-exchange.md, "Own exports read back in place"), whatever the import's source name.
 *
 * A listing made here has no source row, so no fingerprint of the record it was last imported as: whether a record
 * changed is told by writing the listing as it is now in the record's own format and reading that back with the same
 * reader, then comparing field by field. A format that carries less (Kyero's whole prices, its made-up titles) reads
 * back the same on both sides, so an untouched row is unchanged and only the fields edited in the file are written.
 */
export class OwnListings {
  constructor(
    private readonly exporter: FeedExporter,
    private readonly properties: PropertiesService,
    private readonly users: AccountsService,
    private readonly options: { format?: FeedFormat; actorId: number; ownerId?: number },
  ) {}

  /** The own listings the keys name, by key; a key naming none (deleted, made by an import, another site's) is left out. */
  async find(keys: readonly string[]): Promise<Map<string, OwnListing>> {
    const { format } = this.options;
    if (format === undefined) return new Map();
    const siteKey = await this.exporter.ownSiteKey();
    const ids = [...new Set(keys.flatMap((key) => ownListingId(siteKey, key) ?? []))];
    if (ids.length === 0) return new Map();
    const { read, write } = FEED_FORMATS[format];
    const text = write({ agencies: nothing(), agents: nothing(), listings: this.exporter.listings({ ids: await this.changeable(ids) }) });
    const found = new Map<string, OwnListing>();
    for await (const record of read(Readable.from(bytesOf(text)))) {
      if (record.kind !== 'listing') continue;
      const listingId = ownListingId(siteKey, record.listing.key);
      if (listingId !== undefined) found.set(record.listing.key, { listingId, current: record.listing });
    }
    return found;
  }

  /**
   * Of `ids`, those the import may change in place: all when it files listings for the administrator it acts as or
   * for a moderator; else those its owner may change through the API (isOwner), so that a forged key of a listing
   * someone else owns is read as any unknown key (a new listing), never as leave to overwrite theirs.
   */
  private async changeable(ids: readonly number[]): Promise<number[]> {
    const { ownerId, actorId } = this.options;
    if (ownerId === undefined || ownerId === actorId) return [...ids];
    const account = await this.users.findAccount(ownerId);
    if (!account) return [];
    const owner: AuthUser = { id: account.id, role: account.role, sessionId: 'feed-import', tokenExpiresAt: new Date(8.64e15) };
    if (isModerator(owner)) return [...ids];
    const allowed: number[] = [];
    for (const id of ids) {
      const access = await this.properties.findAccess(id);
      if (access && isOwner(owner, access)) allowed.push(id);
    }
    return allowed;
  }
}

/**
 * The fields of `listing` whose values differ from `current`'s, with its key: what an update of an own listing writes.
 * Undefined when nothing differs.
 */
export function changedFields(listing: FeedListing, current: FeedListing): FeedListing | undefined {
  const changed: Record<string, unknown> = { key: listing.key };
  let any = false;
  for (const [field, value] of Object.entries(listing)) {
    if (value === undefined || NOT_COMPARED.has(field)) continue;
    if (canonical(value) === canonical((current as unknown as Record<string, unknown>)[field])) continue;
    changed[field] = value;
    any = true;
  }
  return any ? (changed as unknown as FeedListing) : undefined;
}

/** JSON with object keys sorted: two readings of one value compare equal whatever the order of their keys. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) =>
      item !== null && typeof item === 'object' && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : item,
    ) ?? 'undefined'
  );
}

async function* nothing<T>(): AsyncGenerator<T> {}

async function* bytesOf(text: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const piece of text) yield Buffer.from(piece, 'utf8');
}
