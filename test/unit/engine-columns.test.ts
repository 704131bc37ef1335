import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAtOnce } from '../../src/lib/event-loop-turns.js';
import {
  degreesAt,
  isNullIn,
  type NumberColumn,
  storeDegrees,
  storeNumber,
  TextColumn,
} from '../../src/modules/search/engine/engine-columns.js';

/** Whole numbers of every width, numbers with decimals, and nulls. */
const numberValue = fc.oneof(
  fc.integer({ min: -40_000, max: 40_000 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(null),
);

describe('number columns', () => {
  it('read back every value (nulls as nulls) and stay as narrow as the values allow', () => {
    fc.assert(
      fc.property(fc.array(numberValue, { maxLength: 60 }), (values) => {
        let column: NumberColumn = new Int16Array(values.length);
        values.forEach((value, slot) => (column = storeNumber(column, slot, value)));
        values.forEach((value, slot) => {
          if (value === null) expect(isNullIn(column, column[slot]!)).toBe(true);
          // -0 and 0 are one value to every comparison the index makes.
          else expect(column[slot]! === value).toBe(true);
        });
        const present = values.filter((value): value is number => value !== null);
        const narrowest = present.every((value) => Number.isInteger(value) && value > -32768 && value <= 32767)
          ? Int16Array
          : present.every((value) => Number.isInteger(value) && value > -(2 ** 31) && value < 2 ** 31)
            ? Int32Array
            : Float64Array;
        expect(column).toBeInstanceOf(narrowest);
      }),
    );
  });
});

describe('degree columns', () => {
  const degrees = fc.oneof(
    fc.integer({ min: -180_000_000, max: 180_000_000 }).map((micro) => micro / 1e6),
    fc.double({ min: -180, max: 180, noNaN: true }),
    fc.constant(null),
  );

  it('read back every coordinate exactly, in microdegrees while every one has six decimals at most', () => {
    fc.assert(
      fc.property(fc.array(degrees, { maxLength: 40 }), (values) => {
        let column: Int32Array | Float64Array = new Int32Array(values.length);
        values.forEach((value, slot) => (column = storeDegrees(column, slot, value)));
        values.forEach((value, slot) => {
          if (value === null) expect(degreesAt(column, slot)).toBeNaN();
          else expect(degreesAt(column, slot) === value).toBe(true);
        });
        const sixDecimals = values.every((value) => value === null || Math.round(value * 1e6) / 1e6 === value);
        expect(column).toBeInstanceOf(sixDecimals ? Int32Array : Float64Array);
      }),
    );
  });
});

describe('text columns', () => {
  const utf8Order = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

  it('compare in code point order (the databases binary collation) and keep their texts through a permutation', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('', 'a', 'ab', '\uFF21', '\u{1F3E0}', 'é'));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 40 }), fc.infiniteStream(fc.nat()), (texts, picks) => {
        const column = new TextColumn(1);
        for (const value of texts) column.append(value);
        texts.forEach((value, slot) => expect(column.text(slot)).toBe(value));
        const [a, b] = [picks.next().value % texts.length, picks.next().value % texts.length];
        expect(Math.sign(column.compare(a, b))).toBe(utf8Order(texts[a]!, texts[b]!));
        const order = Int32Array.from(texts.keys()).reverse();
        const permuted = runAtOnce(column.permuted(order, texts.length));
        order.forEach((slot, to) => expect(permuted.text(to)).toBe(texts[slot]));
        // The column permuted is left as it was (searches read it until the compacted index is in place).
        texts.forEach((value, slot) => expect(column.text(slot)).toBe(value));
        permuted.resize(texts.length);
        expect(permuted.text(0)).toBe(texts[texts.length - 1]);
      }),
    );
  });
});
