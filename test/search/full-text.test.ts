import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasAllTerms, titleHits } from '../../src/db/dialect/full-text.js';
import type { DB } from '../../src/db/schema/index.js';
import { queryTerms } from '../../src/lib/search-tokens.js';
import { deleteListing, updateListingInState } from '../../src/modules/properties/properties.repository.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newListing } from '../helpers/factories.js';
import { newWord, planOf } from './search-storage-fixtures.js';

describeEachDialect('keyword filters (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  const keywordQuery = (keyword: string) =>
    db
      .selectFrom('listings as l')
      .select('l.id')
      .where(hasAllTerms(db, queryTerms(keyword)))
      .orderBy('l.id');
  const found = async (keyword: string) => (await keywordQuery(keyword).execute()).map((row) => row.id);

  it('finds other forms of a word', async () => {
    const tag = newWord();
    const houses = await newListing(db, { title: `Two Houses ${tag}` });
    const living = await newListing(db, { title: `Open living ${tag}`, description: '<p>Recently <strong>renovated</strong> rooms</p>' });
    expect(await found(`house ${tag}`)).toEqual([houses]);
    expect(await found(`housing ${tag}`)).toEqual([houses]);
    expect(await found(`renovation ${tag}`)).toEqual([living]);
    expect(await found(`room lives ${tag}`)).toEqual([living]);
  });

  it('needs every word, in the title, description, address, zipcode or reference', async () => {
    const tag = newWord();
    const garden = await newListing(db, {
      title: `Villa ${tag}`,
      description: '<p>A large garden</p>',
      address: '4 Oak Road',
      zipcode: 'SW1A',
      reference: 'REF-77',
    });
    const pool = await newListing(db, { title: `Villa ${tag}`, description: '<p>A pool</p>', address: '9 Elm Road' });
    expect(await found(`villa ${tag}`)).toEqual([garden, pool]);
    expect(await found(`villa garden ${tag}`)).toEqual([garden]);
    expect(await found(`oak road ${tag}`)).toEqual([garden]);
    expect(await found(`sw1a ${tag}`)).toEqual([garden]);
    expect(await found(`ref 77 ${tag}`)).toEqual([garden]);
    expect(await found(`garden pool ${tag}`)).toEqual([]);
  });

  it('ignores accents and case both ways', async () => {
    const tag = newWord();
    const id = await newListing(db, { title: `Maison équipée ${tag}`, address: 'Straße des Friedens, Zürich' });
    expect(await found(`EQUIPEE ${tag}`)).toEqual([id]);
    expect(await found(`Équipée maison ${tag}`)).toEqual([id]);
    expect(await found(`zurich straße ${tag}`)).toEqual([id]);
  });

  it('finds letters and digits of every script alike on both databases', async () => {
    const tag = newWord();
    // Folded or dropped by the databases' own parsers (unicode61, to_tsvector): final sigma, New Tai Lue,
    // a Bengali currency numerator, Hanifi Rohingya; then Arabic and Arabic-Indic digits.
    const id = await newListing(db, { title: `σοφός ᦰᦱ ৴ 𐴀𐴁 شقة ٣٤ ${tag}` });
    for (const keyword of ['σοφός', 'ᦰᦱ', '৴', '𐴀𐴁', 'شقة', '٣٤']) expect(await found(`${keyword} ${tag}`)).toEqual([id]);
    expect(await found(`σοφοσ ${tag}`)).toEqual([]);
  });

  it('filters nothing for a keyword of stopwords only', async () => {
    await newListing(db, { title: 'The one' });
    expect(queryTerms('the of and')).toEqual([]);
    const all = (await db.selectFrom('listings').select('id').orderBy('id').execute()).map((row) => row.id);
    expect(await found('the of and')).toEqual(all);
  });

  it('follows changes of the text and deletions', async () => {
    const before = newWord();
    const after = newWord();
    const id = await newListing(db, { title: `Flat ${before}` });
    expect(await found(before)).toEqual([id]);
    expect(await updateListingInState(db, id, 'publish', { description: `<p>Now ${after}</p>` })).toBe(true);
    expect(await found(after)).toEqual([id]);
    expect(await found(before)).toEqual([id]);
    await updateListingInState(db, id, 'publish', { title: 'Flat' });
    expect(await found(before)).toEqual([]);
    expect(await found(`flat ${after}`)).toEqual([id]);
    await deleteListing(db, id);
    expect(await found(after)).toEqual([]);
  });

  it('counts the words of the keyword found in the title', async () => {
    const tag = newWord();
    const both = await newListing(db, { title: `Garden houses ${tag}` });
    const one = await newListing(db, { title: `Houses ${tag}`, description: '<p>garden</p>' });
    const none = await newListing(db, { title: tag, description: '<p>garden house</p>' });
    const terms = queryTerms('garden house');
    const rows = await db
      .selectFrom('listings as l')
      .select(['l.id', titleHits(db, terms).as('hits')])
      .where('l.id', 'in', [both, one, none])
      .orderBy('l.id')
      .execute();
    expect(rows.map((row) => [row.id, Number(row.hits)])).toEqual([
      [both, 2],
      [one, 1],
      [none, 0],
    ]);
  });

  it('refuses anything but a word as a term', () => {
    expect(() => hasAllTerms(db, ["x' | 'y"])).toThrow(/not a search term/);
    expect(() => hasAllTerms(db, ['x" OR "y'])).toThrow(/not a search term/);
    expect(() => titleHits(db, ['%'])).toThrow(/not a search term/);
  });

  it('reads the keyword index', async () => {
    const plan = await planOf(db, keywordQuery('garden'));
    if (dialect === 'sqlite') expect(plan).toMatch(/listings_fts VIRTUAL TABLE/);
    else expect(plan).toMatch(/Bitmap Index Scan on listings_search_idx/);
  });
});
