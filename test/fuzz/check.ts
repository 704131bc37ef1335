import type { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { ERROR_STATUS } from '../../src/lib/errors.js';
import type { FuzzRequest } from './requests.js';
import type { CallerName } from './world.js';

/** Every request must be answered within this time. */
const ANSWER_TIMEOUT_MS = 10_000;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

class Timeout extends Error {}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(`no answer within ${ms / 1000} s (${what})`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function decoded(raw: Buffer, encoding: unknown): string {
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'deflate') return inflateSync(raw).toString('utf8');
  return raw.toString('utf8');
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Sends the request through `app.inject()` and waits at most ANSWER_TIMEOUT_MS for the whole answer. For the
 * endless notification stream (`streams`) a 200 `text/event-stream` counts as answered once its head is sent,
 * and is then closed as a client would.
 */
export async function send(app: FastifyInstance, request: FuzzRequest, headers: Record<string, string>, streams: boolean): Promise<Answer> {
  const options = {
    method: request.method as 'GET',
    url: request.url,
    headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  };
  if (!streams) {
    const response = await within(app.inject(options), ANSWER_TIMEOUT_MS, 'inject');
    return {
      status: response.statusCode,
      headers: response.headers,
      body: decoded(response.rawPayload, response.headers['content-encoding']),
    };
  }
  const started = Date.now();
  const response = await within(app.inject({ ...options, payloadAsStream: true }), ANSWER_TIMEOUT_MS, 'stream head');
  const type = String(response.headers['content-type'] ?? '');
  if (response.statusCode === 200 && type.startsWith('text/event-stream')) {
    (response.raw.res as unknown as { destroy(): void }).destroy();
    return { status: 200, headers: response.headers, body: '' };
  }
  const raw = await within(readAll(response.stream()), Math.max(1, ANSWER_TIMEOUT_MS - (Date.now() - started)), 'stream body');
  return { status: response.statusCode, headers: response.headers, body: decoded(raw, response.headers['content-encoding']) };
}

export function isTimeout(error: unknown): boolean {
  return error instanceof Timeout;
}

const ENVELOPE_KEYS = new Set(['success', 'code', 'message', 'errors', 'request_id']);

/** What is wrong with an answer: a 5xx, or an error that is not the envelope of docs/api.md 0.2. Undefined when fine. */
export function problemWith(answer: Answer): string | undefined {
  if (answer.status >= 500) return `server error ${answer.status}`;
  if (answer.status < 400) return undefined;
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return `error answer of type "${type}", not JSON`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return 'error answer is not valid JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'error answer is not a JSON object';
  const envelope = body as Record<string, unknown>;
  const extra = Object.keys(envelope).filter((key) => !ENVELOPE_KEYS.has(key));
  if (extra.length > 0) return `error answer has fields outside the envelope: ${extra.join(', ')}`;
  if (envelope.success !== false) return 'error answer without success: false';
  if (typeof envelope.code !== 'string') return 'error answer without a string code';
  if (typeof envelope.message !== 'string' || envelope.message === '') return 'error answer without a message';
  const expected = (ERROR_STATUS as Record<string, number>)[envelope.code];
  if (expected === undefined) return `error code "${envelope.code}" is not one of docs/api.md 0.2`;
  if (expected !== answer.status) return `error code "${envelope.code}" answered with ${answer.status}, documented with ${expected}`;
  const requestId = answer.headers['x-request-id'];
  if (typeof envelope.request_id !== 'string' || envelope.request_id !== requestId) {
    return `request_id ${JSON.stringify(envelope.request_id)} differs from X-Request-Id ${JSON.stringify(requestId)}`;
  }
  if (envelope.errors !== undefined) {
    const fine =
      Array.isArray(envelope.errors) &&
      envelope.errors.every(
        (e: unknown) =>
          typeof e === 'object' &&
          e !== null &&
          typeof (e as { field?: unknown }).field === 'string' &&
          typeof (e as { message?: unknown }).message === 'string',
      );
    if (!fine) return 'error answer whose `errors` is not a list of { field, message }';
  }
  return undefined;
}

export interface Failure {
  operation: string;
  index: number;
  caller: CallerName;
  request: FuzzRequest;
  problem: string;
  status?: number;
  body?: string;
}

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text);

/** A failure as a reader reproduces it: the request as sent (long values clipped), the answer, how it was made. */
export function describeFailure(failure: Failure): string {
  const { request } = failure;
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, clip(v, 120)]));
  const payload = request.payload === undefined ? '(none)' : clip(JSON.stringify(request.payload.toString('utf8')), 300);
  return [
    `${failure.operation} — request #${failure.index} as ${failure.caller}: ${failure.problem}`,
    `  ${request.method} ${clip(request.url, 300)}`,
    `  headers: ${JSON.stringify(headers)}${failure.caller === 'anonymous' ? '' : ` + Authorization of the ${failure.caller}`}`,
    `  body: ${payload}`,
    `  made by: ${request.classes.join(' + ')}`,
    ...(failure.status === undefined ? [] : [`  answer: ${failure.status} ${clip(failure.body ?? '', 400)}`]),
  ].join('\n');
}
