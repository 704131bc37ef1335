import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import {
  type FeedListing,
  type FeedReader,
  type FeedRecord,
  FeedSyntaxError,
  type FeedWriter,
  PARSER_MESSAGE_MAX,
  shortened,
} from './feed-records.js';
import { FeedWarnings, feedNumberOf } from './feed-numbers.js';
import { utf8Text } from './utf8-text.js';

/**
 * Listings as CSV, one row per listing (docs/data-exchange.md, "CSV"). The header names the columns; any subset
 * in any order, `key` required. A column the file lacks is a field it does not carry (the import keeps the
 * listing's own value); an empty cell clears the field. Lists (terms, pictures, agents) are items separated by
 * `|`, or a JSON array of strings when an item holds a `|`; floor plans and additional features are JSON.
 *
 * A text cell that a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a carriage
 * return) is written with a leading `'`, as OWASP advises, and so is one that begins with `'` itself; the reader
 * takes one leading `'` off every text cell, so the text comes back as it was.
 *
 * A cell that cannot be read (a price "abc", bedrooms "two", a floor plans cell that is no JSON) is left out of
 * the listing, not cleared, and named in the record's `warnings` with the column and the reason; only the `key`
 * is required of the reader (docs/data-exchange.md, "Warnings"). Number cells are read by feed-numbers.ts:
 * "1,200" and "1 350 000" as spreadsheets write them too, a unit or currency in the cell not.
 */

type Kind = 'text' | 'number' | 'integer' | 'boolean' | 'list' | 'json' | 'optional-text';

/** Every column, in the order the writer writes them: the name is the FeedListing field's. */
const COLUMNS = {
  key: 'text',
  title: 'text',
  status: 'text',
  description: 'text',
  reference: 'text',
  price: 'number',
  second_price: 'number',
  currency: 'text',
  price_prefix: 'text',
  price_postfix: 'text',
  bedrooms: 'integer',
  bathrooms: 'integer',
  rooms: 'integer',
  garage: 'integer',
  garage_size: 'text',
  size: 'number',
  size_unit: 'text',
  land_size: 'number',
  land_size_unit: 'text',
  year_built: 'integer',
  featured: 'boolean',
  types: 'list',
  statuses: 'list',
  labels: 'list',
  features: 'list',
  country: 'optional-text',
  state: 'optional-text',
  city: 'optional-text',
  area: 'optional-text',
  address: 'text',
  zipcode: 'text',
  latitude: 'number',
  longitude: 'number',
  images: 'list',
  agents: 'list',
  agency: 'optional-text',
  agent_display: 'text',
  video_url: 'text',
  virtual_tour: 'text',
  additional_features: 'json',
  floor_plans: 'json',
  created_at: 'text',
  updated_at: 'text',
  url: 'text',
} as const satisfies Record<keyof FeedListing, Kind>;

type Column = keyof typeof COLUMNS;
const COLUMN_NAMES = Object.keys(COLUMNS) as Column[];
/** The columns an export writes: all but `url`, the old address a file from another site may give (read only). */
const WRITTEN_COLUMNS = COLUMN_NAMES.filter((column) => column !== 'url');

/** A cell a row cannot be read with, and why: a warning, or for the key a rejection. */
class CellError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * The longest record (row) a CSV feed may hold, in characters (csv-parse `max_record_size`): a listing at every
 * limit of the API (a 20,000-character description, 50 picture URLs and 50 floor plans) takes less than half.
 */
export const CSV_MAX_RECORD_SIZE = 1024 * 1024;

export const readCsvFeed: FeedReader = async function* (input) {
  const skipped: FeedRecord[] = [];
  const parser = parse({
    info: true,
    skip_empty_lines: true,
    max_record_size: CSV_MAX_RECORD_SIZE,
    // A row with more or fewer cells than the header is reported by the reader below, not thrown.
    relax_column_count: true,
    // A row the parser cannot read (a stray quote) is reported and skipped; the rows after it are still read.
    skip_records_with_error: true,
    on_skip: (error) => {
      // The header row is not skipped: without it no row can be read. A record past the size limit ends the file
      // too: the parser would hold it, and the rest of the file is likely no CSV. Thrown here, it fails the parse.
      if (error && (error.code === 'CSV_MAX_RECORD_SIZE' || error.records === 0)) throw error;
      skipped.push({ kind: 'unreadable', at: `line ${error?.lines ?? '?'}`, reason: csvReason(error) });
      return undefined;
    },
  });
  // Decoded here rather than by the parser, so that a byte that is not UTF-8 refuses the file (utf8-text.ts).
  const text = Readable.from(utf8Text(input));
  text.pipe(parser);
  text.on('error', (error) => parser.destroy(error));
  let header: Column[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield* skipped.splice(0);
      // The record ends on `info.lines`; the line breaks inside its quoted cells say where it began.
      const at = `line ${info.lines - record.reduce((breaks, cell) => breaks + countBreaks(cell), 0)}`;
      if (!header) {
        header = headerOf(record, at);
        continue;
      }
      if (record.length !== header.length) {
        yield { kind: 'unreadable', at, reason: `has ${record.length} cells where the header names ${header.length}` };
        continue;
      }
      try {
        const warnings = new FeedWarnings();
        const listing = listingOf(header, record, warnings);
        yield { kind: 'listing', at, listing, ...warnings.record };
      } catch (error) {
        if (!(error instanceof CellError)) throw error;
        const key = header.indexOf('key');
        yield {
          kind: 'unreadable',
          at,
          ...(record[key] ? { key: unquoteText(record[key]) } : {}),
          field: error.field,
          reason: error.message,
        };
      }
    }
  } catch (error) {
    throw error instanceof CsvError ? new FeedSyntaxError(`line ${error.lines ?? '?'}`, csvReason(error)) : error;
  }
  yield* skipped.splice(0);
  if (!header) throw new FeedSyntaxError('line 1', 'the file is empty: a header row naming the columns is required');
};

