import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAtOnce } from '../../src/lib/event-loop-turns.js';
import { forEachSetBit, intersectWords, Posting, PostingMap } from '../../src/modules/search/engine/postings.js';
import { WordPostings } from '../../src/modules/search/engine/word-postings.js';

/**
 * Posting lists (engine/postings.ts) against a plain model: ascending slots appended, a list that turns into a
 * bitmap once dense (from 256 slots, one slot in 32 or more), renumbering as compaction does it.
 */

/** Ascending slots: gaps small enough that long runs turn into bitmaps, sometimes large enough that they stay lists. */
const ascendingSlots = fc
  .array(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 200 })), { maxLength: 2_000 })
  .map((gaps) => {
    let slot = -1;
    return gaps.map((gap) => (slot += gap));
  });

function postingOf(slots: readonly number[]): Posting {
  const posting = new Posting();
  for (const slot of slots) posting.add(slot);
  return posting;
}

function slotsOf(posting: Posting): number[] {
  const slots: number[] = [];
  posting.each((slot) => slots.push(slot));
  return slots;
}

describe('Posting', () => {
  it('holds what was added, in order, as a list or as a bitmap', () => {
    fc.assert(
      fc.property(ascendingSlots, fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 50 }), (slots, probes) => {
        const posting = postingOf(slots);
        expect(posting.length).toBe(slots.length);
        expect(slotsOf(posting)).toEqual(slots);
        const held = new Set(slots);
        for (const probe of [...probes, ...slots.slice(0, 50)]) expect(posting.has(probe)).toBe(held.has(probe));
      }),
    );
  });

  it('becomes a bitmap when dense, and stays a list when sparse', () => {
    expect(postingOf(Array.from({ length: 1_000 }, (_, i) => i * 2)).isBitmap).toBe(true);
    expect(postingOf(Array.from({ length: 1_000 }, (_, i) => i * 100)).isBitmap).toBe(false);
    expect(postingOf(Array.from({ length: 100 }, (_, i) => i)).isBitmap).toBe(false);
  });

  it('ignores the slot it holds last when added again (a word twice in one listing)', () => {
    const posting = postingOf([3, 3, 7, 7, 7]);
    expect(slotsOf(posting)).toEqual([3, 7]);
    expect(posting.length).toBe(2);
  });

  it('counts its slots among marked ones', () => {
    fc.assert(
      fc.property(ascendingSlots, fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 3_000 }), (slots, marked) => {
        const marks = new Uint32Array(20_000 / 32 + 1);
        for (const slot of marked) marks[slot >>> 5]! |= 1 << (slot & 31);
        const wanted = new Set(marked);
        expect(postingOf(slots).countIn(marks)).toBe(slots.filter((slot) => wanted.has(slot)).length);
      }),
    );
  });

  it('intersects marked slots with a bitmap posting, and lists the marks left in order', () => {
    const dense = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 300, maxLength: 2_000 }).map((gaps) => {
      let slot = -1;
      return gaps.map((gap) => (slot += gap));
    });
    fc.assert(
      fc.property(dense, fc.array(fc.integer({ min: 0, max: 9_000 }), { maxLength: 3_000 }), (slots, marked) => {
        const posting = postingOf(slots);
        expect(posting.isBitmap).toBe(true);
        const words = Math.ceil(9_001 / 32);
        const marks = new Uint32Array(words);
        for (const slot of marked) marks[slot >>> 5]! |= 1 << (slot & 31);
        intersectWords(marks, posting.words!);
        const left: number[] = [];
        forEachSetBit(marks, words, (slot) => left.push(slot));
        const wanted = new Set(marked);
        expect(left).toEqual(slots.filter((slot) => wanted.has(slot)));
      }),
    );
  });

  it('spans the words of its slots (a city’s slots after compaction: a run far from slot 0), before and after renumbering', () => {
    const shifted = fc
      .tuple(fc.integer({ min: 0, max: 50_000 }), ascendingSlots)
      .map(([shift, slots]) => slots.map((slot) => slot + shift));
    const clearOutside = (posting: Posting) => {
      const words = posting.words;
      if (!words) return;
      const [from, to] = posting.wordSpan();
      expect(words.subarray(0, from).every((word) => word === 0)).toBe(true);
      expect(words.subarray(to).every((word) => word === 0)).toBe(true);
    };
    fc.assert(
      fc.property(shifted, fc.integer({ min: 2, max: 5 }), (slots, every) => {
        const posting = postingOf(slots);
        const [from, to] = posting.wordSpan();
        if (slots.length === 0) expect(to - from).toBe(0);
        else expect([from, to]).toEqual([slots[0]! >>> 5, (slots.at(-1)! >>> 5) + 1]);
        clearOutside(posting);
        // Marks set outside the span are neither counted nor changed by its words.
        const marks = new Uint32Array(((slots.at(-1) ?? 0) >>> 5) + 8).fill(0xffffffff);
        expect(posting.countIn(marks)).toBe(slots.length);
        const top = (slots.at(-1) ?? 0) + 1;
        const renumber = new Int32Array(top);
        let next = 0;
        for (let slot = 0; slot < top; slot++) renumber[slot] = slot % every === 0 ? -1 : next++;
        const renumbered = posting.renumbered(renumber);
        const kept = slots.filter((slot) => slot % every !== 0).map((slot) => renumber[slot]!);
        if (kept.length > 0 && renumbered.isBitmap) expect(renumbered.wordSpan()).toEqual([kept[0]! >>> 5, (kept.at(-1)! >>> 5) + 1]);
        clearOutside(renumbered);
      }),
    );
  });

  it('intersects only the words asked, clearing those of them past the bitmap', () => {
    const marks = new Uint32Array(8).fill(0xffffffff);
    intersectWords(marks, Uint32Array.of(1, 2, 4, 8, 16), 2, 7);
    expect([...marks]).toEqual([0xffffffff, 0xffffffff, 4, 8, 16, 0, 0, 0xffffffff]);
  });

  it('renumbers as compaction does: dropped slots go, the rest keep their order', () => {
    fc.assert(
      fc.property(ascendingSlots, fc.integer({ min: 2, max: 5 }), (slots, every) => {
        const top = (slots.at(-1) ?? 0) + 1;
        // Every `every`-th slot is dropped; the others are numbered in order.
        const renumber = new Int32Array(top);
        let next = 0;
        for (let slot = 0; slot < top; slot++) renumber[slot] = slot % every === 0 ? -1 : next++;
        const posting = postingOf(slots).renumbered(renumber);
        const expected = slots.filter((slot) => slot % every !== 0).map((slot) => renumber[slot]!);
        expect(slotsOf(posting)).toEqual(expected);
        for (const slot of expected.slice(0, 50)) expect(posting.has(slot)).toBe(true);
      }),
    );
  });

  it('renumbers in any new order (compaction lays slots out in grid order), ascending again, in the form its density gives', () => {
    fc.assert(
      fc.property(ascendingSlots, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (slots, seed) => {
        const top = (slots.at(-1) ?? 0) + 1;
        // A shuffle of the slots, about one in five dropped.
        const order = Array.from({ length: top }, (_, slot) => slot);
        let state = seed;
        const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
        for (let i = top - 1; i > 0; i--) {
          const j = Math.floor(next() * (i + 1));
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        const renumber = new Int32Array(top).fill(-1);
        let to = 0;
        for (const slot of order) if (next() >= 0.2) renumber[slot] = to++;
        const original = postingOf(slots);
        const posting = original.renumbered(renumber);
        // Searches read the original until the compacted index takes its place: it is left as it was.
        expect(slotsOf(original)).toEqual(slots);
        const expected = slots
          .map((slot) => renumber[slot]!)
          .filter((slot) => slot >= 0)
          .sort((a, b) => a - b);
        expect(slotsOf(posting)).toEqual(expected);
        expect(posting.length).toBe(expected.length);
        expect(posting.isBitmap).toBe(postingOf(expected).isBitmap);
        const marks = new Uint32Array((to >>> 5) + 1);
        posting.markInto(marks);
        const marked: number[] = [];
        forEachSetBit(marks, marks.length, (slot) => marked.push(slot));
        expect(marked).toEqual(expected);
        const copied = new Int32Array(expected.length + 1);
        expect(posting.copyInto(copied, 1)).toBe(expected.length + 1);
        expect([...copied.subarray(1)]).toEqual(expected);
      }),
    );
  });
});

