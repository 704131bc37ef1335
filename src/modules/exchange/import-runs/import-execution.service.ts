import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type FeedRecord, FeedSyntaxError } from '../../../adapters/feeds/feed-records.js';
import type { WxrRecord } from '../../../adapters/feeds/wxr/wxr-reader.js';
import { OutboundError, type OutboundPolicy, openGuardedUrl } from '../../../adapters/http/guarded-fetch.js';
import type { DB } from '../../../db/schema/index.js';
import { translate } from '../../../i18n/index.js';
import { AppError } from '../../../lib/errors.js';
import { nowIso } from '../../../lib/time.js';
import type { AccountsService } from '../../accounts/index.js';
import { FEED_FORMATS, isFeedFormat } from '../feed-formats.js';
import type { FeedImporter } from '../import/feed-importer.service.js';
import type { ImportCounts, ImportOptions, Rejection, Warning } from '../import/import-summary.js';
import type { WordPressSiteImporter } from '../import/wordpress-site.service.js';
import { recordsReadOnThread } from './feed-reading.js';
import type { ImportFiles } from './import-files.js';
import * as repository from './import-runs.repository.js';
import { REPORTED_REJECTIONS, REPORTED_WARNINGS } from './import-runs.schemas.js';
import { cappedError, cappedRejection, cappedWarning } from './run-messages.js';

export interface ExecutionDeps {
  db: Kysely<DB>;
  feedImporter: FeedImporter;
  siteImporter: WordPressSiteImporter;
  users: AccountsService;
  files: ImportFiles;
  /** How the job downloads a URL: IMPORT_ALLOWED_HOSTS, IMPORT_MAX_FILE_BYTES, IMPORT_FETCH_TIMEOUT_MS. */
  policy: OutboundPolicy;
  log: FastifyBaseLogger;
}

/** Progress (counts, the report so far, the heartbeat) is written this often while a run runs. */
const PROGRESS_INTERVAL_MS = 1000;

/** Why a run stops early: the process shuts down (the run waits in the queue again), or another took it over. */
export type StopReason = 'shutdown' | 'lost';

/** A failure told in the run's record as it is: its words are meant for the administrator. */
class RunFailure extends Error {}
class ImportStopped extends Error {}

const ZERO: ImportCounts = { read: 0, created: 0, updated: 0, unchanged: 0, withdrawn: 0, rejected: 0, warnings: 0 };

/**
 * One claimed run, from its input to its outcome. Uploads are read from their file; a URL is downloaded whole
 * first through the outbound guard (so that the guard's time limit counts the download, not the import). The file
 * is parsed on a thread of its own (feed-reading.ts), so that no file keeps this one from serving. Every second the counts and the rejections found since are written with a heartbeat,
 * under the run's claim: a process that finds its claim gone (it was thought dead and the run was taken again)
 * stops reading and writes nothing more. The outcome (`done`, or `failed` with the reader's or the guard's
 * words, never a stack) is written under the claim too; then the upload goes.
 */
export class ImportExecution {
  private counts: ImportCounts = { ...ZERO };
  /** Rejections for the report not written yet, and how many were taken for it in all (the report is capped). */
  private readonly unsaved: Rejection[] = [];
  private reported = 0;
  private saved = 0;
  /** The same for warnings. */
  private readonly unsavedWarnings: Warning[] = [];
  private warningsReported = 0;
  private warningsSaved = 0;
  private readonly streams = new Set<Readable>();
  /** Stops the reading thread. */
  private readonly cancel = new AbortController();
  private stopping: StopReason | undefined;
  private flushing: Promise<void> | undefined;
  private readonly claim: string;

  constructor(
    private readonly deps: ExecutionDeps,
    private readonly run: repository.ImportRunRow,
  ) {
    this.claim = run.claim!;
  }

  get runId(): number {
    return this.run.id;
  }