/** csv-parse's words for a fault, cut: some quote the cell they stopped in. */
function csvReason(error: CsvError | undefined): string {
  if (error?.code === 'CSV_MAX_RECORD_SIZE') {
    return `a record is longer than ${CSV_MAX_RECORD_SIZE.toLocaleString('en')} characters (a listing needs far fewer)`;
  }
  return error ? shortened(error.message, PARSER_MESSAGE_MAX) : 'cannot be read as CSV';
}

function countBreaks(cell: string): number {
  let breaks = 0;
  for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) breaks++;
  return breaks;
}

function headerOf(cells: readonly string[], at: string): Column[] {
  const names = cells.map((cell) => cell.trim().toLowerCase());
  const unknown = names.find((name) => !(name in COLUMNS));
  if (unknown !== undefined) {
    throw new FeedSyntaxError(at, `unknown column "${shortened(unknown)}"; the columns are: ${COLUMN_NAMES.join(', ')}`);
  }
  const repeated = names.find((name, n) => names.indexOf(name) !== n);
  if (repeated !== undefined) throw new FeedSyntaxError(at, `the column "${shortened(repeated)}" is named twice`);
  if (!names.includes('key')) throw new FeedSyntaxError(at, 'the column "key" is required');
  return names as Column[];
}

/** The row's listing; a cell that cannot be read is left out and goes to `warnings` (the key is required). */
function listingOf(header: readonly Column[], cells: readonly string[], warnings: FeedWarnings): FeedListing {
  const listing: Record<string, unknown> = {};
  header.forEach((column, n) => {
    try {
      listing[column] = cellValue(column, cells[n]!);
    } catch (error) {
      if (!(error instanceof CellError) || column === 'key') throw error;
      warnings.add(error.field, error.message);
    }
  });
  if (listing.key === '') throw new CellError('key', 'is required');
  return listing as unknown as FeedListing;
}

function cellValue(column: Column, cell: string): unknown {
  switch (COLUMNS[column]) {
    case 'text':
      return unquoteText(cell);
    case 'optional-text':
      return cell === '' ? null : unquoteText(cell);
    case 'number':
    case 'integer': {
      const rule = { integer: COLUMNS[column] === 'integer', coordinate: column === 'latitude' || column === 'longitude' };
      const read = feedNumberOf(cell, rule);
      if ('reason' in read) throw new CellError(column, read.reason);
      return read.value;
    }
    case 'boolean': {
      const text = cell.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(text)) return true;
      if (['false', '0', 'no', ''].includes(text)) return false;
      throw new CellError(column, 'must be one of: true, false');
    }
    case 'list':
      return listOf(column, unquoteText(cell));
    case 'json': {
      if (cell.trim() === '') return [];
      let value: unknown;
      try {
        value = JSON.parse(cell);
      } catch {
        throw new CellError(column, 'must be a JSON array');
      }
      if (!Array.isArray(value)) throw new CellError(column, 'must be a JSON array');
      return value;
    }
  }
}

function listOf(column: Column, text: string): string[] {
  if (text.trim() === '') return [];
  if (!text.startsWith('[')) return text.split('|').map((item) => item.trim());
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch {
    throw new CellError(column, 'must be items separated by | or a JSON array of strings');
  }
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
    throw new CellError(column, 'must be items separated by | or a JSON array of strings');
  }
  return items;
}

/** The cells a spreadsheet would read as a formula, and `'` (the escape itself). */
const FORMULA_START = /^[=+\-@\t\r']/;

function quoteText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function unquoteText(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/** The header, then one row per listing; only the columns named (default: all). */
function csvWriter(columns: readonly Column[] = WRITTEN_COLUMNS): FeedWriter {
  return async function* ({ listings }) {
    yield stringify([columns]);
    // Rows go out a hundred at a time: each call of the stringifier sets itself up anew.
    let rows: string[][] = [];
    for await (const listing of listings) {
      rows.push(columns.map((column) => cellText(column, listing[column])));
      if (rows.length === ROWS_PER_PIECE) {
        yield stringify(rows);
        rows = [];
      }
    }
    if (rows.length > 0) yield stringify(rows);
  };
}

const ROWS_PER_PIECE = 100;

export const writeCsvFeed: FeedWriter = csvWriter();

function cellText(column: Column, value: unknown): string {
  if (value === undefined || value === null) return '';
  switch (COLUMNS[column]) {
    case 'text':
    case 'optional-text':
      return quoteText(String(value));
    case 'number':
    case 'integer':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'list': {
      const items = value as string[];
      const plain = items.every((item) => !item.includes('|') && item.trim() === item && item !== '') && !items[0]?.startsWith('[');
      return quoteText(plain ? items.join('|') : JSON.stringify(items));
    }
    case 'json':
      return (value as unknown[]).length === 0 ? '' : JSON.stringify(value);
  }
}
