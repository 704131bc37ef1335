import type { Taxonomy } from '../../../db/schema/index.js';
import { microdegreesOf } from '../../../db/dialect/ddl/geo-cell-triggers.js';
import { runAtOnce } from '../../../lib/event-loop-turns.js';
import { geoKey } from '../../../lib/geo-grid.js';
import { type DegreeColumn, degreesAt, type NumberColumn, storeDegrees, storeNumber, TextColumn } from './engine-columns.js';
import type { IndexedAgent, IndexedListing, IndexedTerm } from './indexed-listing.js';
import { clearBit, hasBit, PostingMap, setBit } from './postings.js';
import { hashRange, WordPostings } from './word-postings.js';

/**
 * The search engine's index (docs/search-engine.md): the searchable listings (`publish`, `sold`) held in memory
 * as columns of typed arrays, one entry per slot, with posting lists of slots per term, word, title word,
 * agent, author, agency and grid cell. The database stays the source of truth; the index is derived from it
 * (engine/index-feed.service.ts keeps it equal).
 *
 * A slot is never rewritten: a changed listing gets a new slot at the end and its old one is marked dead. So
 * every posting list stays sorted by appending, nothing needs the listing's previous values to update the
 * lists, and a reader that holds a slot number sees one consistent listing. Dead slots are skipped by
 * `liveBits` and dropped by a compaction (`compaction`, which the feed runs in turns when they weigh).
 *
 * Columns are as narrow as their values allow exactly (engine-columns.ts): numbers that may be null in
 * integers widened on demand, titles as UTF-8, yes/no facts as bitmaps, and no column for what another part
 * already holds (the state is `publishedBits`; authors and agencies are postings; the geo key is worked out
 * again from the coordinates, with the rare stored key that differs kept aside).
 */
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

type FloatColumn = 'publishedAt' | 'geoX' | 'geoY' | 'geoZ';
type IntColumn = 'ids' | 'referenceHash';
type NumberColumnName = 'price' | 'floorSize' | 'landSize' | 'bedrooms' | 'bathrooms' | 'garage' | 'yearBuilt';
type BitColumn = 'liveBits' | 'publishedBits' | 'featuredBits';
type ColumnName = FloatColumn | (typeof DEGREE_COLUMNS)[number] | IntColumn | NumberColumnName | BitColumn | 'currency';

const FLOAT_COLUMNS: readonly FloatColumn[] = ['publishedAt', 'geoX', 'geoY', 'geoZ'];
const DEGREE_COLUMNS = ['latitude', 'longitude'] as const;
const INT_COLUMNS: readonly IntColumn[] = ['ids', 'referenceHash'];
const NUMBER_COLUMNS: readonly NumberColumnName[] = ['price', 'floorSize', 'landSize', 'bedrooms', 'bathrooms', 'garage', 'yearBuilt'];
const BIT_COLUMNS: readonly BitColumn[] = ['liveBits', 'publishedBits', 'featuredBits'];

export class ListingIndex {
  /** Slots used, dead ones included; new slots are numbered from here. */
  slotCount = 0;
  private liveCount = 0;
  private capacity = INITIAL_CAPACITY;

  // Columns, by slot. Doubles are NaN for null; the number columns their type's null (engine-columns.ts).
  ids = new Int32Array(INITIAL_CAPACITY);
  /** Index into `currencies`. */
  currency = new Uint8Array(INITIAL_CAPACITY);
  price: NumberColumn = new Int32Array(INITIAL_CAPACITY);
  floorSize: NumberColumn = new Int32Array(INITIAL_CAPACITY);
  landSize: NumberColumn = new Int32Array(INITIAL_CAPACITY);
  bedrooms: NumberColumn = new Int16Array(INITIAL_CAPACITY);
  bathrooms: NumberColumn = new Int16Array(INITIAL_CAPACITY);
  garage: NumberColumn = new Int16Array(INITIAL_CAPACITY);
  yearBuilt: NumberColumn = new Int16Array(INITIAL_CAPACITY);
  /** FNV-1a of the reference: a listing whose reference equals a text has its hash (the caller confirms). */
  referenceHash = new Int32Array(INITIAL_CAPACITY);
  /** Milliseconds since the epoch. */
  publishedAt = new Float64Array(INITIAL_CAPACITY);
  /** Read through `latitudeOf`, `longitudeOf` or engine-columns.ts `degreesReader`. */
  latitude: DegreeColumn = new Int32Array(INITIAL_CAPACITY);
  longitude: DegreeColumn = new Int32Array(INITIAL_CAPACITY);
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
  featuredBits = new Uint32Array(INITIAL_CAPACITY >>> 5);
  /** `sort_title`, by slot. */
  titles = new TextColumn(INITIAL_CAPACITY);
  /**
   * The slots whose stored `geo_key` is not the one lib/geo-grid.ts works out from their coordinates (rows
   * written by something else than this code), with the stored key: the index answers from the stored one.
   */
  private geoKeysAside = new Map<number, number>();

