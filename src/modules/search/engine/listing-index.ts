import type { Taxonomy } from '../../../db/schema/index.js';
import { microdegreesOf } from '../../../db/dialect/ddl/geo-cell-triggers.js';
import type { IndexedAgent, IndexedListing, IndexedTerm } from './indexed-listing.js';
import { clearBit, PostingMap, setBit } from './postings.js';

/**
 * The search engine's index (docs/search-engine.md): the searchable listings (`publish`, `sold`) held in memory
 * as columns of typed arrays, one entry per slot, with posting lists of slots per term, word, title word,
 * agent, author, agency and grid cell. The database stays the source of truth; the index is derived from it
 * (engine/index-feed.service.ts keeps it equal).
 *
 * A slot is never rewritten: a changed listing gets a new slot at the end and its old one is marked dead. So
 * every posting list stays sorted by appending, nothing needs the listing's previous values to update the
 * lists, and a reader that holds a slot number sees one consistent listing. Dead slots are skipped by `alive`
 * and dropped by `compact` (the feed calls it when they weigh).
 */

/** `null` in the integer columns (bedrooms, bathrooms, garage, year built). */
export const NULL_INT = -2147483648;
/** The grid level of the cell postings and aggregates: cells of about 1.2 × 2.2 km in Miami (lib/geo-grid.ts). */
export const INDEX_CELL_LEVEL = 14;
const CELL_DIVISOR = 4 ** (20 - INDEX_CELL_LEVEL);
/** Status codes of the `status` column. */
export const PUBLISH = 0;
export const SOLD = 1;
const INITIAL_CAPACITY = 1_024;
/** Slots left free at the end of the columns by `trim`. */
const TRIMMED_HEADROOM = 4_096;

/** What a cell of the grid holds, per status: listings, sums of their microdegrees and of their ids. */
export interface CellAggregate {
  /** Per status (PUBLISH, SOLD): [listings, latitude µ° sum, longitude µ° sum, id sum] at 4·status. */
  sums: Float64Array;
}

type FloatColumn = 'price' | 'floorSize' | 'landSize' | 'publishedAt' | 'latitude' | 'longitude' | 'geoKey' | 'geoX' | 'geoY' | 'geoZ';
type IntColumn = 'ids' | 'bedrooms' | 'bathrooms' | 'garage' | 'yearBuilt' | 'author' | 'agency' | 'referenceHash';
type ByteColumn = 'alive' | 'status' | 'featured' | 'currency';

const FLOAT_COLUMNS: readonly FloatColumn[] = [
  'price',
  'floorSize',
  'landSize',
  'publishedAt',
  'latitude',
  'longitude',
  'geoKey',
  'geoX',
  'geoY',
  'geoZ',
];
const INT_COLUMNS: readonly IntColumn[] = ['ids', 'bedrooms', 'bathrooms', 'garage', 'yearBuilt', 'author', 'agency', 'referenceHash'];
const BYTE_COLUMNS: readonly ByteColumn[] = ['alive', 'status', 'featured', 'currency'];

export class ListingIndex {
  /** Slots used, dead ones included; new slots are numbered from here. */
  slotCount = 0;
  private liveCount = 0;
  private capacity = INITIAL_CAPACITY;

