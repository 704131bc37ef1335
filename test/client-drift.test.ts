import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes, TYPES_FILE } from '../client/generate.js';
import { buildTestApp, type TestApp } from './helpers/app.js';

/**
 * The typed client (client/) is generated from the OpenAPI document: a route changed without generating it
 * again (`npm run generate -w client`) fails here, naming the first line that differs.
 */
describe('the typed client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('matches the OpenAPI document the API serves', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/realty-api/v1/openapi.json' })).body;
    const expected = (await clientTypes(document)).split('\n');
    const committed = fs.readFileSync(TYPES_FILE, 'utf8').split('\n');
    const first = expected.findIndex((line, i) => line !== committed[i]);
    const where = first === -1 && expected.length !== committed.length ? Math.min(expected.length, committed.length) : first;
    expect(where === -1 ? 'same' : `line ${where + 1}: ${committed[where]} ≠ ${expected[where]}`).toBe('same');
  }, 60_000);
});
