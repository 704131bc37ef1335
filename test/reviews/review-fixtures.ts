import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ReviewTarget } from '../../src/db/schema/index.js';
import type { TestApp } from '../helpers/app.js';

export const API = '/realty-api/v1';
export type Auth = Record<string, string>;

const SEGMENT: Record<ReviewTarget, string> = { property: 'properties', agent: 'agents', agency: 'agencies' };

/** The reviews path of a target, e.g. `/realty-api/v1/agents/7/reviews`. */
export function reviewsPath(type: ReviewTarget, id: number): string {
  return `${API}/${SEGMENT[type]}/${id}/reviews`;
}

export interface ReviewClient {
  list(type: ReviewTarget, id: number, query?: string, auth?: Auth): Promise<LightMyRequestResponse>;
  create(auth: Auth | undefined, type: ReviewTarget, id: number, payload: object, remoteAddress?: string): Promise<LightMyRequestResponse>;
  react(auth: Auth | undefined, reviewId: number, action: string): Promise<LightMyRequestResponse>;
  remove(auth: Auth | undefined, reviewId: number): Promise<LightMyRequestResponse>;
}

export function reviewClient(t: TestApp): ReviewClient {
  return {
    list: (type, id, query = '', auth) => t.app.inject({ method: 'GET', url: `${reviewsPath(type, id)}${query}`, headers: auth ?? {} }),
    create: (auth, type, id, payload, remoteAddress) =>
      t.app.inject({
        method: 'POST',
        url: reviewsPath(type, id),
        headers: auth ?? {},
        payload,
        ...(remoteAddress ? { remoteAddress } : {}),
      }),
    react: (auth, reviewId, action) =>
      t.app.inject({ method: 'POST', url: `${API}/reviews/${reviewId}/action`, headers: auth ?? {}, payload: { action } }),
    remove: (auth, reviewId) => t.app.inject({ method: 'DELETE', url: `${API}/reviews/${reviewId}`, headers: auth ?? {} }),
  };
}

export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, code, message: expect.any(String), request_id: expect.any(String) });
}

/** The created review's id, after checking the answer is a 201. */
export function createdId(res: LightMyRequestResponse): number {
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}
