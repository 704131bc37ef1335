/**
 * A posting list: the slots (engine/listing-index.ts) holding one term, word, agent or grid cell, ascending.
 * Slots are only ever appended with a number above every slot before (a changed listing gets a new slot), so a
 * list stays sorted by appending, and a lookup is a binary search. Slots of removed listings stay until the
 * index is compacted; readers skip them by the index's `liveBits`.
 *
 * A list that holds one slot in 32 or more (the words of template sentences, a city's listings) becomes a
 * bitmap instead: smaller than the list, and membership in O(1), which the filters and facets test for every
 * candidate. Readers go through `has`, `each` and `length`, whichever form the list has.
 */
export class Posting {
  /** The slots, while the posting is a list. */
  private list: Int32Array | undefined = new Int32Array(4);
  /** Bit `slot` set for each slot, once the posting is a bitmap. */
  private bits: Uint32Array | undefined;
  /** Slots held. */
  length = 0;
  /** The highest slot held, −1 when none. */
  private last = -1;
  /** The lowest slot held, −1 when none: with `last`, the words a bitmap may have bits in. */
  private first = -1;

  get isBitmap(): boolean {
    return this.bits !== undefined;
  }

  /** A posting of one slot. */
  static of(slot: number): Posting {
    const posting = new Posting();
    posting.add(slot);
    return posting;
  }

  /** Appends a slot above every slot held; the slot held last again is ignored. */
  add(slot: number): void {
    if (slot === this.last) return;
    this.length++;
    this.last = slot;
    if (this.length === 1) this.first = slot;
    if (this.bits) {
      this.setBit(slot);
      return;
    }
    const list = this.list!;
    if (this.length > list.length) {
      if (this.length >= BITMAP_FROM && this.length * 32 >= slot) {
        this.toBitmap(list.subarray(0, this.length - 1));
        this.setBit(slot);
        return;
      }
      const grown = new Int32Array(list.length * 2);
      grown.set(list);
      this.list = grown;
    }
    this.list![this.length - 1] = slot;
  }

