import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/envelope.js';
import { AppError } from '../../../lib/errors.js';
import type { NotificationHub } from '../delivery/notification-hub.service.js';
import type { NotificationRecord } from '../notifications.schemas.js';
import type { NotificationsService } from '../notifications.service.js';

export interface NotificationStreamRouteOptions {
  notifications: NotificationsService;
  hub: NotificationHub;
  /** NOTIFICATION_STREAM_HEARTBEAT_SECONDS, in milliseconds. */
  heartbeatMs: number;
  /** Open streams one user may hold in this process; the next one is a 429. Default 5. */
  maxStreamsPerUser?: number;
}

const INT4_MAX = 2_147_483_647;
/** The reconnection delay the stream asks clients for (the SSE `retry` field). */
const RETRY_MS = 5000;
/** Notifications read from the database at a time while replaying after Last-Event-ID. */
const REPLAY_PAGE = 100;
/** A client this far behind is disconnected (it resumes with Last-Event-ID) instead of growing memory. */
const MAX_UNSENT_BYTES = 1024 * 1024;
/** Retry-After of the 429 when a user holds too many streams. */
const STREAMS_RETRY_AFTER_SECONDS = 30;
const DEFAULT_MAX_STREAMS_PER_USER = 5;
/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * How long replayed ids are remembered once live. A notification committed just before the replay read it
 * may still be on its way through the hub (published after the commit, by whichever process wrote it).
 */
const REPLAYED_MEMORY_MS = 60_000;

const StreamQuery = Type.Object(
  {
    last_event_id: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: INT4_MAX,
        description: 'Replay the notifications after this id first (the `Last-Event-ID` header wins when both are sent)',
      }),
    ),
  },
  { additionalProperties: false },
);

const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: INT4_MAX,
      description: 'The id of the last event received; sent by EventSource clients when they reconnect',
    }),
  ),
});

const EventStream = {
  description:
    'An endless `text/event-stream`. Each notification is one event:\n\n' +
    '```\nid: 42\nevent: notification\ndata: {"id":42,"type":"system","title":"…","message":"…","data":{},"is_read":false,"created_at":"…"}\n\n```\n' +
    '`data` is the Notification record of GET /notifications. The stream starts with `retry: 5000` and sends a ' +
    '`: heartbeat` comment every NOTIFICATION_STREAM_HEARTBEAT_SECONDS (default 25).',
  content: { 'text/event-stream': { schema: Type.String() } },
};

/**
 * GET /notifications/stream (docs/api.md 8): the caller's new notifications as Server-Sent Events, with the
 * gap since `Last-Event-ID` replayed from the database first. The route takes the response over
 * (`reply.hijack()`), so neither the JSON serializer nor @fastify/compress touches it: a compressed
 * event stream would sit in the compressor's buffer instead of reaching the client.
 */
export async function notificationStreamRoutes(app: FastifyInstance, options: NotificationStreamRouteOptions) {
  const { notifications, hub, heartbeatMs } = options;
  const maxStreamsPerUser = options.maxStreamsPerUser ?? DEFAULT_MAX_STREAMS_PER_USER;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const open = new Set<NotificationStream>();
  const perUser = new Map<number, number>();

  // Open streams never finish on their own: end them before the server waits for in-flight requests.
  app.addHook('preClose', async () => {
    for (const stream of [...open]) stream.end({ closeConnection: true });
  });

  api.get(
    '/notifications/stream',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: 'The caller’s new notifications, live (Server-Sent Events)',
        description:
          'Each notification created for the caller arrives as an SSE event `notification` whose `id` is the ' +
          'notification id, across every server process (through Redis when REDIS_URL is set). Authenticate with ' +
          'the Bearer token, as on every route: browsers use a fetch-based EventSource (for example ' +
          '`@microsoft/fetch-event-source`), because the native `EventSource` cannot send headers. On reconnection ' +
          'send `Last-Event-ID` (or `?last_event_id=` on the first connection): the caller’s notifications after ' +
          'that id are sent first, oldest first, then the live ones, none missed or repeated. A client that falls ' +
          'far behind, a stream whose access token expires, every stream when the server shuts down, and (with Redis) every stream open while the ' +
          'server’s subscription was interrupted are disconnected: reconnect with Last-Event-ID. ' +
          `At most ${maxStreamsPerUser} open streams per user and server process; one more → 429 with Retry-After.`,
        security: [{ bearer: [] }],
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: { 200: EventStream, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const header = request.headers['last-event-id'];
      const afterId = header !== undefined ? Number(header) : request.query.last_event_id;
      const held = perUser.get(userId) ?? 0;
      if (held >= maxStreamsPerUser) {
        throw new AppError('rate_limited', 'rate_limited', [], { seconds: STREAMS_RETRY_AFTER_SECONDS });
      }
      perUser.set(userId, held + 1);

      reply.hijack();
      reply.raw.writeHead(200, streamHeaders(reply));
      const stream = new NotificationStream(reply.raw, request.log, heartbeatMs, request.user!.tokenExpiresAt, () => {
        open.delete(stream);
        const count = (perUser.get(userId) ?? 1) - 1;
        if (count > 0) perUser.set(userId, count);
        else perUser.delete(userId);
      });
      open.add(stream);
      // Subscribed before the database is read: whatever is created meanwhile is buffered, not lost.
      stream.attach(
        hub.subscribe(
          userId,
          (notification) => stream.push(notification),
          () => stream.end(),
        ),
      );
      // A client gone while its token was checked never emits `close` again.
      if (reply.raw.destroyed) return stream.dispose();
      await stream.start(afterId === undefined ? undefined : { afterId, read: (after) => notifications.after(userId, after, REPLAY_PAGE) });
    },
  );
}

