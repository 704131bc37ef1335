import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DB, ListingState } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { FEED_FORMATS, type FeedFormat } from '../feed-formats.js';
import type { ExportScope, FeedExporter } from './feed-export.service.js';
import { findDirectoryRecordOf } from '../directory-records.repository.js';

/** A feed as an HTTP download: its media type, the file name to save it as, and the text as a byte stream. */
export interface FeedFile {
  mediaType: string;
  filename: string;
  body: Readable;
}

/** What a portal sees (GET /feeds/{token}): what is on the market, never a draft or a sold house. */
export const PORTAL_STATES: readonly ListingState[] = ['publish'];

/**
 * Feeds over HTTP (docs/data-exchange.md, "Over HTTP"): who gets which listings, and the writer's text as a
 * stream that holds one page of listings at a time, whatever the database's size.
 */
export class FeedDownloads {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly exporter: FeedExporter,
  ) {}

  /**
   * GET /exports/{format}: administrators and managers get everything; an agency user their agency's listings
   * (and its agents); an agent user the listings naming them. The scope is settled before the first byte, so a
   * refusal is a whole error answer, never a cut file.
   */
  async forCaller(caller: AuthUser, format: FeedFormat): Promise<FeedFile> {
    return this.file(format, await this.scopeOf(caller));
  }

  /** The feed of `scope` in `format`. */
  file(format: FeedFormat, scope: ExportScope): FeedFile {
    const { write, mediaType, extension } = FEED_FORMATS[format];
    // Bytes, not object mode: the stream's buffer is then counted in bytes (16 KiB) rather than in pieces.
    const body = Readable.from(write(this.exporter.content(scope)), { objectMode: false });
    return { mediaType, filename: `listings.${extension}`, body };
  }

  private async scopeOf(caller: AuthUser): Promise<ExportScope> {
    switch (caller.role) {
      case 'administrator':
      case 'manager':
        return {};
      case 'agency': {
        const agencyId = await findDirectoryRecordOf(this.db, 'agencies', caller.id);
        // Without its record an agency has no listings; an empty scope would mean every listing instead.
        if (agencyId === undefined) throw new AppError('forbidden', 'export_no_agency_record');
        return { agencyId };
      }
      case 'agent': {
        const agentId = await findDirectoryRecordOf(this.db, 'agents', caller.id);
        if (agentId === undefined) throw new AppError('forbidden', 'export_no_agent_record');
        return { agentId };
      }
      default:
        throw new AppError('forbidden');
    }
  }
}