describe('PostingMap', () => {
  it('keeps a key of one slot as the bare number, and a list once it has two', () => {
    const map = new PostingMap<string>();
    map.add('once', 4);
    map.add('twice', 1);
    map.add('twice', 9);
    map.add('twice', 9);
    expect(slotsOf(map.get('once')!)).toEqual([4]);
    expect(slotsOf(map.get('twice')!)).toEqual([1, 9]);
    expect(map.get('never')).toBeUndefined();
    const renumber = Int32Array.from([-1, 0, 1, 2, 3, 4, 5, 6, 7, -1]);
    const renumbered = runAtOnce(map.renumbered(renumber));
    expect(slotsOf(renumbered.get('once')!)).toEqual([3]);
    expect(slotsOf(renumbered.get('twice')!)).toEqual([0]);
    expect(slotsOf(map.get('twice')!)).toEqual([1, 9]);
  });
});

describe('WordPostings', () => {
  // Few words, some sharing a hash bucket's neighbourhood, one not ASCII; texts with runs of spaces.
  const word = fc.oneof(fc.constantFrom('sunni', 'hous', 'café', 'a', 'ab', 'ba'), fc.integer({ min: 0, max: 3_000 }).map(String));
  const text = fc.array(fc.tuple(word, fc.constantFrom(' ', '  ', ' ')), { maxLength: 12 }).map((parts) => ` ${parts.flat().join('')}`);

  it('holds for each word the slots of the texts that have it, as split words would, before and after renumbering', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 9 }), (texts, dropEvery) => {
        let postings = new WordPostings();
        const model = new Map<string, number[]>();
        texts.forEach((value, slot) => {
          postings.addWordsOf(value, slot);
          for (const word of new Set(value.split(' '))) if (word !== '') model.set(word, [...(model.get(word) ?? []), slot]);
        });
        const check = () => {
          for (const [word, slots] of model) expect(slotsOf(postings.get(word)!)).toEqual(slots);
          expect(postings.get('never')).toBeUndefined();
        };
        check();
        // Every dropEvery-th slot dropped (none when 0), the others numbered down.
        let next = 0;
        const renumber = Int32Array.from(texts, (_, slot) => (dropEvery > 0 && slot % dropEvery === 0 ? -1 : next++));
        const before = postings;
        postings = runAtOnce(postings.renumbered(renumber));
        // The table renumbered is left as it was.
        for (const [word, slots] of model) expect(slotsOf(before.get(word)!)).toEqual(slots);
        for (const [word, slots] of model) {
          const kept = slots.map((slot) => renumber[slot]!).filter((slot) => slot >= 0);
          if (kept.length === 0) model.delete(word);
          else model.set(word, kept);
        }
        check();
        for (const [word] of model) expect(postings.get(word)).toBeDefined();
      }),
    );
  });
});
