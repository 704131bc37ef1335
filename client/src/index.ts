/**
 * A typed client of the realty-api JSON API: every path, parameter, body and answer of the OpenAPI document,
 * checked by TypeScript, over openapi-fetch (a thin wrapper of `fetch`). See ../README.md.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './openapi.js';

export type { components, operations, paths };

/** The document's shared schemas by name: `Schemas['PropertySummary']`, `Schemas['ErrorBody']`, … */
export type Schemas = components['schemas'];

/**
 * The `data` of an operation's success answer (200 or 201), for the answers the document writes inline:
 * `AnswerData<'/realty-api/v1/imports/{id}', 'get'>` is one import run with its rejections and warnings.
 */
export type AnswerData<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : paths[P][M] extends { responses: { 201: { content: { 'application/json': { data: infer D } } } } }
    ? D
    : never;

/**
 * The JSON request body of an operation: `RequestBody<'/realty-api/v1/notifications', 'post'>` is a broadcast's
 * title, message, type and target.
 */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** What every successful answer is wrapped in (docs/api.md 0.2). */
export interface Envelope<T> {
  success: true;
  data: T;
  message?: string;
}

export interface RealtyClientOptions {
  /** The site's root, e.g. `https://realty.example` (the paths carry `/realty-api/v1`). */
  baseUrl: string;
  /** The current access token, asked before each request; none for an anonymous caller. */
  accessToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /** Another `fetch` (tests, a server runtime). */
  fetch?: typeof globalThis.fetch;
}

/** A client whose `GET`, `POST`, `PUT`, `PATCH` and `DELETE` take the document's paths and give typed answers. */
export function createRealtyClient({ baseUrl, accessToken, fetch }: RealtyClientOptions): Client<paths> {
  const client = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) });
  if (accessToken) {
    const bearer: Middleware = {
      async onRequest({ request }) {
        const token = await accessToken();
        if (token) request.headers.set('authorization', `Bearer ${token}`);
        return request;
      },
    };
    client.use(bearer);
  }
  return client;
}
