import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import { pageWindow, paginationOf } from '../../../lib/paging.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { plainText } from '../../../lib/text.js';
import { nowIso } from '../../../lib/time.js';
import type { AccountsService } from '../../accounts/index.js';
import { checkedFeedUrl, sourceNameOfFile, sourceNameOfUrl } from './feed-urls.js';
import type { ImportFiles } from './import-files.js';
import { toImportRun, toImportRunDetail } from './import-runs.mapper.js';
import * as repository from './import-runs.repository.js';
import type {
  CreateUrlImportInput,
  ImportRequest,
  ImportRunDetailRecord,
  ImportRunListRecord,
  ImportRunRecord,
  ListImportRunsInput,
} from './import-runs.schemas.js';

/** An upload received and on disk: its random key and the name its client gave it. */
export interface ReceivedUpload {
  fileKey: string;
  fileName: string;
}

/**
 * Imports over HTTP (docs/data-exchange.md, "Imports over HTTP"): administrators queue an upload or a URL and
 * follow the run; the `feed-imports` job runs it (import-runner.service.ts). The routes say who may.
 */
export class ImportRuns {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
    private readonly files: ImportFiles,
  ) {}

  /** Queues an upload already on disk; the file goes again if the request is refused. */
  async queueUpload(caller: AuthUser, upload: ReceivedUpload, request: ImportRequest, now = new Date()): Promise<ImportRunRecord> {
    try {
      const fileName = plainText(upload.fileName).slice(0, 200);
      const source = this.sourceName(request.source, sourceNameOfFile(fileName) || 'upload');
      const ownerId = await this.ownerId(request.ownerEmail);
      const row = await repository.insertRun(this.db, {
        ...this.runValues(caller, request, source, ownerId, now),
        file_name: fileName,
        file_key: upload.fileKey,
      });
      return toImportRun(row);
    } catch (error) {
      await this.files.remove(upload.fileKey);
      throw error;
    }
  }

  /** Queues a URL: checked for its form now, downloaded through the outbound guard by the job. */
  async queueUrl(caller: AuthUser, input: CreateUrlImportInput, now = new Date()): Promise<ImportRunRecord> {
    const url = checkedFeedUrl(input.url, 'url');
    const request: ImportRequest = {
      format: input.format,
      source: input.source,
      dryRun: input.dry_run ?? false,
      strict: input.strict ?? false,
      withdrawMissing: input.withdraw_missing ?? false,
      ownerEmail: input.owner_email,
    };
    const source = this.sourceName(request.source, sourceNameOfUrl(url));
    const ownerId = await this.ownerId(request.ownerEmail);
    const row = await repository.insertRun(this.db, { ...this.runValues(caller, request, source, ownerId, now), url });
    return toImportRun(row);
  }

  async get(id: number): Promise<ImportRunDetailRecord> {
    const row = await repository.findRun(this.db, id);
    if (!row) throw AppError.notFound();
    const [rejections, warnings] = await Promise.all([repository.findRejections(this.db, id), repository.findWarnings(this.db, id)]);
    return toImportRunDetail(row, rejections, warnings);
  }

  async list(query: ListImportRunsInput): Promise<ImportRunListRecord> {
    const window = pageWindow(query);
    const [total, rows] = await Promise.all([repository.countRuns(this.db), repository.findRuns(this.db, window.perPage, window.offset)]);
    return { import_runs: rows.map(toImportRun), pagination: paginationOf(total, window) };
  }

  private runValues(caller: AuthUser, request: ImportRequest, source: string, ownerId: number | null, now: Date) {
    return {
      state: 'queued' as const,
      format: request.format,
      source,
      dry_run: request.dryRun ? 1 : 0,
      strict: request.strict ? 1 : 0,
      withdraw_missing: request.withdrawMissing ? 1 : 0,
      owner_id: ownerId,
      created_by: caller.id,
      created_at: nowIso(now),
    };
  }

  /** The name given (plain text, not blank), else the default the file or URL gives. */
  private sourceName(given: string | undefined, fallback: string): string {
    if (given === undefined) return fallback;
    const name = plainText(given);
    if (name === '') throw AppError.invalidField('source', 'import_rule_blank_name');
    return name;
  }

  private async ownerId(email: string | undefined): Promise<number | null> {
    if (email === undefined) return null;
    const owner = await this.users.findByEmail(email.trim().toLowerCase());
    if (!owner) throw AppError.invalidField('owner_email', 'import_rule_unknown_owner');
    return owner.id;
  }
}
