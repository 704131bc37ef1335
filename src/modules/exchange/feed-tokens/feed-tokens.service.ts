import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { plainText } from '../../../lib/text.js';
import { nowIso, toApiTimestamp } from '../../../lib/time.js';
import type { PortalFeedAnswer, PortalFeeds } from '../export/portal-feeds.service.js';
import { isFeedFormat } from '../feed-formats.js';
import * as repository from './feed-tokens.repository.js';
import type { CreateFeedTokenInput, CreatedFeedTokenRecord, FeedTokenListRecord, FeedTokenRecord } from './feed-tokens.schemas.js';

/** A pull is recorded at most this often per token: a portal polling every few seconds writes once a minute. */
const TOUCH_INTERVAL_MS = 60_000;
const HINT_LENGTH = 4;

/**
 * Portal feed tokens (docs/data-exchange.md, "Over HTTP"): secret URLs from which a portal pulls the published
 * listings without signing in. Administrators make, list and revoke them (the routes say who may).
 */
export class FeedTokens {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly feeds: PortalFeeds,
    /** Where feed URLs start: the API's public base URL (Platform.apiBaseUrl). */
    private readonly apiBaseUrl: string,
  ) {}

  /** A new token: 256 random bits. Only its hash is kept, so this answer is the only time it is seen. */
  async create(caller: AuthUser, input: CreateFeedTokenInput, now = new Date()): Promise<CreatedFeedTokenRecord> {
    const name = plainText(input.name);
    if (name === '') throw AppError.invalidField('name', 'feed_token_rule_blank_name');
    const token = randomBytes(32).toString('base64url');
    const row = await repository.insertFeedToken(this.db, {
      name,
      format: input.format,
      token_hash: hashOf(token),
      token_hint: token.slice(-HINT_LENGTH),
      created_by: caller.id,
      created_at: nowIso(now),
    });
    return { ...toFeedToken(row), token, url: `${this.apiBaseUrl}/feeds/${token}` };
  }

  async list(): Promise<FeedTokenListRecord> {
    const rows = await repository.findFeedTokens(this.db);
    return { feed_tokens: rows.map(toFeedToken), total_feed_tokens: rows.length };
  }

  /** Deletes the token: its URL answers 404 from now on. Unknown (or already revoked) → 404. */
  async revoke(id: number): Promise<void> {
    if (!(await repository.deleteFeedToken(this.db, id))) throw AppError.notFound();
  }

  /**
   * GET /feeds/{token}: the token's format of the published listings, with the agencies and the visible agents
   * (a hidden agent is neither listed nor named on a listing). The token is found by its SHA-256 through a unique index: the database
   * compares hashes, whose bytes an attacker cannot steer towards a real token, so the time a lookup takes
   * tells nothing about the token. Unknown → 404, never 401, and so is a token of any other shape or length
   * (the routes let every one through), so that a guess learns nothing. The feed itself is the one every token
   * of its format shares (PortalFeeds: kept while the data holds).
   */
  async pull(token: string, now = new Date()): Promise<PortalFeedAnswer> {
    const row = await repository.findFeedTokenByHash(this.db, hashOf(token));
    if (!row || !isFeedFormat(row.format)) throw AppError.notFound();
    const staleBefore = nowIso(new Date(now.getTime() - TOUCH_INTERVAL_MS));
    // Checked on the row just read first: most pulls within the minute write nothing at all.
    if (row.last_used_at === null || row.last_used_at < staleBefore) {
      await repository.touchFeedToken(this.db, row.id, nowIso(now), staleBefore);
    }
    return this.feeds.answer(row.format);
  }

  /** What a token's pulls are counted under by the per-token rate limit: its hash, so that no counter (in Redis either) holds a token. */
  pullKeyOf(token: string): string {
    return `feed-token:${hashOf(token)}`;
  }
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toFeedToken(row: repository.FeedTokenRow): FeedTokenRecord {
  if (!isFeedFormat(row.format)) throw new Error(`feed token ${row.id} has an unknown format: ${row.format}`);
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    hint: row.token_hint,
    created_by: row.created_by,
    created_at: toApiTimestamp(row.created_at),
    last_used_at: row.last_used_at === null ? null : toApiTimestamp(row.last_used_at),
  };
}