  /** The slot of a listing id, −1 when not indexed. */
  private slotById = new Int32Array(INITIAL_CAPACITY).fill(-1);

  readonly currencies: string[] = [];
  private readonly currencyCodes = new Map<string, number>();

  // Not readonly: a compaction puts renumbered copies in their place (`compaction`).
  termPostings = new PostingMap<number>();
  wordPostings = new WordPostings();
  titleWordPostings = new WordPostings();
  agentPostings = new PostingMap<number>();
  authorPostings = new PostingMap<number>();
  agencyPostings = new PostingMap<number>();
  /** Slots by grid cell (INDEX_CELL_LEVEL), with the cell's aggregates. */
  cellPostings = new PostingMap<number>();
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

  /** Whether a slot holds a listing (false once it was removed or replaced). */
  isLive(slot: number): boolean {
    return hasBit(this.liveBits, slot);
  }

  /** PUBLISH or SOLD, of a live slot. */
  statusOf(slot: number): number {
    return hasBit(this.publishedBits, slot) ? PUBLISH : SOLD;
  }

  latitudeOf(slot: number): number {
    return degreesAt(this.latitude, slot);
  }

  longitudeOf(slot: number): number {
    return degreesAt(this.longitude, slot);
  }

  /** Whether the listing of a slot has coordinates (then also a geo key and unit vector). */
  isLocated(slot: number): boolean {
    return !Number.isNaN(this.latitudeOf(slot));
  }

  /** `listings.geo_key` of a located slot. */
  geoKeyOf(slot: number): number {
    const aside = this.geoKeysAside.size === 0 ? undefined : this.geoKeysAside.get(slot);
    return aside ?? geoKey(this.latitudeOf(slot), this.longitudeOf(slot));
  }

  /** Inserts the listing, or replaces the one of its id. */
  put(listing: IndexedListing): void {
    this.remove(listing.id);
    if (this.slotCount === this.capacity) this.grow(Math.ceil(this.capacity * 1.5));
    const slot = this.slotCount++;
    this.liveCount++;
    this.ids[slot] = listing.id;
    setBit(this.liveBits, slot);
    if (listing.status !== 'sold') setBit(this.publishedBits, slot);
    if (listing.featured) setBit(this.featuredBits, slot);
    this.currency[slot] = this.currencyCode(listing.currency);
    this.price = storeNumber(this.price, slot, listing.price);
    this.floorSize = storeNumber(this.floorSize, slot, listing.size);
    this.landSize = storeNumber(this.landSize, slot, listing.land_size);
    this.bedrooms = storeNumber(this.bedrooms, slot, listing.bedrooms);
    this.bathrooms = storeNumber(this.bathrooms, slot, listing.bathrooms);
    this.garage = storeNumber(this.garage, slot, listing.garage);
    this.yearBuilt = storeNumber(this.yearBuilt, slot, listing.year_built);
    this.referenceHash[slot] = hashText(listing.reference);
    this.publishedAt[slot] = Date.parse(listing.published_at);
    this.titles.append(listing.sort_title);
    const located =
      listing.latitude !== null &&
      listing.longitude !== null &&
      listing.geo_key !== null &&
      listing.geo_x !== null &&
      listing.geo_y !== null &&
      listing.geo_z !== null;
    this.latitude = storeDegrees(this.latitude, slot, located ? listing.latitude : null);
    this.longitude = storeDegrees(this.longitude, slot, located ? listing.longitude : null);
    if (located && geoKey(listing.latitude!, listing.longitude!) !== listing.geo_key) this.geoKeysAside.set(slot, listing.geo_key!);
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
    this.wordPostings.addWordsOf(listing.search_text, slot);
    this.titleWordPostings.addWordsOf(listing.title_tokens, slot);
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
    // Before the bits go: the cell's sums are kept per state.
    if (this.isLocated(slot)) this.addToCell(cellOfGeoKey(this.geoKeyOf(slot)), slot, -1);
    clearBit(this.liveBits, slot);
    clearBit(this.publishedBits, slot);
    clearBit(this.featuredBits, slot);
    this.liveCount--;
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
    let columns = this.slotById.byteLength + this.currency.byteLength + this.titles.byteLength();
    for (const name of [...FLOAT_COLUMNS, ...DEGREE_COLUMNS, ...INT_COLUMNS, ...NUMBER_COLUMNS, ...BIT_COLUMNS])
      columns += this[name].byteLength;
    // A map entry takes about 40 bytes.
    columns += this.geoKeysAside.size * 40;
    const postings =
      this.termPostings.bytes() +
      this.agentPostings.bytes() +
      this.authorPostings.bytes() +
      this.agencyPostings.bytes() +
      this.cellPostings.bytes() +
      this.cellAggregates.size * 120;
    const keyword = this.wordPostings.bytes() + this.titleWordPostings.bytes();
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
    runAtOnce(this.compaction())();
  }