  /** Stops reading the feed at once: the reader fails, and the import with it (what it wrote stays: imports are syncs). */
  stop(reason: StopReason): void {
    this.stopping ??= reason;
    for (const stream of this.streams) stream.destroy(new ImportStopped('stopped'));
    this.cancel.abort(new ImportStopped('stopped'));
  }

  async runToEnd(): Promise<void> {
    const timer = setInterval(() => this.flushSoon(), PROGRESS_INTERVAL_MS);
    // Files of this attempt only (a download, a WordPress export's properties), removed however it ends.
    const scratch: string[] = [];
    let error: string | null = null;
    try {
      await this.importFeed(scratch);
    } catch (failure) {
      error = cappedError(this.messageOf(failure));
    } finally {
      clearInterval(timer);
    }
    await this.flushing;
    for (const key of scratch) await this.deps.files.remove(key);
    if (this.stopping === 'lost') return; // another process runs it now, with the upload
    // Stopped by a shutdown before its end: it waits in the queue again, its file kept, for this or another process.
    const state = error === null ? 'done' : this.stopping === 'shutdown' ? 'queued' : 'failed';
    const finished = await this.finish(state, state === 'failed' ? error : null);
    if (finished && state !== 'queued') await this.deps.files.remove(this.run.file_key);
    this.deps.log.info(
      { importRun: this.run.id, state, counts: this.counts, error: state === 'failed' ? error : undefined },
      'import run ended',
    );
  }

  private async importFeed(scratch: string[]): Promise<void> {
    const { run, deps } = this;
    const actorId = await this.actorId();
    let file: string;
    if (run.file_key !== null) {
      if (!deps.files.exists(run.file_key)) throw new RunFailure('the uploaded file is no longer on this server’s disk');
      file = deps.files.pathOf(run.file_key);
    } else {
      const key = deps.files.newKey('download');
      scratch.push(key);
      await this.download(run.url!, key);
      file = deps.files.pathOf(key);
    }
    const options: ImportOptions = {
      source: run.source,
      actorId,
      ...(run.owner_id === null ? {} : { ownerId: run.owner_id }),
      dryRun: run.dry_run === 1,
      strict: run.strict === 1,
      withdrawMissing: run.withdraw_missing === 1,
      onProgress: (counts) => (this.counts = { ...counts }),
      onRejected: (rejection) => {
        if (this.reported >= REPORTED_REJECTIONS) return;
        this.reported++;
        this.unsaved.push(cappedRejection(rejection));
      },
      onWarning: (warning) => {
        if (this.warningsReported >= REPORTED_WARNINGS) return;
        this.warningsReported++;
        this.unsavedWarnings.push(cappedWarning(warning));
      },
    };
    let summary: ImportCounts;
    if (run.format === 'wxr') {
      const spool = deps.files.newKey('spool');
      scratch.push(spool);
      const records = recordsReadOnThread<WxrRecord>({ file, format: 'wxr', spoolFile: deps.files.pathOf(spool) }, this.cancel.signal);
      summary = await deps.siteImporter.run(records, options);
    } else if (isFeedFormat(run.format)) {
      const records = recordsReadOnThread<FeedRecord>({ file, format: run.format }, this.cancel.signal);
      summary = await deps.feedImporter.run(records, {
        ...options,
        directoryIds: FEED_FORMATS[run.format].directoryIds,
        format: run.format,
      });
    } else throw new RunFailure(`unknown format ${run.format}`);
    const { read, created, updated, unchanged, withdrawn, rejected, warnings } = summary;
    this.counts = { read, created, updated, unchanged, withdrawn, rejected, warnings };
  }

  /** The URL's body into a file of its own, through the outbound guard (its limits and allow-list). */
  private async download(url: string, key: string): Promise<void> {
    const { body } = await openGuardedUrl(url, this.deps.policy);
    await pipeline(this.track(body), await this.deps.files.create(key));
  }

