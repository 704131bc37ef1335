import { runAtOnce } from '../../../lib/event-loop-turns.js';
import { Posting, RENUMBERED_BETWEEN_YIELDS } from './postings.js';

/**
 * Posting lists by word (the keyword and title-word indexes of engine/listing-index.ts): an open-addressing
 * table keyed by the words' FNV-1a hashes. A listing's text is taken apart where it lies: each word is hashed
 * and compared in place, and only a word met for the first time becomes a string of its own. A build puts
 * about 53 words a listing, 50 million at a million listings; splitting each text into strings and looking
 * them up in a Map took twice as long, and the strings were garbage the collector then had to sweep.
 *
 * A word of one listing keeps the slot number itself instead of a Posting (most words of a full-text index
 * occur once: references, street numbers), as engine/postings.ts `PostingMap` does.
 */
export class WordPostings {
  /**
   * The table, two numbers an entry: a word's hash and its number + 1 (0: a free entry). The hash settles most
   * probes without reading anything else, and the words themselves sit in `words` and `lists` by number, in
   * the order first met: the template words that most texts share stay together in the processor's cache
   * whatever the table's size (at a million listings millions of words, mostly references and numbers).
   */
  private table = new Int32Array(2 * INITIAL_ENTRIES);
  private words: string[] = [];
  private lists: (Posting | number)[] = [];

  /** Adds `slot` under each space-separated word of `text` (a word twice in the text: once). */
  addWordsOf(text: string, slot: number): void {
    const length = text.length;
    let at = 0;
    while (at < length) {
      if (text.charCodeAt(at) === SPACE) {
        at++;
        continue;
      }
      const start = at;
      let hash = FNV_OFFSET;
      for (; at < length; at++) {
        const unit = text.charCodeAt(at);
        if (unit === SPACE) break;
        hash = Math.imul(hash ^ unit, FNV_PRIME);
      }
      this.addAt(this.numberOf(text, start, at, hash), slot);
    }
  }

  /** The posting of a word, undefined when no listing has it. */
  get(word: string): Posting | undefined {
    const number = this.table[this.find(word, 0, word.length, hashRange(word, 0, word.length)) + 1]! - 1;
    if (number < 0) return undefined;
    const known = this.lists[number]!;
    return typeof known === 'number' ? Posting.of(known) : known;
  }

  /**
   * Every posting renumbered (Posting.renumbered) into a new table, words left without a slot dropped; this one
   * is left as it is. Yields now and then: the caller may hand the event loop a turn there (ListingIndex.compaction).
   */
  *renumbered(renumber: Int32Array): Generator<void, WordPostings> {
    const next = new WordPostings();
    let done = 0;
    for (let number = 0; number < this.words.length; number++) {
      const known = this.lists[number]!;
      if (typeof known === 'number') {
        if (renumber[known]! < 0) continue;
        next.words.push(this.words[number]!);
        next.lists.push(renumber[known]!);
        continue;
      }
      const posting = known.renumbered(renumber);
      if (posting.length > 0) {
        next.words.push(this.words[number]!);
        next.lists.push(posting);
      }
      // Counted as PostingMap.renumbered counts: postings renumbered, not words passed (a singleton costs nothing).
      if (++done % RENUMBERED_BETWEEN_YIELDS === 0) yield;
    }
    yield* next.rehashing(this.table.length / 2);
    return next;
  }

  /** Bytes held, roughly: the table, each word (about 24 bytes and its characters, 16 in the arrays) and its posting. */
  bytes(): number {
    let total = this.table.byteLength;
    for (let number = 0; number < this.words.length; number++) {
      const known = this.lists[number]!;
      total += 40 + this.words[number]!.length + (typeof known === 'number' ? 0 : known.bytes());
    }
    return total;
  }

  /** The number of the word `text[start, end)`, given one if new. */
  private numberOf(text: string, start: number, end: number, hash: number): number {
    const at = this.find(text, start, end, hash);
    const known = this.table[at + 1]!;
    if (known !== 0) return known - 1;
    if ((this.words.length + 1) * 2 > this.table.length / 2) {
      this.rehash(this.table.length);
      return this.numberOf(text, start, end, hash);
    }
    this.words.push(text.slice(start, end));
    this.table[at] = hash;
    this.table[at + 1] = this.words.length;
    return this.words.length - 1;
  }

  /** Where in the table the word `text[start, end)` is, or the free entry where it would go. */
  private find(text: string, start: number, end: number, hash: number): number {
    const { table, words } = this;
    const mask = table.length / 2 - 1;
    const length = end - start;
    for (let entry = hash & mask; ; entry = (entry + 1) & mask) {
      const number = table[2 * entry + 1]!;
      if (number === 0) return 2 * entry;
      if (table[2 * entry] === hash) {
        const word = words[number - 1]!;
        if (word.length === length && sameUnits(word, text, start)) return 2 * entry;
      }
    }
  }

  private addAt(number: number, slot: number): void {
    const known = this.lists[number];
    if (known === undefined) this.lists[number] = slot;
    else if (typeof known === 'number') {
      if (known === slot) return;
      const posting = Posting.of(known);
      posting.add(slot);
      this.lists[number] = posting;
    } else known.add(slot);
  }

  /** A table of `entries` entries (a power of two) holding every word. */
  private rehash(entries: number): void {
    runAtOnce(this.rehashing(entries));
  }

  /** The table remade with room for `entries` words, yielding now and then (a million words take about 100 ms). */
  private *rehashing(entries: number): Generator<void, void> {
    this.table = new Int32Array(2 * entries);
    for (let number = 0; number < this.words.length; number++) {
      const word = this.words[number]!;
      const hash = hashRange(word, 0, word.length);
      const at = this.find(word, 0, word.length, hash);
      this.table[at] = hash;
      this.table[at + 1] = number + 1;
      if (number % REHASHED_BETWEEN_YIELDS === 0) yield;
    }
  }
}

/** 32-bit FNV-1a over the UTF-16 code units of `text[start, end)`. */
export function hashRange(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ text.charCodeAt(at), FNV_PRIME);
  return hash;
}

/** Whether `key` equals the units of `text` from `start` (the caller checked the length). */
function sameUnits(key: string, text: string, start: number): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

const SPACE = 32;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** A power of two, as every size of the table. */
const INITIAL_ENTRIES = 1_024;
/** Words put in a remade table between two of `rehashing`'s yields. */
const REHASHED_BETWEEN_YIELDS = 4_096;