  /**
   * The same compaction as work that may pause (lib/event-loop-turns.ts `runInTurns`) while the index serves
   * searches: the new columns and postings are made aside, and the step it returns puts them all in place at
   * once. Nothing may put or remove a listing until then (the feed's one run at a time, index-feed.service.ts).
   */
  *compaction(): Generator<void, () => void> {
    const order = this.gridOrder();
    yield;
    const next = order.length;
    const renumber = new Int32Array(this.slotCount).fill(-1);
    for (let to = 0; to < next; to++) renumber[order[to]!] = to;
    const permuted = <T extends Column>(column: T): T => {
      const out = new (column.constructor as new (length: number) => T)(this.capacity);
      for (let to = 0; to < next; to++) out[to] = column[order[to]!]!;
      return out;
    };
    const columns = new Map<ColumnName, Column>();
    for (const name of [...FLOAT_COLUMNS, ...DEGREE_COLUMNS, ...INT_COLUMNS, ...NUMBER_COLUMNS, 'currency'] as const) {
      columns.set(name, permuted(this[name]));
      yield;
    }
    for (const name of BIT_COLUMNS) {
      const bits = new Uint32Array(this[name].length);
      for (let to = 0; to < next; to++) if (hasBit(this[name], order[to]!)) setBit(bits, to);
      columns.set(name, bits);
      yield;
    }
    const titles = yield* this.titles.permuted(order, this.capacity);
    const aside = new Map<number, number>();
    for (const [slot, key] of this.geoKeysAside) if (renumber[slot]! >= 0) aside.set(renumber[slot]!, key);
    const postings = {
      termPostings: yield* this.termPostings.renumbered(renumber),
      wordPostings: yield* this.wordPostings.renumbered(renumber),
      titleWordPostings: yield* this.titleWordPostings.renumbered(renumber),
      agentPostings: yield* this.agentPostings.renumbered(renumber),
      authorPostings: yield* this.authorPostings.renumbered(renumber),
      agencyPostings: yield* this.agencyPostings.renumbered(renumber),
      cellPostings: yield* this.cellPostings.renumbered(renumber),
    };
    return () => {
      for (const [name, column] of columns) (this as unknown as Record<ColumnName, Column>)[name] = column;
      this.titles = titles;
      this.geoKeysAside = aside;
      Object.assign(this, postings);
      for (const cell of this.cellAggregates.keys()) if (!this.cellPostings.get(cell)) this.cellAggregates.delete(cell);
      this.slotById.fill(-1);
      for (let slot = 0; slot < next; slot++) this.slotById[this.ids[slot]!] = slot;
      this.slotCount = next;
      this.compactions++;
    };
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
      if (!this.isLive(slot)) continue;
      keys[n++] = (this.isLocated(slot) ? cellOfGeoKey(this.geoKeyOf(slot)) : unlocated) * scale + slot;
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
    for (let slot = 0; slot < this.slotCount; slot++) if (this.isLive(slot) && this.ids[slot]! > highestId) highestId = this.ids[slot]!;
    if (highestId + 1 + TRIMMED_HEADROOM < this.slotById.length) this.slotById = grown(this.slotById, highestId + 1 + TRIMMED_HEADROOM);
  }

  private grow(capacity: number): void {
    for (const name of FLOAT_COLUMNS) this[name] = grown(this[name], capacity);
    for (const name of DEGREE_COLUMNS) this[name] = grown(this[name], capacity);
    for (const name of INT_COLUMNS) this[name] = grown(this[name], capacity);
    for (const name of NUMBER_COLUMNS) this[name] = grown(this[name], capacity);
    this.currency = grown(this.currency, capacity);
    for (const name of BIT_COLUMNS) this[name] = grown(this[name], (capacity + 31) >>> 5);
    this.titles.resize(capacity);
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
    const at = this.statusOf(slot) * 4;
    aggregate.sums[at] = aggregate.sums[at]! + sign;
    aggregate.sums[at + 1] = aggregate.sums[at + 1]! + sign * microdegreesOf(this.latitudeOf(slot));
    aggregate.sums[at + 2] = aggregate.sums[at + 2]! + sign * microdegreesOf(this.longitudeOf(slot));
    aggregate.sums[at + 3] = aggregate.sums[at + 3]! + sign * this.ids[slot]!;
  }
}

/** The INDEX_CELL_LEVEL cell of a `geo_key`. */
export function cellOfGeoKey(geoKey: number): number {
  return Math.floor(geoKey / CELL_DIVISOR);
}

/** 32-bit FNV-1a over the UTF-16 code units. */
export function hashText(text: string): number {
  return hashRange(text, 0, text.length);
}

type Column = NumberColumn | Uint8Array | Uint32Array;

function grown<T extends Column>(column: T, capacity: number): T {
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column.length > capacity ? column.subarray(0, capacity) : column);
  return next;
}
