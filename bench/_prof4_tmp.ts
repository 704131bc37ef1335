import { createDatabase } from '../src/db/database.js';
import { SavedSearchIndex } from '../dist/modules/notifications/saved-search-index.js';
import { passesPrefilter } from '../dist/modules/notifications/saved-search-compiled.js';
import { loadMatchableListings } from '../dist/modules/search/search-matcher.repository.js';
import { matchesListing } from '../dist/modules/search/search-matcher.js';
const database = createDatabase({ kind: 'sqlite', path: '/tmp/prof-alerts.db' });
const db = database.db;
const ids = (await db.selectFrom('listings').select('id').where('status', '=', 'publish').offset(300).limit(10).execute()).map((r) => r.id);
const index = new SavedSearchIndex();
await db.transaction().execute((trx) => index.refresh(trx));
const ls = await loadMatchableListings(db, ids);
const a = index as any; index.matching(ls[0]!);
for (let round = 0; round < 3; round++) {
  let totalC = 0, totalP = 0, preMs = 0, matMs = 0, lookMs = 0;
  for (const l of ls) {
    const cands: any[] = []; const seen = new Set();
    for (const t of l.term_ids) for (const q of a.postings.get(t) ?? []) { if (!seen.has(q)) { seen.add(q); cands.push(q); } }
    cands.push(...a.unanchored);
    const passing = cands.filter((q) => passesPrefilter(q, l));
    let t = performance.now();
    for (let i = 0; i < 100; i++) for (const q of cands) passesPrefilter(q, l);
    preMs += (performance.now() - t) / 100;
    t = performance.now();
    for (let i = 0; i < 100; i++) for (const q of passing) matchesListing(l, q.resolved);
    matMs += (performance.now() - t) / 100;
    t = performance.now();
    for (let i = 0; i < 100; i++) index.matching(l);
    lookMs += (performance.now() - t) / 100;
    totalC += cands.length; totalP += passing.length;
  }
  console.log(`round ${round}: prefilter ${(preMs * 1e6 / totalC).toFixed(0)} ns/candidate; matchesListing ${(matMs * 1e6 / totalP).toFixed(0)} ns/call; lookup ${(lookMs / ls.length).toFixed(2)} ms/listing`);
}
await database.destroy();
