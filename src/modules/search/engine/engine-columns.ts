/**
 * Column storage of the search engine's index (engine/listing-index.ts), as narrow as the values allow while
 * every value stays exact: at a million listings each byte a slot is a megabyte.
 *
 * - A number column starts as 16-bit or 32-bit integers and is widened (16 → 32 bits → doubles) the first time
 *   a value does not fit exactly: counts and years fit 16 bits, the demo's and most feeds' prices and sizes
 *   are whole numbers, and a price of 1,250.50 or a size of 85.5 widens its column for good. A null is the
 *   type's least value (NaN in doubles); `leastOf` gives the least value that is not null.
 * - Degrees are kept as microdegrees in 32-bit integers while every value is exactly its microdegrees divided
 *   by a million (coordinates given with up to six decimals, about 11 cm), else as doubles.
 * - A text column keeps UTF-8 bytes one after the other with an offset a slot, a fifth of what a JavaScript
 *   string and its array slot take, and compares by bytes, which is code point order: the databases' binary
 *   collation.
 */

export type NumberColumn = Int16Array | Int32Array | Float64Array;

/** `null` in 32-bit integer columns. */
const NULL_INT = -2147483648;
const NULL_INT16 = -32768;

/** The least value of a column that is not a null: a null fails `value >= leastOf(column)`, NaN included. */
export function leastOf(column: NumberColumn): number {
  return column instanceof Float64Array ? -Infinity : column instanceof Int32Array ? NULL_INT + 1 : NULL_INT16 + 1;
}

/** Whether a value read from `column` is a null. */
export function isNullIn(column: NumberColumn, value: number): boolean {
  return !(value >= leastOf(column));
}

/**
 * Writes `value` (null: the column's null) at `slot`, first widening the column if the value does not fit it
 * exactly; returns the column to keep, which is `column` itself unless it had to be widened.
 */
export function storeNumber(column: NumberColumn, slot: number, value: number | null): NumberColumn {
  const stored = value === null ? nullValueOf(column) : value;
  if (value !== null && !fits(column, value)) return storeNumber(widened(column), slot, value);
  column[slot] = stored;
  return column;
}

function nullValueOf(column: NumberColumn): number {
  return column instanceof Float64Array ? NaN : column instanceof Int32Array ? NULL_INT : NULL_INT16;
}

function fits(column: NumberColumn, value: number): boolean {
  if (column instanceof Float64Array) return true;
  if (!Number.isInteger(value)) return false;
  return value >= leastOf(column) && value <= (column instanceof Int32Array ? 2147483647 : 32767);
}

/** The column one type wider, nulls kept as nulls. */
function widened(column: NumberColumn): NumberColumn {
  const wider = column instanceof Int16Array ? new Int32Array(column.length) : new Float64Array(column.length);
  const least = leastOf(column);
  const wideNull = nullValueOf(wider);
  for (let slot = 0; slot < column.length; slot++) {
    const value = column[slot]!;
    wider[slot] = value >= least ? value : wideNull;
  }
  return wider;
}

/** Latitudes or longitudes: microdegrees (NULL_INT for null) or degrees (NaN for null). */
export type DegreeColumn = Int32Array | Float64Array;

/** Writes `value` (degrees, or null) at `slot`, widening the column to doubles if need be; returns the column to keep. */
export function storeDegrees(column: DegreeColumn, slot: number, value: number | null): DegreeColumn {
  if (column instanceof Float64Array) {
    column[slot] = value ?? NaN;
    return column;
  }
  if (value === null) {
    column[slot] = NULL_INT;
    return column;
  }
  const micro = Math.round(value * 1e6);
  if (micro / 1e6 === value && micro > NULL_INT && micro <= 2147483647) {
    column[slot] = micro;
    return column;
  }
  const degrees = new Float64Array(column.length);
  const read = degreesReader(column);
  for (let at = 0; at < column.length; at++) degrees[at] = read(at);
  degrees[slot] = value;
  return degrees;
}

/** The degrees at a slot of a column, NaN for null. */
export function degreesAt(column: DegreeColumn, slot: number): number {
  const value = column[slot]!;
  if (column instanceof Float64Array) return value;
  return value === NULL_INT ? NaN : value / 1e6;
}

