import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AnyDb } from '../any-db.js';
import { dialectOf } from './index.js';

/**
 * Keyword filters of a query over `listings as l` (docs/api.md 4.4). Words are made in JavaScript
 * (lib/search-tokens.ts): `l.search_text` holds them joined by single spaces, and the databases only split
 * it at the spaces, with no parser or dictionary of their own that could disagree between them or with
 * JavaScript's Unicode tables:
 * - SQLite: the FTS5 external-content table `listings_fts` with the `ascii` tokenizer (every non-ASCII
 *   character is part of a word; ASCII splits at anything but letters and digits, which our words are);
 * - PostgreSQL: a GIN index on `array_to_tsvector(string_to_array(search_text, ' '))`, the words taken as
 *   lexemes as they are.
 * (The parsers of `unicode61` and `to_tsvector('simple', …)` drop or fold some letters and digits that
 * JavaScript keeps, `ς` or newer scripts' letters; the databases then answered differently.)
 */

/** What `tokenize` produces: letters or digits only, so a term can never carry query syntax. */
const TERM = /^[\p{L}\p{N}]+$/u;

function assertTerms(terms: readonly string[]): void {
  const bad = terms.find((term) => !TERM.test(term));
  if (bad !== undefined) throw new Error(`not a search term: ${JSON.stringify(bad)}`);
}

/** Listings whose words include every term; no terms (a keyword of stopwords) filters nothing. */
export function hasAllTerms(db: AnyDb, terms: readonly string[]): Expression<SqlBool> {
  if (terms.length === 0) return sql<SqlBool>`1 = 1`;
  assertTerms(terms);
  if (dialectOf(db) === 'postgres') {
    // tsquery's input syntax, not to_tsquery: quoted lexemes are taken as they are, without a parser.
    const query = terms.map((term) => `'${term}'`).join(' & ');
    return sql<SqlBool>`array_to_tsvector(string_to_array(${sql.ref('l.search_text')}, ' ')) @@ cast(${query} as tsquery)`;
  }
  const query = terms.map((term) => `"${term}"`).join(' AND ');
  return sql<SqlBool>`${sql.ref('l.id')} in (select rowid from listings_fts where listings_fts match ${query})`;
}

/**
 * How many of the terms are words of the title (`l.title_tokens`): the relevance of a keyword search.
 * Plain LIKE on words padded with spaces, identical on both databases; `db` keeps the signature of the
 * other keyword filter.
 */
export function titleHits(_db: AnyDb, terms: readonly string[]): RawBuilder<number> {
  if (terms.length === 0) return sql<number>`0`;
  assertTerms(terms);
  const padded = sql`(' ' || ${sql.ref('l.title_tokens')} || ' ')`;
  const hits = terms.map((term) => sql`case when ${padded} like ${`% ${term} %`} then 1 else 0 end`);
  return sql<number>`(${sql.join(hits, sql` + `)})`;
}
