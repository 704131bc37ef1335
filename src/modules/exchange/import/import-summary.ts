/** What a feed import is asked to do and what it answers: its options, counts, rejections, warnings and summary. */
import type { FeedListing, FeedRecord } from '../../../adapters/feeds/feed-records.js';
import type { FeedFormat } from '../feed-formats.js';

export interface ImportOptions {
  /** The source's name: its keys are unique within it, and withdrawal looks only at its listings. */
  source: string;
  /** The administrator the import acts as: listings' history records the changes as theirs. */
  actorId: number;
  /** The author of the listings the import creates (default: the actor). */
  ownerId?: number;
  /** The account of a record's `owner` (a WordPress author's e-mail), when the source names one. */
  ownerOf?: (owner: string) => number | undefined;
  /**
   * Whether a reference of digits may name an agent or agency by its id here (FEED_FORMATS `directoryIds`: CSV).
   * Otherwise only the feed's own Members and Offices and e-mails name them.
   */
  directoryIds?: boolean;
  /**
   * The feed's format, when it is one this site also writes: a listing made here that the feed names by the key an
   * export of this site gave it (`realty:<site key>:<id>`) is then found and updated in place (own-listings.service.ts).
   */
  format?: FeedFormat;
  dryRun?: boolean;
  /**
   * A record with a warning is rejected instead (its warnings are its errors), and the import stops at the first
   * rejected record (what was written before it stays).
   */
  strict?: boolean;
  /** Move the source's listings that the feed no longer lists to `expired`. */
  withdrawMissing?: boolean;
  onProgress?: (progress: ImportCounts) => void;
  /** Each rejection as it is found. */
  onRejected?: (rejection: Rejection) => void;
  /** Each warning of an imported record, in file order within a batch. */
  onWarning?: (warning: Warning) => void;
  /**
   * Each listing record that was created, updated or found unchanged (in a dry run: would be), with the listing as
   * imported (without the values its warnings left out), once its batch is done: what a migration report counts.
   */
  onImported?: (record: ListingRecord, listing: FeedListing) => void;
}

export type ListingRecord = Extract<FeedRecord, { kind: 'listing' }>;

export interface ImportCounts {
  /** Records read, of every kind. */
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
  rejected: number;
  /** Optional values left out of the records imported (each a warning). */
  warnings: number;
}

export interface Rejection {
  /** Where the record is in the file: `line 12`, `Property[3]`. */
  at: string;
  /** The record's key, when it has one. */
  key?: string;
  errors: { field: string; reason: string }[];
}

/**
 * An optional value that could not be read or was not valid, left out of a record that was imported without it:
 * where the record is, its key, the field (a path such as `floor_plans.2.size`) and why.
 */
export interface Warning {
  at: string;
  key?: string;
  field: string;
  reason: string;
}

export interface ImportSummary extends ImportCounts {
  dryRun: boolean;
  /** Agents and agencies made from the feed's Member and Office records (in a dry run: that would be made). */
  agentsCreated: number;
  agenciesCreated: number;
  /** Whether `--strict` stopped the import at a rejection. */
  stopped: boolean;
  /** The first rejections (at most `MAX_REPORTED`); `rejected` counts them all. */
  rejections: Rejection[];
  /** The first warnings (at most `MAX_REPORTED`); `warnings` counts them all. */
  reportedWarnings: Warning[];
  /** Old addresses of the records written that were kept as redirects (in a dry run: would be). */
  redirectsKept: number;
}
