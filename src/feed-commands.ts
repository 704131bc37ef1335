import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Services } from './app.js';
import { OutboundError, openGuardedUrl } from './adapters/http/guarded-fetch.js';
import type { Config } from './config.js';
import { FeedSyntaxError } from './adapters/feeds/feed-records.js';
import { readWxrSite } from './adapters/feeds/wxr/wxr-reader.js';
import {
  FEED_FORMATS,
  type FeedFormat,
  type ImportSummary,
  type MigrationReport,
  type Rejection,
  type Warning,
} from './modules/exchange/index.js';
import { ProgressBar } from './lib/progress-bar.js';

/** A failure of a feed command, told as its message alone. */
export class FeedCommandError extends Error {}

export interface ImportCommand {
  input: string;
  /** A feed format, or `wxr`: a WordPress site's export (import only). */
  format: FeedFormat | 'wxr';
  source?: string | undefined;
  ownerEmail?: string | undefined;
  dryRun: boolean;
  strict: boolean;
  withdrawMissing: boolean;
}

/**
 * `realty-api import <file> --format F`: reads the feed with a progress bar (bytes read of the file's size) on
 * stderr, prints each rejected record as it is found, and ends with the summary line.
 */
export async function importCommand(services: Services, config: Config, command: ImportCommand): Promise<void> {
  const actor = await services.users.findFirstAdministrator();
  if (!actor)
    throw new FeedCommandError('an import acts as an administrator, and there is none: create one with `realty-api create-admin`');
  let ownerId = actor.id;
  if (command.ownerEmail !== undefined) {
    const owner = await services.users.findByEmail(command.ownerEmail);
    if (!owner) throw new FeedCommandError(`--owner: no account has the e-mail ${command.ownerEmail}`);
    ownerId = owner.id;
  }
  const rejected: Rejection[] = [];
  const warned: Warning[] = [];
  const options = {
    source: command.source ?? sourceNameOf(command.input),
    actorId: actor.id,
    ownerId,
    dryRun: command.dryRun,
    strict: command.strict,
    withdrawMissing: command.withdrawMissing,
    onRejected: (rejection: Rejection) => rejected.push(rejection),
    onWarning: (warning: Warning) => {
      if (warned.length < PRINTED_WARNINGS) warned.push(warning);
    },
  };
  let scratch: string | undefined;
  let bar: ProgressBar | undefined;
  try {
    const { stream, size } = await openInput(command.input, config);
    bar = size === undefined ? undefined : new ProgressBar('bytes read', size);
    const input = counted(stream, bar);
    let summary: ImportSummary;
    let siteNote = '';
    let report: MigrationReport | undefined;
    if (command.format === 'wxr') {
      // A WordPress export's properties wait on disk until the agents and pictures after them are read (wxr-reader.ts).
      scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'realty-import-'));
      const site = await services.wordpressSiteImporter.run(readWxrSite(input, path.join(scratch, 'properties.jsonl')), options);
      siteNote = `; ${site.accountsCreated} accounts ${site.dryRun ? 'would be ' : ''}created, ${site.picturesSkipped} pictures on other hosts skipped`;
      summary = site;
      report = site.report;
    } else {
      const { read, directoryIds } = FEED_FORMATS[command.format];
      summary = await services.feedImporter.run(read(input), { ...options, directoryIds, format: command.format });
    }
    bar?.finish();
    for (const rejection of rejected) console.error(rejectionLine(rejection));
    for (const warning of warned) console.error(warningLine(warning));
    if (summary.warnings > warned.length) console.error(`… and ${summary.warnings - warned.length} more warnings`);
    const verb = summary.dryRun ? 'would be ' : '';
    const directoryNote =
      summary.agentsCreated + summary.agenciesCreated > 0
        ? `; ${plural(summary.agentsCreated, 'agent', 'agents')} and ${plural(summary.agenciesCreated, 'agency', 'agencies')} ${verb}created`
        : '';
    console.log(
      [
        summary.dryRun ? 'dry run, nothing written: ' : '',
        `${summary.created} ${verb}created, ${summary.updated} ${verb}updated, ${summary.unchanged} unchanged, `,
        `${summary.withdrawn} ${verb}withdrawn, ${summary.rejected} rejected`,
        summary.warnings > 0 ? `, ${plural(summary.warnings, 'warning', 'warnings')} (values left out)` : '',
        directoryNote,
        siteNote,
        summary.stopped ? ' (stopped at the first rejection: --strict)' : '',
      ].join(''),
    );
    if (report) console.log(reportLines(report, summary.dryRun).join('\n'));
    if (summary.rejected > 0) process.exitCode = 1;
  } catch (error) {
    bar?.finish();
    for (const rejection of rejected) console.error(rejectionLine(rejection));
    if (error instanceof FeedSyntaxError)
      throw new FeedCommandError(`the file cannot be read as ${command.format}: ${error.message}; nothing after it was imported`);
    throw error;
  } finally {
    if (scratch !== undefined) await fs.promises.rm(scratch, { recursive: true, force: true });
  }
}

