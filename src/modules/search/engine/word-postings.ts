import { Posting } from './postings.js';

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
  private keys: (string | undefined)[] = new Array<string | undefined>(INITIAL_ENTRIES);
  private hashes = new Int32Array(INITIAL_ENTRIES);
  private lists: (Posting | number)[] = new Array<Posting | number>(INITIAL_ENTRIES);
  /** Words held. */
  private count = 0;

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
      this.addAt(this.entryOf(text, start, at, hash), slot);
    }
  }

  /** The posting of a word, undefined when no listing has it. */
  get(word: string): Posting | undefined {
    const entry = this.find(word, 0, word.length, hashRange(word, 0, word.length));
    if (this.keys[entry] === undefined) return undefined;
    const known = this.lists[entry]!;
    return typeof known === 'number' ? Posting.of(known) : known;
  }

  /** Renumbers every posting (ListingIndex.compact); words left without a slot are dropped. */
  renumber(renumber: Int32Array): void {
    const { keys, hashes, lists } = this;
    this.clear(keys.length);
    for (let entry = 0; entry < keys.length; entry++) {
      const key = keys[entry];
      if (key === undefined) continue;
      const known = lists[entry]!;
      let kept: Posting | number;
      if (typeof known === 'number') {
        if (renumber[known]! < 0) continue;
        kept = renumber[known]!;
      } else {
        known.renumber(renumber);
        if (known.length === 0) continue;
        kept = known;
      }
      const at = this.find(key, 0, key.length, hashes[entry]!);
      this.keys[at] = key;
      this.hashes[at] = hashes[entry]!;
      this.lists[at] = kept;
      this.count++;
    }
  }

  /** Bytes held, roughly: the table, each word (about 24 bytes and its characters) and its posting. */
  bytes(): number {
    let total = this.keys.length * TABLE_BYTES_PER_ENTRY;
    for (let entry = 0; entry < this.keys.length; entry++) {
      const key = this.keys[entry];
      if (key === undefined) continue;
      const known = this.lists[entry]!;
      total += 24 + key.length + (typeof known === 'number' ? 0 : known.bytes());
    }
    return total;
  }

  /** The entry of the word `text[start, end)`, made if new. */
  private entryOf(text: string, start: number, end: number, hash: number): number {
    const entry = this.find(text, start, end, hash);
    if (this.keys[entry] !== undefined) return entry;
    if ((this.count + 1) * 2 > this.keys.length) {
      this.grow();
      return this.entryOf(text, start, end, hash);
    }
    this.keys[entry] = text.slice(start, end);
    this.hashes[entry] = hash;
    this.count++;
    return entry;
  }

  /** The entry holding the word `text[start, end)`, or the free entry where it would go. */
  private find(text: string, start: number, end: number, hash: number): number {
    const mask = this.keys.length - 1;
    const length = end - start;
    for (let entry = hash & mask; ; entry = (entry + 1) & mask) {
      const key = this.keys[entry];
      if (key === undefined) return entry;
      if (this.hashes[entry] === hash && key.length === length && sameUnits(key, text, start)) return entry;
    }
  }

  private addAt(entry: number, slot: number): void {
    const known = this.lists[entry];
    if (known === undefined) this.lists[entry] = slot;
    else if (typeof known === 'number') {
      if (known === slot) return;
      const posting = Posting.of(known);
      posting.add(slot);
      this.lists[entry] = posting;
    } else known.add(slot);
  }

  private grow(): void {
    const { keys, hashes, lists } = this;
    this.clear(keys.length * 2);
    for (let entry = 0; entry < keys.length; entry++) {
      const key = keys[entry];
      if (key === undefined) continue;
      const at = this.find(key, 0, key.length, hashes[entry]!);
      this.keys[at] = key;
      this.hashes[at] = hashes[entry]!;
      this.lists[at] = lists[entry]!;
      this.count++;
    }
  }

  private clear(entries: number): void {
    this.keys = new Array<string | undefined>(entries);
    this.hashes = new Int32Array(entries);
    this.lists = new Array<Posting | number>(entries);
    this.count = 0;
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
/** The key, hash and list slots of an entry. */
const TABLE_BYTES_PER_ENTRY = 20;