  // Columns, by slot. Floats are NaN for null; integers NULL_INT (author and agency: 0).
  ids = new Int32Array(INITIAL_CAPACITY);
  alive = new Uint8Array(INITIAL_CAPACITY);
  status = new Uint8Array(INITIAL_CAPACITY);
  featured = new Uint8Array(INITIAL_CAPACITY);
  /** Index into `currencies`. */
  currency = new Uint8Array(INITIAL_CAPACITY);
  price = new Float64Array(INITIAL_CAPACITY);
  floorSize = new Float64Array(INITIAL_CAPACITY);
  landSize = new Float64Array(INITIAL_CAPACITY);
  bedrooms = new Int32Array(INITIAL_CAPACITY);
  bathrooms = new Int32Array(INITIAL_CAPACITY);
  garage = new Int32Array(INITIAL_CAPACITY);
  yearBuilt = new Int32Array(INITIAL_CAPACITY);
  author = new Int32Array(INITIAL_CAPACITY);
  agency = new Int32Array(INITIAL_CAPACITY);
  /** FNV-1a of the reference: a listing whose reference equals a text has its hash (the caller confirms). */
  referenceHash = new Int32Array(INITIAL_CAPACITY);
  /** Milliseconds since the epoch. */
  publishedAt = new Float64Array(INITIAL_CAPACITY);
  latitude = new Float64Array(INITIAL_CAPACITY);
  longitude = new Float64Array(INITIAL_CAPACITY);
  geoKey = new Float64Array(INITIAL_CAPACITY);
  /** The unit vector of the point, as `listings.geo_x/y/z` store it (lib/geo-grid.ts). */
  geoX = new Float64Array(INITIAL_CAPACITY);
  geoY = new Float64Array(INITIAL_CAPACITY);
  geoZ = new Float64Array(INITIAL_CAPACITY);
  /**
   * Bit `slot` set while the slot is live (`liveBits`) and, of those, published (`publishedBits`): the states a
   * search reads as bitmaps, which an intersection of dense filters ANDs instead of testing each candidate.
   */
  liveBits = new Uint32Array(INITIAL_CAPACITY >>> 5);
  publishedBits = new Uint32Array(INITIAL_CAPACITY >>> 5);
  /** `sort_title`, by slot (strings cannot live in a typed array). */
  sortTitle: string[] = [];

  /** The slot of a listing id, −1 when not indexed. */
  private slotById = new Int32Array(INITIAL_CAPACITY).fill(-1);

  readonly currencies: string[] = [];
  private readonly currencyCodes = new Map<string, number>();

  readonly termPostings = new PostingMap<number>();
  readonly wordPostings = new PostingMap<string>();
  readonly titleWordPostings = new PostingMap<string>();
  readonly agentPostings = new PostingMap<number>();
  readonly authorPostings = new PostingMap<number>();
  readonly agencyPostings = new PostingMap<number>();
  /** Slots by grid cell (INDEX_CELL_LEVEL), with the cell's aggregates. */
  readonly cellPostings = new PostingMap<number>();
  readonly cellAggregates = new Map<number, CellAggregate>();

  readonly terms = new Map<number, IndexedTerm>();
  private readonly termsOfTaxonomy = new Map<Taxonomy, Set<number>>();
  readonly agencyOfAgent = new Map<number, number | null>();
  private readonly agentsOfAgency = new Map<number, Set<number>>();

  /** Listings indexed (live slots). */
  get size(): number {
    return this.liveCount;
  }

  get deadSlots(): number {
    return this.slotCount - this.liveCount;
  }

  /** Compactions so far: they renumber slots, so what was derived from slot numbers (the presorted orders) is made again. */
  compactions = 0;

  slotOf(listingId: number): number {
    return listingId < this.slotById.length ? this.slotById[listingId]! : -1;
  }

