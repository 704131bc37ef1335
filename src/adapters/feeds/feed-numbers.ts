import { readFreeTextNumber } from '../../lib/free-text-number.js';
import type { FieldWarning } from './feed-records.js';

/** A number as the feed writes it ("450000", "-4.88"): what every writer here writes, and read as JavaScript reads it. */
const PLAIN = /^-?\d+(\.\d+)?$/;

/** What a feed's number text reads as: the number (null for none), or why it is none. */
export type FeedNumber = { value: number | null } | { reason: string };

/**
 * A number field of a CSV, RESO or Kyero feed, from its text (docs/data-exchange.md, "Warnings"). Plain digits
 * with an optional `.` and decimals are read as they are, so that every export reads back as itself ("1.234" is
 * one and a bit); other text goes through the free-text reader that WordPress sites need (lib/free-text-number.ts),
 * so that a spreadsheet's "1,200" or "1 350 000" is read too. A unit, currency or leading words are refused here:
 * these formats keep the unit and the currency in fields of their own. `coordinate`: plain decimals only, as
 * everywhere. Empty text is null (the field cleared).
 */
export function feedNumberOf(text: string, rule: { integer?: boolean; coordinate?: boolean } = {}): FeedNumber {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  let value: number;
  if (PLAIN.test(trimmed)) value = Number(trimmed);
  else {
    const read = rule.coordinate ? { reason: 'must be of type number' } : readFreeTextNumber(trimmed);
    if (read === null) return { value: null };
    if ('reason' in read) return { reason: read.reason };
    if (read.unit !== undefined || read.currency !== undefined || read.words !== undefined) {
      return { reason: 'must be of type number (a number alone: the unit and currency have fields of their own)' };
    }
    value = read.value;
  }
  if (!Number.isFinite(value)) return { reason: 'must be of type number' };
  if (rule.integer && !Number.isInteger(value)) return { reason: 'must be of type integer' };
  return { value };
}

/**
 * Where a reader puts what it could not read of an optional value: the record keeps its other values, and the
 * import reports each warning (a strict import rejects the record instead).
 */
export class FeedWarnings {
  readonly list: FieldWarning[] = [];

  add(field: string, reason: string): void {
    this.list.push({ field, reason });
  }

  /** `{ warnings }` for a record, when there are any. */
  get record(): { warnings?: FieldWarning[] } {
    return this.list.length > 0 ? { warnings: this.list } : {};
  }
}
