import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { errorBody } from '../helpers/expectations.js';

/** Requests and readers shared by the saved-search tests. */

export const API = '/realty-api/v1';

export type Auth = Record<string, string>;

export interface SavedSearchClient {
  create(auth: Auth | undefined, body: unknown, query?: string): Promise<LightMyRequestResponse>;
  list(auth: Auth | undefined, query?: string, path?: string): Promise<LightMyRequestResponse>;
  update(auth: Auth | undefined, id: number, body: unknown): Promise<LightMyRequestResponse>;
  remove(auth: Auth | undefined, id: number, path?: string): Promise<LightMyRequestResponse>;
  matches(auth: Auth | undefined, id: number, query?: string): Promise<LightMyRequestResponse>;
}

export function savedSearchClient(app: FastifyInstance): SavedSearchClient {
  const headers = (auth: Auth | undefined) => auth ?? {};
  return {
    create: (auth, body, query = '') =>
      app.inject({ method: 'POST', url: `${API}/saved-searches${query}`, headers: headers(auth), payload: body as object }),
    list: (auth, query = '', path = '/saved-searches') =>
      app.inject({ method: 'GET', url: `${API}${path}${query}`, headers: headers(auth) }),
    update: (auth, id, body) =>
      app.inject({ method: 'PUT', url: `${API}/saved-searches/${id}`, headers: headers(auth), payload: body as object }),
    remove: (auth, id, path = '/saved-searches') => app.inject({ method: 'DELETE', url: `${API}${path}/${id}`, headers: headers(auth) }),
    matches: (auth, id, query = '') =>
      app.inject({ method: 'GET', url: `${API}/saved-searches/${id}/matches${query}`, headers: headers(auth) }),
  };
}

/** Asserts the status and the error code; answers the body's field errors. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): { field: string; message: string }[] {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject(errorBody(code));
  return res.json().errors ?? [];
}

/** The fields a 400 names. */
export function fieldsOf(res: LightMyRequestResponse): string[] {
  return expectError(res, 400, 'validation_failed').map((error) => error.field);
}

/** The id of a saved search created through the API (201 asserted). */
export async function createdId(client: SavedSearchClient, auth: Auth, body: unknown): Promise<number> {
  const res = await client.create(auth, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}

/** Stores `count` saved searches for the user directly, faster than through the API (limit tests). */
export async function insertSavedSearches(db: Kysely<DB>, userId: number, count: number): Promise<void> {
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: userId,
    name: `Search ${i + 1}`,
    query_string: `min_price=${(i + 1) * 1000}`,
    created_at: now,
    updated_at: now,
  }));
  if (rows.length > 0) await db.insertInto('saved_searches').values(rows).execute();
}
