import { createDatabase } from '../src/db/database.js';
import { SavedSearchIndex } from '../src/modules/notifications/saved-search-index.js';
import { passesPrefilter } from '../src/modules/notifications/saved-search-compiled.js';
import { loadMatchableListings } from '../src/modules/search/search-matcher.repository.js';
const database = createDatabase({ kind: 'sqlite', path: '/tmp/prof-alerts.db' });
const db = database.db;
const ids = (await db.selectFrom('listings').select('id').where('status', '=', 'publish').offset(300).limit(10).execute()).map((r) => r.id);
const index = new SavedSearchIndex();
await db.transaction().execute((trx) => index.refresh(trx));
const listings = await loadMatchableListings(db, ids);
for (const l of listings) index.matching(l);
const any = index as any;
console.log('unanchored', any.unanchored.length, 'postings', any.postings.size, index.size);
const sizes = [...any.postings.entries()].map(([k, v]: [number, unknown[]]) => [k, v.length]).sort((a: any, b: any) => b[1] - a[1]).slice(0, 10);
console.log('largest postings', JSON.stringify(sizes));
for (const l of listings) {
  let cand = 0, pass = 0;
  const seen = new Set();
  for (const t of l.term_ids) for (const q of any.postings.get(t) ?? []) { if (seen.has(q)) continue; seen.add(q); cand++; if (passesPrefilter(q, l)) pass++; }
  for (const q of any.unanchored) { cand++; if (passesPrefilter(q, l)) pass++; }
  let t = performance.now(); for (let i = 0; i < 20; i++) index.matching(l); const ms = (performance.now() - t) / 20;
  console.log(`terms ${l.term_ids.size} candidates ${cand} prefilter-pass ${pass} matches ${index.matching(l).length} lookup ${ms.toFixed(2)} ms`);
}
await database.destroy();
{
const database2 = createDatabase({ kind: 'sqlite', path: '/tmp/prof-alerts.db' });
const index2 = new SavedSearchIndex();
await database2.db.transaction().execute((trx) => index2.refresh(trx));
const ls = await loadMatchableListings(database2.db, ids);
const a = index2 as any; index2.matching(ls[0]!);
const { matchesListing } = await import('../src/modules/search/search-matcher.js');
for (const l of ls.slice(0, 4)) {
  const cands: any[] = []; const seen = new Set();
  for (const t of l.term_ids) for (const q of a.postings.get(t) ?? []) { if (!seen.has(q)) { seen.add(q); cands.push(q); } }
  cands.push(...a.unanchored);
  let t = performance.now(); let p = 0; const passing: any[] = [];
  for (let i = 0; i < 50; i++) { p = 0; for (const q of cands) if (passesPrefilter(q, l)) { p++; if (i === 0) passing.push(q); } }
  const pre = (performance.now() - t) / 50;
  t = performance.now(); let m = 0;
  for (let i = 0; i < 50; i++) { m = 0; for (const q of passing) if (matchesListing(l, q.resolved)) m++; }
  const mat = (performance.now() - t) / 50;
  const kw = passing.filter((q) => q.query.keyword).length;
  console.log(`prefilter ${cands.length} in ${pre.toFixed(3)} ms; matchesListing ${passing.length} (${kw} with keyword) in ${mat.toFixed(3)} ms -> ${m}`);
}
await database2.destroy();
}
