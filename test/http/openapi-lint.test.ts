import { Document, type RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startProgram } from '../helpers/programs.js';

/**
 * The OpenAPI document is what client generators read (docs/api.md): Spectral's `spectral:oas` rules must find
 * nothing in it, no error and no warning. The document does not depend on the database: one run, on SQLite.
 */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    const res = await t.app.inject({ method: 'GET', url: '/realty-api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    document = res.body;
  });
  afterAll(async () => {
    await t.close();
  });

  it('passes spectral:oas with no error and no warning', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(new Document(document, Json));
    expect(results.map(({ code, message, path }) => `${String(code)} ${path.join('.')}: ${message}`)).toEqual([]);
  }, 60_000);

  it('names every operation once, and describes every operation and response', () => {
    const { paths } = JSON.parse(document) as {
      paths: Record<
        string,
        Record<string, { operationId?: string; description?: string; responses: Record<string, { description: string }> }>
      >;
    };
    const operations = Object.entries(paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ path, method, op })),
    );
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(paths['/realty-api/v1/properties/{id}']?.get?.operationId).toBe('getPropertiesById');
    const undescribed = operations.flatMap(({ path, method, op }) =>
      Object.entries(op.responses)
        .filter(([, response]) => !response.description || response.description === 'Default Response')
        .map(([status]) => `${method} ${path} ${status}`),
    );
    expect(undescribed).toEqual([]);
    expect(paths['/realty-api/v1/properties/{id}']?.get?.responses['404']?.description).toMatch(/`not_found`/);
  });

  it('is printed by `realty-api openapi` without a server, and without touching the configured database', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-openapi-cli-'));
    try {
      const child = startProgram('main.mjs', ['openapi'], {
        cwd,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: 'sqlite:./site.db', DATA_DIR: cwd },
      });
      // Decoded as one stream: a character split between two chunks must not become two replacement characters.
      let stdout = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => (stdout += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      const printed = JSON.parse(stdout) as { paths: unknown; components: unknown };
      const served = JSON.parse(document) as { paths: unknown; components: unknown };
      expect(printed.paths).toEqual(served.paths);
      expect(printed.components).toEqual(served.components);
      expect(fs.readdirSync(cwd)).toEqual([]);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
