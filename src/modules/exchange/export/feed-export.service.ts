import type { Kysely } from 'kysely';
import type { FeedAgency, FeedAgent, FeedContent, FeedListing } from '../../../adapters/feeds/feed-records.js';
import type { FileStorage } from '../../../adapters/storage/storage.js';
import type { DB, Taxonomy } from '../../../db/schema/index.js';
import { groupBy } from '../../../lib/group-by.js';
import { ownKey } from '../own-keys.js';
import { findSiteKey } from '../site-identity.repository.js';
import * as repository from './feed-export.repository.js';

export type { ExportScope } from './feed-export.repository.js';

/** Listings (and agents, agencies) read per query: a page's links come in one query each. */
const PAGE = 500;

/** Taxonomy → the FeedListing field of its names. */
const TERM_FIELD = {
  property_type: 'types',
  property_status: 'statuses',
  property_label: 'labels',
  property_feature: 'features',
  property_country: 'country',
  property_state: 'state',
  property_city: 'city',
  property_area: 'area',
} as const satisfies Partial<Record<Taxonomy, keyof FeedListing>>;

/**
 * The database as feed records, streamed page by page (memory stays flat whatever the count). A listing's key is
 * the one its source gave it, else this site's own key for it (`realty:<site key>:<id>`, own-keys.ts), or its bare
 * id in a portal's feed; agents and agencies are named by e-mail, else by id.
 */
export class FeedExporter {
  /** The site's key, read once: it never changes (migration 0030). */
  private siteKey: Promise<string> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly storage: FileStorage,
  ) {}

  /** This site's key, which its exports' own keys carry. */
  ownSiteKey(): Promise<string> {
    this.siteKey ??= findSiteKey(this.db).catch((error: unknown) => {
      this.siteKey = undefined;
      throw error;
    });
    return this.siteKey;
  }

  content(scope: repository.ExportScope = {}): FeedContent {
    return { agencies: this.agencies(scope), agents: this.agents(scope), listings: this.listings(scope) };
  }

  async *listings(scope: repository.ExportScope): AsyncGenerator<FeedListing> {
    // A portal knows the listings by the keys it has always been given (their ids): its feed keeps them.
    const siteKey = scope.publicOnly ? undefined : await this.ownSiteKey();
    const keyOf = (id: number) => (siteKey === undefined ? String(id) : ownKey(siteKey, id));
    for await (const rows of pages((after, limit) => repository.listingPage(this.db, scope, after, limit))) {
      const ids = rows.map((row) => row.id);
      const [terms, agents, agencies, gallery] = await Promise.all([
        repository.termNames(this.db, ids),
        repository.listingAgents(this.db, ids, scope.publicOnly ?? false),
        repository.agencyEmails(this.db, [...new Set(rows.flatMap((row) => (row.agency_id === null ? [] : [row.agency_id])))]),
        repository.galleryKeys(this.db, ids),
      ]);
      const termsOf = groupBy(terms, (term) => term.listing_id);
      const agentsOf = groupBy(agents, (agent) => agent.listing_id);
      const galleryOf = groupBy(gallery, (image) => image.listing_id);
      const agencyById = new Map(agencies.map((agency) => [agency.id, reference(agency)]));
      for (const row of rows) {
        const listing = listingOf(row, keyOf);
        for (const term of termsOf.get(row.id) ?? []) {
          const field = TERM_FIELD[term.taxonomy as keyof typeof TERM_FIELD];
          if (field === undefined) continue;
          if (field === 'types' || field === 'statuses' || field === 'labels' || field === 'features') listing[field]!.push(term.name);
          // A listing has one place per level (the API's rule); the first link wins if data says otherwise.
          else listing[field] ??= term.name;
        }
        for (const field of ['country', 'state', 'city', 'area'] as const) listing[field] ??= null;
        listing.agents = (agentsOf.get(row.id) ?? []).map(reference);
        listing.agency = row.agency_id === null ? null : (agencyById.get(row.agency_id) ?? null);
        listing.images = (galleryOf.get(row.id) ?? []).map((image) => this.storage.url(image.storage_key));
        yield listing;
      }
    }
  }

  async *agencies(scope: repository.ExportScope): AsyncGenerator<FeedAgency> {
    for await (const rows of pages((after, limit) => repository.agencyPage(this.db, scope, after, limit))) {
      for (const row of rows) {
        yield { key: reference(row), name: row.name, email: row.email, phone: row.phone, website: row.website, address: row.address };
      }
    }
  }

  async *agents(scope: repository.ExportScope): AsyncGenerator<FeedAgent> {
    for await (const rows of pages((after, limit) => repository.agentPage(this.db, scope, after, limit))) {
      for (const row of rows) {
        yield {
          key: reference(row),
          name: row.name,
          email: row.email,
          phone: row.phone,
          mobile: row.mobile,
          position: row.position,
          agency: row.agency_id === null ? null : reference({ id: row.agency_id, email: row.agency_email ?? '' }),
        };
      }
    }
  }
}

/** Rows in id order, `PAGE` at a time: each page is read after the last id of the one before. */
async function* pages<Row extends { id: number }>(read: (after: number, limit: number) => Promise<Row[]>): AsyncGenerator<Row[]> {
  for (let after = 0; ;) {
    const rows = await read(after, PAGE);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** How feeds name an agent or agency: its e-mail, which another site can match; its id when it has none. */
function reference(record: { id: number; email: string }): string {
  return record.email !== '' ? record.email : String(record.id);
}

function listingOf(row: repository.FeedListingRow, keyOf: (id: number) => string): FeedListing {
  return {
    key: row.source_key ?? keyOf(row.id),
    title: row.title,
    status: row.status,
    description: row.description,
    reference: row.reference,
    price: row.price,
    second_price: row.second_price,
    currency: row.currency,
    price_prefix: row.price_prefix,
    price_postfix: row.price_postfix,
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    rooms: row.rooms,
    garage: row.garage,
    garage_size: row.garage_size,
    size: row.size,
    size_unit: row.size_unit,
    land_size: row.land_size,
    land_size_unit: row.land_size_unit,
    year_built: row.year_built,
    featured: row.featured === 1,
    types: [],
    statuses: [],
    labels: [],
    features: [],
    address: row.address,
    zipcode: row.zipcode,
    latitude: row.latitude,
    longitude: row.longitude,
    agent_display: row.agent_display,
    video_url: row.video_url,
    virtual_tour: row.virtual_tour,
    additional_features: JSON.parse(row.additional_features) as FeedListing['additional_features'],
    floor_plans: JSON.parse(row.floor_plans) as FeedListing['floor_plans'],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