  /** Inserts the listing, or replaces the one of its id. */
  put(listing: IndexedListing): void {
    this.remove(listing.id);
    if (this.slotCount === this.capacity) this.grow(Math.ceil(this.capacity * 1.5));
    const slot = this.slotCount++;
    this.liveCount++;
    this.ids[slot] = listing.id;
    this.alive[slot] = 1;
    this.status[slot] = listing.status === 'sold' ? SOLD : PUBLISH;
    setBit(this.liveBits, slot);
    if (this.status[slot] === PUBLISH) setBit(this.publishedBits, slot);
    this.featured[slot] = listing.featured ? 1 : 0;
    this.currency[slot] = this.currencyCode(listing.currency);
    this.price[slot] = listing.price ?? NaN;
    this.floorSize[slot] = listing.size ?? NaN;
    this.landSize[slot] = listing.land_size ?? NaN;
    this.bedrooms[slot] = listing.bedrooms ?? NULL_INT;
    this.bathrooms[slot] = listing.bathrooms ?? NULL_INT;
    this.garage[slot] = listing.garage ?? NULL_INT;
    this.yearBuilt[slot] = listing.year_built ?? NULL_INT;
    this.author[slot] = listing.author_id ?? 0;
    this.agency[slot] = listing.agency_id ?? 0;
    this.referenceHash[slot] = hashText(listing.reference);
    this.publishedAt[slot] = Date.parse(listing.published_at);
    this.sortTitle[slot] = listing.sort_title;
    const located =
      listing.latitude !== null &&
      listing.longitude !== null &&
      listing.geo_key !== null &&
      listing.geo_x !== null &&
      listing.geo_y !== null &&
      listing.geo_z !== null;
    this.latitude[slot] = located ? listing.latitude! : NaN;
    this.longitude[slot] = located ? listing.longitude! : NaN;
    this.geoKey[slot] = located ? listing.geo_key! : NaN;
    this.geoX[slot] = located ? listing.geo_x! : NaN;
    this.geoY[slot] = located ? listing.geo_y! : NaN;
    this.geoZ[slot] = located ? listing.geo_z! : NaN;

    if (listing.id >= this.slotById.length) {
      const grown = new Int32Array(Math.max(listing.id + 1, Math.ceil(this.slotById.length * 1.5))).fill(-1);
      grown.set(this.slotById);
      this.slotById = grown;
    }
    this.slotById[listing.id] = slot;

    for (const termId of listing.term_ids) this.termPostings.add(termId, slot);
    for (const agentId of listing.agent_ids) this.agentPostings.add(agentId, slot);
    if (listing.author_id !== null) this.authorPostings.add(listing.author_id, slot);
    if (listing.agency_id !== null) this.agencyPostings.add(listing.agency_id, slot);
    // A word met twice in a listing is added once: a posting ignores its own last slot.
    for (const word of listing.search_text.split(' ')) if (word !== '') this.wordPostings.add(word, slot);
    for (const word of listing.title_tokens.split(' ')) if (word !== '') this.titleWordPostings.add(word, slot);
    if (located) {
      const cell = cellOfGeoKey(listing.geo_key!);
      this.cellPostings.add(cell, slot);
      this.addToCell(cell, slot, 1);
    }
  }

  /** Removes the listing of this id, if it is indexed. */
  remove(listingId: number): void {
    const slot = this.slotOf(listingId);
    if (slot < 0) return;
    this.slotById[listingId] = -1;
    this.alive[slot] = 0;
    clearBit(this.liveBits, slot);
    clearBit(this.publishedBits, slot);
    this.liveCount--;
    if (!Number.isNaN(this.geoKey[slot]!)) this.addToCell(cellOfGeoKey(this.geoKey[slot]!), slot, -1);
  }

  putTerm(term: IndexedTerm): void {
    this.removeTerm(term.id);
    this.terms.set(term.id, term);
    let ofTaxonomy = this.termsOfTaxonomy.get(term.taxonomy);
    if (!ofTaxonomy) this.termsOfTaxonomy.set(term.taxonomy, (ofTaxonomy = new Set()));
    ofTaxonomy.add(term.id);
  }

  removeTerm(termId: number): void {
    const known = this.terms.get(termId);
    if (!known) return;
    this.terms.delete(termId);
    this.termsOfTaxonomy.get(known.taxonomy)?.delete(termId);
  }

  /** The ids of a taxonomy's terms. */
  termsOf(taxonomy: Taxonomy): ReadonlySet<number> {
    return this.termsOfTaxonomy.get(taxonomy) ?? new Set();
  }

  putAgent(agent: IndexedAgent): void {
    this.removeAgent(agent.id);
    this.agencyOfAgent.set(agent.id, agent.agency_id);
    if (agent.agency_id !== null) {
      let agents = this.agentsOfAgency.get(agent.agency_id);
      if (!agents) this.agentsOfAgency.set(agent.agency_id, (agents = new Set()));
      agents.add(agent.id);
    }
  }