  /** A stream that stop() destroys; none is opened once the run is stopping. */
  private track<S extends Readable>(stream: S): S {
    if (this.stopping !== undefined) {
      stream.destroy();
      throw new ImportStopped('stopped');
    }
    this.streams.add(stream);
    stream.once('close', () => this.streams.delete(stream));
    // Its reader hears of the failure through its own reading; this keeps a stop before the first read from
    // being an uncaught 'error' event.
    stream.on('error', () => {});
    return stream;
  }

  /**
   * The administrator the import acts as: who queued it (for a feed source, who made the source) while they are
   * an active administrator, else the first active administrator, as the command line does.
   */
  private async actorId(): Promise<number> {
    const { users } = this.deps;
    if (this.run.created_by !== null) {
      const account = await users.findAccount(this.run.created_by);
      if (account?.role === 'administrator' && account.status === 'active') return account.id;
    }
    const first = await users.findFirstAdministrator();
    if (!first)
      throw new RunFailure('an import acts as an administrator, and there is no active one: create one with `realty-api create-admin`');
    return first.id;
  }

  /** Starts a write of the progress unless one is under way (a slow database must not pile writes up). */
  private flushSoon(): void {
    if (this.flushing !== undefined) return;
    this.flushing = this.flush()
      .catch((error: unknown) => this.deps.log.warn({ importRun: this.run.id, reason: String(error) }, 'import progress not written'))
      .finally(() => (this.flushing = undefined));
  }

  /** The heartbeat with the counts, and the new rejections and warnings, in one transaction and only while the claim holds. */
  private async flush(): Promise<void> {
    const rejections = this.unsaved.splice(0);
    const warnings = this.unsavedWarnings.splice(0);
    const first = this.saved;
    const firstWarning = this.warningsSaved;
    try {
      const held = await this.deps.db.transaction().execute(async (trx) => {
        if (!(await repository.beat(trx, this.run.id, this.claim, nowIso(), this.counts))) return false;
        await repository.insertRejections(trx, this.run.id, first, rejections);
        await repository.insertWarnings(trx, this.run.id, firstWarning, warnings);
        return true;
      });
      if (held) {
        this.saved += rejections.length;
        this.warningsSaved += warnings.length;
      } else this.stop('lost');
    } catch (error) {
      this.unsaved.unshift(...rejections);
      this.unsavedWarnings.unshift(...warnings);
      throw error;
    }
  }

  /** The outcome with the last counts and rejections; false when the claim was lost meanwhile. */
  private async finish(state: 'done' | 'failed' | 'queued', error: string | null): Promise<boolean> {
    const rejections = this.unsaved.splice(0);
    const warnings = this.unsavedWarnings.splice(0);
    return this.deps.db.transaction().execute(async (trx) => {
      const at = state === 'queued' ? null : nowIso();
      if (!(await repository.finishRun(trx, this.run.id, this.claim, { state, error, at, counts: this.counts }))) return false;
      if (state !== 'queued') {
        await repository.insertRejections(trx, this.run.id, this.saved, rejections);
        await repository.insertWarnings(trx, this.run.id, this.warningsSaved, warnings);
      }
      return true;
    });
  }

  /** What the record says of a failure: the reader's or the guard's own words; anything else is logged, not told. */
  private messageOf(error: unknown): string {
    if (error instanceof RunFailure) return error.message;
    if (error instanceof FeedSyntaxError)
      return `the file cannot be read as ${this.run.format}: ${error.message}; nothing after it was imported`;
    if (error instanceof OutboundError) return `cannot download the feed: ${error.message}`;
    if (error instanceof ImportStopped) return 'stopped';
    if (error instanceof AppError) return translate('en', error.messageKey, error.messageParams);
    this.deps.log.error({ importRun: this.run.id, err: error }, 'import run failed');
    return `the import stopped on an unexpected error; the server log has its details (import run ${this.run.id})`;
  }
}
