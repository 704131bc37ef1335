import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FOR_CLIENTS, routesOfScopes } from '../../src/modules/api-clients/client-scopes.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** Every operation of the API, `METHOD /pattern` under /realty-api/v1, read from the OpenAPI document. */
function routesOfDocument(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  const api = Object.entries(document.paths).filter(([path]) => path.startsWith('/realty-api/v1/'));
  return api.flatMap(([path, operations]) =>
    Object.keys(operations).map(
      (method) => `${method.toUpperCase()} ${path.replace(/^\/realty-api\/v1/, '').replace(/\{([^}]+)\}/g, ':$1')}`,
    ),
  );
}

describe('machine clients’ scopes', () => {
  let t: TestApp;
  let document: { paths: Record<string, Record<string, { security?: Record<string, string[]>[]; 'x-client-scope'?: string }>> };

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    document = (await t.app.inject({ method: 'GET', url: '/realty-api/v1/openapi.json' })).json();
  });
  afterAll(async () => {
    await t.close();
  });

  it('decide every route of the API: granted by one scope, or kept from every client', () => {
    const routes = routesOfDocument(document);
    const granted = [...routesOfScopes().keys()];
    const undecided = routes.filter((route) => !routesOfScopes().has(route) && !NOT_FOR_CLIENTS.includes(route));
    expect(undecided, 'routes neither granted by a scope nor listed in NOT_FOR_CLIENTS').toEqual([]);
    expect(
      granted.filter((route) => NOT_FOR_CLIENTS.includes(route)),
      'routes both granted and kept from clients',
    ).toEqual([]);
    const stale = [...granted, ...NOT_FOR_CLIENTS].filter((route) => !routes.includes(route));
    expect(stale, 'entries naming no route of the API').toEqual([]);
  });

  it('are written into the OpenAPI document: each granted operation names its scope and the client schemes', () => {
    const create = document.paths['/realty-api/v1/properties']!.post!;
    expect(create['x-client-scope']).toBe('listings:write');
    expect(create.security).toEqual(expect.arrayContaining([{ bearer: [] }, { oauth2: ['listings:write'] }, { clientKey: [] }]));
    // An operation kept from clients asks for a person's token only, though its route shares its `security` list with others.
    expect(document.paths['/realty-api/v1/users/me']!.get!['x-client-scope']).toBeUndefined();
    expect(document.paths['/realty-api/v1/users/me']!.get!.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/realty-api/v1/users/reviews']!.get!.security).toEqual([{ bearer: [] }]);
    // A public operation stays public: it names the scope a client needs, and asks nothing of anyone else.
    const search = document.paths['/realty-api/v1/properties/search']!.get!;
    expect(search['x-client-scope']).toBe('listings:read');
    expect(search.security).toBeUndefined();
  });
});
