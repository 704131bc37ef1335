import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Services } from './app.js';
import { OutboundError, openGuardedUrl } from './adapters/http/guarded-fetch.js';
import type { Config } from './config.js';
import { FeedSyntaxError } from './adapters/feeds/feed-records.js';
import { FEED_FORMATS, type FeedFormat, type Rejection } from './modules/exchange/index.js';
import { ProgressBar } from './lib/progress-bar.js';

/** A failure of a feed command, told as its message alone. */
export class FeedCommandError extends Error {}

export interface ImportCommand {
  input: string;
  format: FeedFormat;
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
  const { read } = FEED_FORMATS[command.format];
  const { stream, size } = await openInput(command.input, config);
  const bar = size === undefined ? undefined : new ProgressBar('bytes read', size);
  const counted = stream.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bar?.advance(chunk.length);
        done(null, chunk);
      },
    }),
  );
  stream.on('error', (error) => counted.destroy(error));
  const rejected: Rejection[] = [];
  try {
    const summary = await services.feedImporter.run(read(counted), {
      source: command.source ?? sourceNameOf(command.input),
      actorId: actor.id,
      ownerId,
      dryRun: command.dryRun,
      strict: command.strict,
      withdrawMissing: command.withdrawMissing,
      onRejected: (rejection) => rejected.push(rejection),
    });
    bar?.finish();
    for (const rejection of rejected) console.error(rejectionLine(rejection));
    const verb = summary.dryRun ? 'would be ' : '';
    console.log(
      [
        summary.dryRun ? 'dry run, nothing written: ' : '',
        `${summary.created} ${verb}created, ${summary.updated} ${verb}updated, ${summary.unchanged} unchanged, `,
        `${summary.withdrawn} ${verb}withdrawn, ${summary.rejected} rejected`,
        summary.stopped ? ' (stopped at the first rejection: --strict)' : '',
      ].join(''),
    );
    if (summary.rejected > 0) process.exitCode = 1;
  } catch (error) {
    bar?.finish();
    for (const rejection of rejected) console.error(rejectionLine(rejection));
    if (error instanceof FeedSyntaxError)
      throw new FeedCommandError(`the file cannot be read as ${command.format}: ${error.message}; nothing after it was imported`);
    throw error;
  }
}

/** e.g. `line 12 (key A-17): price must be of type number; title must be at least 3 characters long` */
function rejectionLine(rejection: Rejection): string {
  const key = rejection.key === undefined ? '' : ` (key ${rejection.key})`;
  return `${rejection.at}${key}: ${rejection.errors.map((error) => `${error.field} ${error.reason}`).join('; ')}`;
}

/** The default source name: the file's name without its extension (`feed.csv` → `feed`; a URL's last path segment). */
function sourceNameOf(input: string): string {
  if (!/^https?:\/\//i.test(input)) return path.basename(input).replace(/\.[^.]*$/, '') || input;
  // Never the whole URL: its query may carry a token.
  const url = new URL(input);
  return path.posix.basename(url.pathname).replace(/\.[^.]*$/, '') || url.host;
}

async function openInput(input: string, config: Config): Promise<{ stream: NodeJS.ReadableStream; size: number | undefined }> {
  if (/^https?:\/\//i.test(input)) {
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
  let size: number;
  try {
    const stat = await fs.promises.stat(input);
    if (!stat.isFile()) throw new FeedCommandError(`${input} is not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof FeedCommandError) throw error;
    throw new FeedCommandError(`cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return { stream: fs.createReadStream(input), size };
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
