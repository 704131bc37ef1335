import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A random name: 128 bits, never derived from anything a client sent. */
const KEY = /^[0-9a-f]{32}\.(?:upload|download|spool)$/;

/**
 * The feed files imports wait with: uploads until their run ends, downloads while their run reads them, and the
 * properties of a WordPress export set aside while its run reads it (adapters/feeds/wxr/entry-spool.ts). They live
 * in `DATA_DIR/imports` under random names (never a client's file name), so that a name cannot point anywhere
 * else. A run's upload is on the disk of the process that received it: the job runs an upload only where its
 * file is (docs/data-exchange.md, "Imports over HTTP"), so processes on several machines either share DATA_DIR
 * or leave each upload to a process of the machine that received it.
 */
export class ImportFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'imports');
  }

  newKey(kind: 'upload' | 'download' | 'spool'): string {
    return `${randomBytes(16).toString('hex')}.${kind}`;
  }

  pathOf(key: string): string {
    // A key is always one of ours; anything else (a row edited by hand) must not become a path elsewhere.
    if (!KEY.test(key)) throw new Error('not an import file key');
    return path.join(this.dir, key);
  }

  /** A new file of that key, its directory made first; readable by this service's user only. */
  async create(key: string): Promise<fs.WriteStream> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    return fs.createWriteStream(this.pathOf(key), { flags: 'wx', mode: 0o600 });
  }

  exists(key: string): boolean {
    return KEY.test(key) && fs.existsSync(this.pathOf(key));
  }

  async remove(key: string | null): Promise<void> {
    if (key !== null && KEY.test(key)) await fs.promises.rm(this.pathOf(key), { force: true });
  }
}