/** `degreesAt` for one column, as a function: hot loops take it once per column. */
export function degreesReader(column: DegreeColumn): (slot: number) => number {
  if (column instanceof Float64Array) return (slot) => column[slot]!;
  return (slot) => {
    const micro = column[slot]!;
    return micro === NULL_INT ? NaN : micro / 1e6;
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Texts by slot in one UTF-8 arena, appended in slot order (engine/listing-index.ts appends slots only). */
export class TextColumn {
  /** `starts[slot]` to `starts[slot + 1]`: the bytes of the slot's text. */
  private starts: Int32Array;
  private bytes = new Uint8Array(4_096);
  /** Texts held: the next slot appended. */
  private count = 0;

  constructor(capacity: number) {
    this.starts = new Int32Array(capacity + 1);
  }

  /** Appends the text of slot `count`. */
  append(text: string): void {
    if (this.count + 1 === this.starts.length) this.starts = resized(this.starts, Math.ceil(this.starts.length * 1.5) + 1);
    const at = this.starts[this.count]!;
    // At most three bytes a UTF-16 unit.
    if (at + text.length * 3 > this.bytes.length)
      this.bytes = resized(this.bytes, Math.max(at + text.length * 3, Math.ceil(this.bytes.length * 1.5)));
    let end = at;
    const bytes = this.bytes;
    let ascii = true;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) {
        ascii = false;
        break;
      }
      bytes[end++] = unit;
    }
    if (!ascii) end = at + encoder.encodeInto(text, bytes.subarray(at)).written;
    this.starts[++this.count] = end;
  }

  /** The text of a slot. */
  text(slot: number): string {
    return decoder.decode(this.bytes.subarray(this.starts[slot], this.starts[slot + 1]));
  }

  /** Code point order of two slots' texts (negative, zero or positive). */
  compare(a: number, b: number): number {
    const { bytes, starts } = this;
    const aStart = starts[a]!;
    const bStart = starts[b]!;
    const aLength = starts[a + 1]! - aStart;
    const bLength = starts[b + 1]! - bStart;
    const length = aLength < bLength ? aLength : bLength;
    for (let i = 0; i < length; i++) {
      const difference = bytes[aStart + i]! - bytes[bStart + i]!;
      if (difference !== 0) return difference;
    }
    return aLength - bLength;
  }

  /**
   * The texts of the slots of `order`, in that order, with room for `capacity` slots; this column is left as it
   * is. Yields now and then (ListingIndex.compaction). Bytes are copied one by one: titles are short, and a
   * subarray for each took most of the time.
   */
  *permuted(order: Int32Array, capacity: number): Generator<void, TextColumn> {
    const next = new TextColumn(capacity);
    const { bytes, starts } = this;
    let size = 0;
    for (let i = 0; i < order.length; i++) size += starts[order[i]! + 1]! - starts[order[i]!]!;
    const out = (next.bytes = new Uint8Array(size + TEXT_HEADROOM));
    let end = 0;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i]!;
      for (let at = starts[slot]!, stop = starts[slot + 1]!; at < stop; at++) out[end++] = bytes[at]!;
      next.starts[i + 1] = end;
      if (i % PERMUTED_BETWEEN_YIELDS === 0) yield;
    }
    next.count = order.length;
    return next;
  }

  /** Room for `capacity` slots (never fewer than held), and bytes beyond those held cut to a little headroom. */
  resize(capacity: number): void {
    this.starts = resized(this.starts, Math.max(capacity, this.count) + 1);
    const used = this.starts[this.count]!;
    if (used + TEXT_HEADROOM < this.bytes.length) this.bytes = resized(this.bytes, used + TEXT_HEADROOM);
  }

  byteLength(): number {
    return this.starts.byteLength + this.bytes.byteLength;
  }
}

/** Texts copied between two of `permuted`'s yields. */
const PERMUTED_BETWEEN_YIELDS = 16_384;

/** Bytes left free at the end of a text arena when it is made to measure. */
const TEXT_HEADROOM = 64 * 1_024;

function resized<T extends Int32Array | Uint8Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array.length > length ? array.subarray(0, length) : array);
  return next;
}
