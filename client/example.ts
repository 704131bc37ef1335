/**
 * `npx tsx client/example.ts [base URL]` against a running server (`npm start` serves one with demo data):
 * the three newest listings in Miami, then one of them whole. Every path, parameter and field below is checked
 * by TypeScript against the API's document.
 */
import { createRealtyClient } from './src/index.js';

const client = createRealtyClient({ baseUrl: process.argv[2] ?? 'http://localhost:3000' });

const search = await client.GET('/realty-api/v1/properties/search', {
  params: { query: { city: 'miami', sortby: 'd_date', per_page: 3 } },
});
if (search.error) throw new Error(`${search.error.code}: ${search.error.message}`);
const { properties, pagination } = search.data.data;
console.log(`${pagination.total_records} listings in Miami; the newest three:`);
for (const listing of properties) console.log(`- #${listing.id} ${listing.title}: ${listing.formatted_price}`);

const first = properties[0];
if (first) {
  const one = await client.GET('/realty-api/v1/properties/{id}', { params: { path: { id: first.id } } });
  if (one.error) throw new Error(`${one.error.code}: ${one.error.message}`);
  console.log(`#${one.data.data.id} has ${one.data.data.gallery.length} pictures and ${one.data.data.floor_plans.length} floor plans`);
}
