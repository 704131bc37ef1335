/**
 * The pictures scenario's baselines, each run as a child process of its own as the server under test is:
 *
 * - `download`: a bare client downloading pictures 0 … count-1 from `<base>/pictures/<n>.jpg`, `concurrency` at a
 *   time, each whole into one Buffer, and nothing else. Its connections are made as the outbound guard makes
 *   them (a new one per picture, no pooled sockets), so that the ratio to it is the cost of everything the
 *   pictures job does beyond the download.
 * - `process`: the same downloads, each followed by the compiled `processUpload` (dist/, as the server runs it:
 *   sniffing, decoding, re-encoding the original and its three sizes), the results dropped: the job's picture
 *   work without its storage, database, gallery updates and scheduler.
 *
 * Prints `{"seconds": …, "cpuSeconds": …, "bytes": …}` on stdout: the wall time and the process's CPU time (every
 * thread's: sharp's work runs on libuv's pool) of the downloads alone, start-up left out.
 *
 * Usage: picture-client.ts download|process <base> <count> <concurrency>
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** IMAGE_MAX_MEGAPIXELS's default (src/config.ts). */
const MAX_PIXELS = 40_000_000;

const [mode, base, countArgument, concurrencyArgument] = process.argv.slice(2);
const count = Number(countArgument);
const concurrency = Number(concurrencyArgument);
if ((mode !== 'download' && mode !== 'process') || !base || !(count > 0) || !(concurrency > 0)) {
  throw new Error('usage: picture-client.ts download|process <base> <count> <concurrency>');
}
const processing = mode === 'process' ? await loadProcessUpload() : undefined;

function download(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`${url} answered ${response.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve(Buffer.concat(chunks)));
      response.once('error', reject);
    });
    request.once('error', reject);
  });
}

async function loadProcessUpload() {
  const compiled = path.join(import.meta.dirname, '..', 'dist', 'modules', 'media', 'image-processing.js');
  if (!fs.existsSync(compiled)) throw new Error('dist/ is missing: run `npm run build` (npm run bench does)');
  const media = (await import(pathToFileURL(compiled).href)) as typeof import('../src/modules/media/image-processing.js');
  return (bytes: Buffer) => media.processUpload(bytes, { accept: media.IMAGE_TYPES, maxPixels: MAX_PIXELS });
}

let next = 0;
let bytes = 0;
const started = performance.now();
const cpuAtStart = process.cpuUsage();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let n = next++; n < count; n = next++) {
      const body = await download(`${base}/pictures/${n}.jpg`);
      bytes += body.length;
      if (processing) await processing(body);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuAtStart);
process.stdout.write(`${JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, bytes })}\n`);