  removeAgent(agentId: number): void {
    if (!this.agencyOfAgent.has(agentId)) return;
    const agencyId = this.agencyOfAgent.get(agentId);
    this.agencyOfAgent.delete(agentId);
    if (agencyId !== null && agencyId !== undefined) this.agentsOfAgency.get(agencyId)?.delete(agentId);
  }

  /** The agents of an agency. */
  agentsOf(agencyId: number): ReadonlySet<number> {
    return this.agentsOfAgency.get(agencyId) ?? new Set();
  }

  /** The currency code of a column value. */
  currencyOf(code: string): number {
    return this.currencyCodes.get(code) ?? -1;
  }

  /** Bytes held, by part: the columns, the postings of terms, agents, authors, agencies and cells, and the keyword index. */
  memory(): { columns: number; postings: number; keyword: number; total: number } {
    let columns = this.slotById.byteLength;
    for (const name of [...FLOAT_COLUMNS, ...INT_COLUMNS, ...BYTE_COLUMNS]) columns += this[name].byteLength;
    columns += this.liveBits.byteLength + this.publishedBits.byteLength;
    // A string of n one-byte characters takes about 16 + n bytes; the array slot 8 more.
    for (let slot = 0; slot < this.slotCount; slot++) columns += 24 + (this.sortTitle[slot]?.length ?? 0);
    const postings =
      this.termPostings.bytes() +
      this.agentPostings.bytes() +
      this.authorPostings.bytes() +
      this.agencyPostings.bytes() +
      this.cellPostings.bytes() +
      this.cellAggregates.size * 120;
    const wordKey = (word: string) => 24 + word.length;
    const keyword = this.wordPostings.bytes(wordKey) + this.titleWordPostings.bytes(wordKey);
    return { columns, postings, keyword, total: columns + postings + keyword };
  }

  /**
   * Drops the dead slots and lays the live ones out in grid order: by index cell (the geo key's Z-order, which
   * keeps neighbouring cells mostly near), then by slot, listings without coordinates last. The listings of a
   * cell, and most of those of any region, then sit in consecutive slots, so a search of an area reads their
   * columns in sequence instead of at random across the whole index (at a million listings the columns take
   * 150 MB, far beyond the processor's caches). Posting lists are renumbered and sorted again. The feed
   * compacts each index it builds, and again once dead slots weigh.
   */
  compact(): void {
    const order = this.gridOrder();
    const next = order.length;
    const renumber = new Int32Array(this.slotCount).fill(-1);
    for (let to = 0; to < next; to++) renumber[order[to]!] = to;
    const permuted = <T extends Float64Array | Int32Array | Uint8Array>(column: T): T => {
      const out = new (column.constructor as new (length: number) => T)(this.capacity);
      for (let to = 0; to < next; to++) out[to] = column[order[to]!]!;
      return out;
    };
    for (const name of FLOAT_COLUMNS) this[name] = permuted(this[name]);
    for (const name of INT_COLUMNS) this[name] = permuted(this[name]);
    for (const name of BYTE_COLUMNS) this[name] = permuted(this[name]);
    const titles: string[] = new Array<string>(next);
    for (let to = 0; to < next; to++) titles[to] = this.sortTitle[order[to]!]!;
    this.sortTitle = titles;
    for (const postings of [
      this.termPostings,
      this.wordPostings,
      this.titleWordPostings,
      this.agentPostings,
      this.authorPostings,
      this.agencyPostings,
      this.cellPostings,
    ] as PostingMap<unknown>[])
      postings.renumber(renumber);
    for (const cell of this.cellAggregates.keys()) if (!this.cellPostings.get(cell)) this.cellAggregates.delete(cell);
    this.slotById.fill(-1);
    for (let slot = 0; slot < next; slot++) this.slotById[this.ids[slot]!] = slot;
    this.liveBits.fill(0);
    this.publishedBits.fill(0);
    for (let slot = 0; slot < next; slot++) {
      setBit(this.liveBits, slot);
      if (this.status[slot] === PUBLISH) setBit(this.publishedBits, slot);
    }
    this.slotCount = next;
    this.compactions++;
  }