/** The stream with each chunk counted on the progress bar. */
function counted(stream: NodeJS.ReadableStream, bar: ProgressBar | undefined): NodeJS.ReadableStream {
  const out = stream.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bar?.advance(chunk.length);
        done(null, chunk);
      },
    }),
  );
  stream.on('error', (error) => out.destroy(error));
  return out;
}

function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

async function fileSize(file: string): Promise<number> {
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new FeedCommandError(`${file} is not a file`);
    return stat.size;
  } catch (error) {
    if (error instanceof FeedCommandError) throw error;
    throw new FeedCommandError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** e.g. `line 12 (key A-17): price must be of type number; title must be at least 3 characters long` */
function rejectionLine(rejection: Rejection): string {
  const key = rejection.key === undefined ? '' : ` (key ${rejection.key})`;
  return `${rejection.at}${key}: ${rejection.errors.map((error) => `${error.field} ${error.reason}`).join('; ')}`;
}

/**
 * The migration report of a WordPress site, by kind, e.g.
 * ```
 * migration report:
 *   listings: 30 imported (25 publish, 3 draft, 2 sold), 0 rejected
 *   agents: 4 in the export, 2 created; agencies: 1 in the export, 1 created
 * ```
 */
function reportLines(report: MigrationReport, dryRun: boolean): string[] {
  const would = dryRun ? 'would be ' : '';
  const states = Object.entries(report.listings).map(([state, count]) => `${count} ${state}`);
  const imported = Object.values(report.listings).reduce((sum, count) => sum + count, 0);
  return [
    dryRun ? 'migration report (dry run, nothing written):' : 'migration report:',
    `  listings: ${imported} ${would}imported${states.length > 0 ? ` (${states.join(', ')})` : ''}, ${report.rejected} rejected`,
    `  agents: ${report.agents.read} in the export, ${report.agents.created} ${would}created; ` +
      `agencies: ${report.agencies.read} in the export, ${report.agencies.created} ${would}created`,
    `  accounts: ${report.accounts.created} ${would}created`,
    `  terms: ${report.terms.read} in the export, ${report.terms.created} ${would}created`,
    `  pictures: ${report.pictures.fetched} ${dryRun ? 'would be fetched' : 'to fetch'}, ${report.pictures.skipped} on other hosts skipped`,
    `  floor plans: ${report.plans} (multi-units included)`,
    `  attachments: ${report.attachments.carried} ${dryRun ? 'would be fetched' : 'to fetch'} as documents, ` +
      `${report.attachments.notCarried} not carried (not PDF, or on other hosts)`,
    `  old addresses: ${report.redirects} ${would}kept as redirects`,
    `  warnings: ${report.warnings} (values left out)`,
  ];
}

/** e.g. `line 12 (key 101): warning: floor_plans.0.size must be of type number; left out` */
function warningLine(warning: Warning): string {
  const key = warning.key === undefined ? '' : ` (key ${warning.key})`;
  return `${warning.at}${key}: warning: ${warning.field} ${warning.reason}; left out`;
}

/** The warning lines printed (each a record's value left out); the summary counts them all. */
const PRINTED_WARNINGS = 1000;

/** The default source name: the file's name without its extension (`feed.csv` → `feed`; a URL's last path segment). */
function sourceNameOf(input: string): string {
  if (!isUrl(input)) return path.basename(input).replace(/\.[^.]*$/, '') || input;
  // Never the whole URL: its query may carry a token.
  const url = new URL(input);
  return path.posix.basename(url.pathname).replace(/\.[^.]*$/, '') || url.host;
}

async function openInput(input: string, config: Config): Promise<{ stream: NodeJS.ReadableStream; size: number | undefined }> {
  if (!isUrl(input)) {
    const size = await fileSize(input); // first: a stream of a missing file would fail unheard
    return { stream: fs.createReadStream(input), size };
  }
  try {
    const { body, contentLength } = await openGuardedUrl(input, {
      allowedHosts: config.imports.allowedHosts,
      maxBytes: config.imports.maxFileBytes,
      timeoutMs: config.imports.fetchTimeoutMs,
    });
    return { stream: body, size: contentLength };
  } catch (error) {
    if (error instanceof OutboundError) throw new FeedCommandError(`cannot download the feed: ${error.message}`);
    throw error;
  }
}

export interface ExportCommand {
  format: FeedFormat;
  /** A file to write (replaced when the export is whole); standard output when absent. */
  output?: string | undefined;
}

/** `realty-api export --format F [--output FILE]`: streams every listing (and agent, agency) in the format. */
export async function exportCommand(services: Services, command: ExportCommand): Promise<void> {
  const text = Readable.from(FEED_FORMATS[command.format].write(services.feedExporter.content()));
  if (command.output === undefined) {
    await pipeline(text, process.stdout, { end: false });
    return;
  }
  // Written beside the target and renamed at the end: a failed export leaves the previous file whole.
  const partial = `${command.output}.partial`;
  try {
    await pipeline(text, fs.createWriteStream(partial));
    await fs.promises.rename(partial, command.output);
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  console.error(`wrote ${command.output}`);
}

/** `1 agent`, `2 agents`. */
function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
