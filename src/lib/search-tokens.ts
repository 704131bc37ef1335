import { stemmer } from 'stemmer';

/**
 * The words of full-text search (docs/api.md 4.4 `keyword`), computed here rather than by the databases so that
 * SQLite and PostgreSQL index and query exactly the same words: lower-cased, accent-folded runs of letters
 * or of digits, English stopwords left out, each reduced to its Porter stem. A listing's words are stored
 * joined by single spaces (`listings.search_text`); each database only splits that text at the spaces
 * (db/dialect/full-text.ts).
 */

/** Lucene's English stopword set: words too common to narrow a search. */
const STOPWORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

/**
 * Longer runs are not words anyone types (hashes, runs of digits), and PostgreSQL refuses a tsvector word
 * past 2,047 bytes: a listing holding one could not be saved.
 */
const MAX_TOKEN_LENGTH = 64;
/** A Porter stem is a fixed point after two or three passes; the bound only guards against a cycle. */
const MAX_STEM_PASSES = 8;
/** Stems already computed: listing texts repeat a small vocabulary (bulk seeds and the 0006 backfill). */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

const WORD = /\p{L}+|\p{N}+/gu;
const DIGITS = /^\p{N}/u;

/** The words of `text`, in order, duplicates kept. */
export function tokenize(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const tokens: string[] = [];
  for (const word of folded.match(WORD) ?? []) {
    if (word.length > MAX_TOKEN_LENGTH || STOPWORDS.has(word)) continue;
    tokens.push(isNumber(word) ? word : stem(word));
  }
  return tokens;
}

/**
 * Whether a word of `WORD` is a run of digits (its first character tells): ASCII is answered without the
 * Unicode property test (a demo description's words: 48 → 44 µs).
 */
function isNumber(word: string): boolean {
  const first = word.charCodeAt(0);
  if (first < 128) return first >= 48 && first <= 57;
  return DIGITS.test(word);
}

/**
 * Stemmed until it stops changing, so that every form of a word lands on one stem: the stemmer takes
 * "houses" to "hous" but "hous" on to "hou", which is also where "house" ends.
 */
function stem(word: string): string {
  const cached = stems.get(word);
  if (cached !== undefined) return cached;
  let current = word;
  for (let pass = 0; pass < MAX_STEM_PASSES; pass++) {
    const next = stemmer(current);
    if (next === current) break;
    current = next;
  }
  if (stems.size >= MAX_CACHED_STEMS) stems.clear();
  stems.set(word, current);
  return current;
}

/** The listing fields that keyword search reads (docs/api.md 4.4); `description` is sanitized HTML. */
export interface SearchableText {
  title: string;
  description?: string;
  address?: string;
  zipcode?: string;
  reference?: string;
}

/** `listings.search_text`: the words of the title, description, address, zipcode and reference. */
export function searchTextOf(listing: SearchableText): string {
  const { title, description = '', address = '', zipcode = '', reference = '' } = listing;
  return [title, textOfHtml(description), address, zipcode, reference].flatMap(tokenize).join(' ');
}

/** `listings.title_tokens`: the words of the title alone (relevance counts the keyword's words found there). */
export function titleTokensOf(title: string): string {
  return tokenize(title).join(' ');
}

/** The distinct words of a search keyword, in order; none when it holds only stopwords and punctuation. */
export function queryTerms(keyword: string): string[] {
  return [...new Set(tokenize(keyword))];
}

/** Whether a listing's `search_text` holds every one of `terms` (the in-memory twin of the SQL filter). */
export function keywordMatches(searchText: string, terms: readonly string[]): boolean {
  const words = new Set(searchText.split(' '));
  return terms.every((term) => words.has(term));
}

/** Block tags separate words; inline ones (strong, em, a) may sit inside a word. */
const BLOCK_TAGS = /<\/?(?:p|br|ul|ol|li)\b[^>]*>/gi;

/**
 * The text of sanitized HTML (lib/text.ts richText): tags dropped. The entities the sanitizer writes all
 * stand for punctuation (`&amp;`, `&lt;`, …), which separates words: each becomes a space.
 */
function textOfHtml(html: string): string {
  return html
    .replace(BLOCK_TAGS, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, ' ');
}