  /**
   * The live slots by index cell, then slot; unlocated ones last. Sorted as numbers (cell × 2^k + slot, exact
   * in a double for up to 2^25 slots: cells take 28 bits), which is several times faster than a comparator.
   */
  private gridOrder(): Int32Array {
    const scale = 2 ** Math.ceil(Math.log2(this.slotCount + 1));
    const unlocated = 4 ** INDEX_CELL_LEVEL;
    if (unlocated * scale > Number.MAX_SAFE_INTEGER) throw new RangeError(`${this.slotCount} slots are too many to order`);
    const keys = new Float64Array(this.liveCount);
    let n = 0;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (this.alive[slot] !== 1) continue;
      const geoKey = this.geoKey[slot]!;
      keys[n++] = (Number.isNaN(geoKey) ? unlocated : cellOfGeoKey(geoKey)) * scale + slot;
    }
    keys.sort();
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = keys[i]! % scale;
    return order;
  }

  /**
   * Gives back the room the columns grew into beyond the slots used (up to half again, as they grow by 1.5):
   * a built index keeps room for a few thousand more listings only.
   */
  trim(): void {
    const capacity = this.slotCount + TRIMMED_HEADROOM;
    if (capacity < this.capacity) this.grow(capacity);
    let highestId = 0;
    for (let slot = 0; slot < this.slotCount; slot++)
      if (this.alive[slot] === 1 && this.ids[slot]! > highestId) highestId = this.ids[slot]!;
    if (highestId + 1 + TRIMMED_HEADROOM < this.slotById.length) this.slotById = grown(this.slotById, highestId + 1 + TRIMMED_HEADROOM);
  }

  private grow(capacity: number): void {
    for (const name of FLOAT_COLUMNS) this[name] = grown(this[name], capacity);
    for (const name of INT_COLUMNS) this[name] = grown(this[name], capacity);
    for (const name of BYTE_COLUMNS) this[name] = grown(this[name], capacity);
    this.liveBits = grown(this.liveBits, (capacity + 31) >>> 5);
    this.publishedBits = grown(this.publishedBits, (capacity + 31) >>> 5);
    this.capacity = capacity;
  }

  private currencyCode(currency: string): number {
    let code = this.currencyCodes.get(currency);
    if (code === undefined) {
      // ISO 4217 has fewer than 200 codes; the byte column holds 256.
      if (this.currencies.length === 256) throw new RangeError('more than 256 currencies');
      code = this.currencies.length;
      this.currencies.push(currency);
      this.currencyCodes.set(currency, code);
    }
    return code;
  }

  private addToCell(cell: number, slot: number, sign: 1 | -1): void {
    let aggregate = this.cellAggregates.get(cell);
    if (!aggregate) this.cellAggregates.set(cell, (aggregate = { sums: new Float64Array(8) }));
    const at = this.status[slot]! * 4;
    aggregate.sums[at] = aggregate.sums[at]! + sign;
    aggregate.sums[at + 1] = aggregate.sums[at + 1]! + sign * microdegreesOf(this.latitude[slot]!);
    aggregate.sums[at + 2] = aggregate.sums[at + 2]! + sign * microdegreesOf(this.longitude[slot]!);
    aggregate.sums[at + 3] = aggregate.sums[at + 3]! + sign * this.ids[slot]!;
  }
}

/** The INDEX_CELL_LEVEL cell of a `geo_key`. */
export function cellOfGeoKey(geoKey: number): number {
  return Math.floor(geoKey / CELL_DIVISOR);
}

/** 32-bit FNV-1a over the UTF-16 code units. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

function grown<T extends Float64Array | Int32Array | Uint8Array | Uint32Array>(column: T, capacity: number): T {
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column.length > capacity ? column.subarray(0, capacity) : column);
  return next;
}