/** The headers the app set for this request (request id, security, CORS), and those of an event stream. */
function streamHeaders(reply: FastifyReply): OutgoingHttpHeaders {
  const { 'content-length': _length, 'content-encoding': _encoding, ...app } = reply.getHeaders();
  return {
    ...(app as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // nginx buffers proxied answers unless told not to.
    'x-accel-buffering': 'no',
  };
}

/** One open response: the replay, the live events after it, the heartbeat and the cleanup. */
class NotificationStream {
  /** Live notifications that arrived during the replay; undefined once live. */
  private buffered: NotificationRecord[] | undefined;
  /** Ids sent by the replay, skipped when they also arrive live, until `replayedUntil`. */
  private replayed: Set<number> | undefined;
  private replayedUntil = 0;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly expiry: NodeJS.Timeout;
  private detach: () => void = () => {};
  private disposed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly log: FastifyBaseLogger,
    heartbeatMs: number,
    tokenExpiresAt: Date,
    private readonly onDispose: () => void,
  ) {
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), heartbeatMs);
    // The stream lives no longer than the token that opened it: the client reconnects with a fresh one.
    this.expiry = setTimeout(() => this.end(), Math.min(MAX_TIMER_MS, Math.max(0, tokenExpiresAt.getTime() - Date.now())));
    this.expiry.unref();
    res.on('close', () => this.dispose());
  }

  /** The hub subscription's unsubscribe function, called when the stream ends. */
  attach(unsubscribe: () => void): void {
    if (this.disposed) unsubscribe();
    else this.detach = unsubscribe;
  }

  /**
   * Sends the retry delay, then the notifications after `replay.afterId` page by page (when asked), then
   * the live ones that arrived meanwhile and were not in the replay. Never throws.
   */
  async start(replay: { afterId: number; read: (afterId: number) => Promise<NotificationRecord[]> } | undefined): Promise<void> {
    this.write(`retry: ${RETRY_MS}\n\n`);
    if (replay === undefined) return;
    this.buffered = [];
    const sent = new Set<number>();
    try {
      let cursor = replay.afterId;
      for (;;) {
        const page = await replay.read(cursor);
        if (this.disposed) return;
        for (const notification of page) {
          this.send(notification);
          sent.add(notification.id);
          cursor = Math.max(cursor, notification.id);
        }
        if (page.length < REPLAY_PAGE || !(await this.drained())) break;
      }
    } catch (error) {
      this.log.error({ err: error }, 'notification stream replay failed; the client resumes with Last-Event-ID');
      this.end();
      return;
    }
    const buffered = this.buffered ?? [];
    this.buffered = undefined;
    this.replayed = sent;
    this.replayedUntil = Date.now() + REPLAYED_MEMORY_MS;
    for (const notification of buffered) this.push(notification);
  }

  push(notification: NotificationRecord): void {
    if (this.buffered) {
      this.buffered.push(notification);
      return;
    }
    if (this.replayed && Date.now() > this.replayedUntil) this.replayed = undefined;
    if (!this.replayed?.has(notification.id)) this.send(notification);
  }

  /**
   * Ends the response; the client reconnects after `retry` and resumes with Last-Event-ID. At shutdown the
   * connection is closed too: a keep-alive socket left idle would hold the server's close open.
   */
  end({ closeConnection = false } = {}): void {
    if (this.res.writableEnded) return;
    const socket = this.res.socket;
    this.res.end(() => {
      if (closeConnection) socket?.destroy();
    });
    this.dispose();
  }

  private send(notification: NotificationRecord): void {
    this.write(`id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`);
  }

  private write(chunk: string): void {
    if (this.disposed || this.res.writableEnded) return;
    this.res.write(chunk);
    // The replay waits for the client between pages; live events only pile up when it does not read.
    if (this.buffered === undefined && this.res.writableLength > MAX_UNSENT_BYTES) {
      this.log.warn('notification stream client too slow; disconnected');
      this.end();
    }
  }

  /** Waits until written data has left the buffer; false if the stream closed meanwhile. */
  private async drained(): Promise<boolean> {
    if (this.disposed) return false;
    if (!this.res.writableNeedDrain) return true;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
    return !this.disposed;
  }

  /** Releases the heartbeat, the subscription and the user's slot; runs once, when the response closes. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.expiry);
    this.detach();
    this.buffered = undefined;
    this.replayed = undefined;
    this.onDispose();
  }
}