  has(slot: number): boolean {
    const bits = this.bits;
    if (bits) return hasBit(bits, slot);
    const list = this.list!;
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = list[mid]!;
      if (value === slot) return true;
      if (value < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Calls `visit` with each slot, ascending. */
  each(visit: (slot: number) => void): void {
    const bits = this.bits;
    if (!bits) {
      const list = this.list!;
      for (let i = 0; i < this.length; i++) visit(list[i]!);
      return;
    }
    forEachSetBit(bits, (this.last >>> 5) + 1, visit, this.first >>> 5);
  }

  /** Writes its slots, ascending, into `out` from position `at`; returns the position after them. */
  copyInto(out: Int32Array, at: number): number {
    const bits = this.bits;
    if (!bits) {
      out.set(this.list!.subarray(0, this.length), at);
      return at + this.length;
    }
    let next = at;
    forEachSetBit(bits, (this.last >>> 5) + 1, (slot) => (out[next++] = slot), this.first >>> 5);
    return next;
  }

  /** Sets the bit of each of its slots in `marks` (a bitmap of slots at least as long as its highest slot). */
  markInto(marks: Uint32Array): void {
    const bits = this.bits;
    if (bits) {
      const [from, to] = this.wordSpan(marks.length);
      for (let word = from; word < to; word++) marks[word]! |= bits[word]!;
      return;
    }
    const list = this.list!;
    for (let i = 0; i < this.length; i++) setBit(marks, list[i]!);
  }

  /** How many of its slots are set in `marks` (a bitmap of slots): word by word when both are bitmaps. */
  countIn(marks: Uint32Array): number {
    let count = 0;
    const bits = this.bits;
    if (bits) {
      const [from, to] = this.wordSpan(marks.length);
      for (let word = from; word < to; word++) {
        const both = bits[word]! & marks[word]!;
        if (both !== 0) count += popCount(both);
      }
      return count;
    }
    const list = this.list!;
    for (let i = 0; i < this.length; i++) {
      const slot = list[i]!;
      count += (marks[slot >>> 5]! >>> (slot & 31)) & 1;
    }
    return count;
  }

  /** The bitmap's words, while the posting is a bitmap (bit `slot` set for each slot held). */
  get words(): Uint32Array | undefined {
    return this.bits;
  }

  /**
   * The words of a bitmap posting that may have bits set, from (inclusive) to (exclusive), within the first
   * `limit`: those from its lowest slot's to its highest slot's. After compaction the listings of a city or an
   * area lie in a narrow run of slots (grid order), so their words are a small part of the index's.
   */
  wordSpan(limit = Infinity): [from: number, to: number] {
    if (this.length === 0) return [0, 0];
    const to = Math.min((this.last >>> 5) + 1, limit);
    return [Math.min(this.first >>> 5, to), to];
  }

  /** What `countIn` costs, in steps: the bitmap's words it spans, or the list's slots. */
  get countCost(): number {
    if (!this.bits) return this.length;
    const [from, to] = this.wordSpan();
    return to - from;
  }

  /**
   * A new posting of the slots `renumber` maps to a new number (−1: dropped), renumbered, ascending again: a
   * bitmap is remade bit by bit, a list is mapped and sorted. Either way it takes the form `add` would have given
   * it. This posting is left as it is: searches read it until the compacted index takes its place.
   */
  renumbered(renumber: Int32Array): Posting {
    const next = new Posting();
    const bits = this.bits;
    let slots: Int32Array;
    if (bits) {
      // One pass over the set bits, with the loop of forEachSetBit inline: compaction renumbers every bitmap.
      const remade = new Uint32Array((renumber.length + 31) >>> 5);
      let count = 0;
      let highest = -1;
      let least = renumber.length;
      const words = (this.last >>> 5) + 1;
      for (let word = this.first >>> 5; word < words; word++) {
        let set = bits[word]!;
        while (set !== 0) {
          const lowest = set & -set;
          set ^= lowest;
          const to = renumber[word * 32 + 31 - Math.clz32(lowest)]!;
          if (to < 0) continue;
          remade[to >>> 5]! |= 1 << (to & 31);
          count++;
          if (to > highest) highest = to;
          if (to < least) least = to;
        }
      }
      if (count >= BITMAP_FROM && count * 32 >= highest) {
        next.list = undefined;
        next.bits = remade;
        next.length = count;
        next.last = highest;
        next.first = least;
        return next;
      }
      slots = slotsOfBits(remade, remade.length);
    } else {
      const list = this.list!;
      slots = new Int32Array(this.length);
      let n = 0;
      let ascending = true;
      for (let i = 0; i < this.length; i++) {
        const to = renumber[list[i]!]!;
        if (to < 0) continue;
        if (n > 0 && to < slots[n - 1]!) ascending = false;
        slots[n++] = to;
      }
      slots = slots.subarray(0, n);
      if (!ascending) slots.sort();
    }
    if (slots.length < BITMAP_FROM) {
      // A list either way: taken as it is.
      if (slots.length >= 4) next.list = slots;
      else next.list!.set(slots);
      next.length = slots.length;
      next.last = slots.length > 0 ? slots[slots.length - 1]! : -1;
      next.first = slots.length > 0 ? slots[0]! : -1;
      return next;
    }
    for (let i = 0; i < slots.length; i++) next.add(slots[i]!);
    return next;
  }

  bytes(): number {
    return (this.list?.byteLength ?? 0) + (this.bits?.byteLength ?? 0) + POSTING_OVERHEAD_BYTES;
  }

  private toBitmap(slots: Int32Array): void {
    this.bits = new Uint32Array(((this.last >>> 5) + 1) * 2);
    this.list = undefined;
    for (let i = 0; i < slots.length; i++) this.setBit(slots[i]!);
  }

  private setBit(slot: number): void {
    const word = slot >>> 5;
    let bits = this.bits!;
    if (word >= bits.length) {
      const grown = new Uint32Array(Math.max(word + 1, Math.ceil(bits.length * 1.5)));
      grown.set(bits);
      this.bits = bits = grown;
    }
    setBit(bits, slot);
  }
}

/**
 * Clears in words `from` to `to` of `marks` (a bitmap of slots) every slot not set in `bits`: one AND a word, so
 * that the slots two or more dense filters share cost their words rather than a test per candidate.
 */
export function intersectWords(marks: Uint32Array, bits: Uint32Array, from = 0, to = marks.length): void {
  const shared = Math.min(bits.length, to);
  for (let word = from; word < shared; word++) marks[word]! &= bits[word]!;
  if (shared < to) marks.fill(0, Math.max(from, shared), to);
}

/** Sets bit `slot` of a bitmap of slots. */
export function setBit(bits: Uint32Array, slot: number): void {
  bits[slot >>> 5]! |= 1 << (slot & 31);
}

/** The slots as a bitmap of an index of `slotCount` slots. */
export function bitmapOf(slots: Int32Array, slotCount: number): Uint32Array {
  const bits = new Uint32Array((slotCount + 31) >>> 5);
  for (let i = 0; i < slots.length; i++) setBit(bits, slots[i]!);
  return bits;
}

/** How many bits are set in words `from` to `to` (exclusive) of a bitmap. */
export function countBits(bits: Uint32Array, from: number, to: number): number {
  let count = 0;
  for (let word = from; word < to; word++) if (bits[word] !== 0) count += popCount(bits[word]!);
  return count;
}

/** The slots set in words `from` to `words` (exclusive) of a bitmap, ascending. */
export function slotsOfBits(bits: Uint32Array, words: number, from = 0): Int32Array {
  const slots = new Int32Array(countBits(bits, from, words));
  let n = 0;
  // forEachSetBit's loop inline: a call per slot cost about 3 of the 23 µs of a (f) search's match at 100,000.
  for (let word = from; word < words; word++) {
    let set = bits[word]!;
    while (set !== 0) {
      const lowest = set & -set;
      slots[n++] = word * 32 + 31 - Math.clz32(lowest);
      set ^= lowest;
    }
  }
  return slots;
}

/** Whether bit `slot` of a bitmap of slots is set (a slot past its end is not). */
export function hasBit(bits: Uint32Array, slot: number): boolean {
  return ((bits[slot >>> 5] ?? 0) & (1 << (slot & 31))) !== 0;
}

/** Clears bit `slot` of a bitmap of slots. */
export function clearBit(bits: Uint32Array, slot: number): void {
  bits[slot >>> 5]! &= ~(1 << (slot & 31));
}

/** Calls `visit` with each slot set in words `from` to `words` (exclusive) of the bitmap, ascending. */
export function forEachSetBit(bits: Uint32Array, words: number, visit: (slot: number) => void, from = 0): void {
  for (let word = from; word < words; word++) {
    let set = bits[word]!;
    while (set !== 0) {
      const lowest = set & -set;
      visit(word * 32 + 31 - Math.clz32(lowest));
      set ^= lowest;
    }
  }
}

/** The set bits of a 32-bit word. */
function popCount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Lists shorter than this stay lists (a bitmap pays off on long, dense lists only). */
const BITMAP_FROM = 256;
/** What a Posting and its map entry cost besides its slots (object, typed array header, map slot), roughly. */
const POSTING_OVERHEAD_BYTES = 160;

/**
 * Postings renumbered between two of `renumbered`'s yields: a bitmap of 260,000 slots took about 0.6 ms on the
 * 2-core machine, so a slice stays near 10 ms at that size.
 */
export const RENUMBERED_BETWEEN_YIELDS = 16;

/** What a map entry costs besides its posting (the entry, the key's boxing), roughly. */
const ENTRY_BYTES = 40;

/**
 * Postings by key (term id, word, agent id…), created on first use. A key of one slot keeps the slot number
 * itself instead of a Posting: most words of a full-text index occur once (references, street numbers).
 */
export class PostingMap<K> {
  private readonly lists = new Map<K, Posting | number>();

  /** Adds the slot under the key (once: adding the key's last slot again is ignored). */
  add(key: K, slot: number): void {
    const known = this.lists.get(key);
    if (known === undefined) this.lists.set(key, slot);
    else if (typeof known === 'number') {
      if (known === slot) return;
      const posting = Posting.of(known);
      posting.add(slot);
      this.lists.set(key, posting);
    } else known.add(slot);
  }

  get(key: K): Posting | undefined {
    const known = this.lists.get(key);
    return typeof known === 'number' ? Posting.of(known) : known;
  }

  /**
   * The postings renumbered (Posting.renumbered) into a new map, keys left without a slot dropped; this map is
   * left as it is. Yields now and then: the caller may hand the event loop a turn there (ListingIndex.compaction).
   */
  *renumbered(renumber: Int32Array): Generator<void, PostingMap<K>> {
    const next = new PostingMap<K>();
    let done = 0;
    for (const [key, known] of this.lists) {
      if (typeof known === 'number') {
        if (renumber[known]! >= 0) next.lists.set(key, renumber[known]!);
        continue;
      }
      const posting = known.renumbered(renumber);
      if (posting.length > 0) next.lists.set(key, posting);
      if (++done % RENUMBERED_BETWEEN_YIELDS === 0) yield;
    }
    return next;
  }

  bytes(): number {
    let total = 0;
    for (const known of this.lists.values()) total += ENTRY_BYTES + (typeof known === 'number' ? 0 : known.bytes());
    return total;
  }
}
