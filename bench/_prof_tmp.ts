import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { CacheStamps } from '../src/db/cache-versions.js';
import { TaxonomiesService } from '../src/modules/taxonomies/taxonomies.service.js';
import { seedDemoTerms } from '../src/seed/seed-demo.js';
import { seedSavedSearches } from './alerts-data.js';
import { seedDataset } from './search-data.js';
import { SavedSearchAlerts } from '../src/modules/notifications/saved-search-alerts.js';
import { Notifier } from '../src/modules/notifications/notifier.js';
import fs from 'node:fs';
const file = '/tmp/prof-alerts.db';
for (const s of ['', '-wal', '-shm']) fs.rmSync(file + s, { force: true });
await seedDataset({ kind: 'sqlite', path: file }, '/tmp/prof-uploads', { count: 2000, method: 'bulk' });
const database = createDatabase({ kind: 'sqlite', path: file });
const db = database.db;
await seedSavedSearches(db, Number(process.env.N ?? 20000));
const ids = (await db.selectFrom('listings').select('id').where('status', '=', 'publish').limit(40).execute()).map((r) => r.id);
await db.updateTable('listings').set({ status: 'pending' }).where('id', 'in', ids).execute();
const alerts = new SavedSearchAlerts(db, new Notifier({ push: false }));
let t = performance.now();
await alerts.warm();
console.log('warm', (performance.now() - t).toFixed(0), alerts.indexSize);
const orig = db.transaction.bind(db);
for (const id of ids) {
  await db.updateTable('listings').set({ status: 'publish' }).where('id', '=', id).execute();
  const marks: string[] = [];
  t = performance.now();
  await db.transaction().execute(async (trx) => {
    const a = await alerts.matchPublished(trx, [id], new Date());
    marks.push(`match ${(performance.now() - t).toFixed(1)} (${a.length})`);
  });
  marks.push(`commit ${(performance.now() - t).toFixed(1)}`);
  console.log(marks.join(' '));
}
await database.destroy();
