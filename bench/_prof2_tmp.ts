import { createDatabase } from '../src/db/database.js';
import { SavedSearchIndex } from '../src/modules/notifications/saved-search-index.js';
import * as repository from '../src/modules/notifications/saved-search-alerts.repository.js';
import { loadMatchableListings } from '../src/modules/search/search-matcher.repository.js';
import { kyselyCacheVersionReader } from '../src/db/cache-versions.js';
const database = createDatabase({ kind: 'sqlite', path: '/tmp/prof-alerts.db' });
const db = database.db;
const ids = (await db.selectFrom('listings').select('id').where('status', '=', 'publish').offset(100).limit(30).execute()).map((r) => r.id);
await db.updateTable('listings').set({ status: 'pending' }).where('id', 'in', ids).execute();
const index = new SavedSearchIndex();
await db.transaction().execute((trx) => index.refresh(trx));
for (const id of ids) {
  await db.updateTable('listings').set({ status: 'publish' }).where('id', '=', id).execute();
  const m: string[] = []; let t = performance.now();
  const lap = (name: string) => { const n = performance.now(); m.push(`${name} ${(n - t).toFixed(2)}`); t = n; };
  await db.transaction().execute(async (trx) => {
    lap('begin');
    await kyselyCacheVersionReader(trx)('terms'); lap('stamp');
    await repository.findSearchTerms(trx, ['property_city','property_type','property_status','property_label','property_feature','property_country','property_state','property_area']); lap('terms');
    await repository.savedSearchFingerprint(trx); lap('fingerprint');
    await index.refresh(trx); lap('refresh');
    const [l] = await loadMatchableListings(trx, [id]); lap('load');
    const found = index.matching(l!); lap(`lookup(${found.length})`);
    const targets = await repository.findAlertTargets(trx, found); lap('targets');
    const ins = await repository.insertMatches(trx, found.map((s) => ({ saved_search_id: s, listing_id: id })), new Date().toISOString()); lap('insert');
  });
  lap('commit');
  console.log(m.join(' | '));
}
await database.destroy();
