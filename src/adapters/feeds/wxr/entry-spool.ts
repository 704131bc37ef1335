import fs from 'node:fs';
import readline from 'node:readline';
import type { WxrEntry } from './wxr-xml.js';

/** Lines gathered before each write. */
const WRITE_BYTES = 64 * 1024;

/**
 * Entries set aside on disk while a WordPress export is read, one JSON line each, read back in order once the
 * file has been read: the properties, which must wait for the agents and pictures that come after them, without
 * holding them in memory or parsing the XML a second time. The file is the caller's to name and, should the
 * reading be cut off before `remove`, to remove.
 */
export class EntrySpool {
  private pending = '';

  private constructor(
    private readonly file: string,
    private readonly handle: fs.promises.FileHandle,
  ) {}

  /** A new spool in `file`, which must not exist yet; readable by this process's user only. */
  static async create(file: string): Promise<EntrySpool> {
    return new EntrySpool(file, await fs.promises.open(file, 'wx', 0o600));
  }

  async add(entry: WxrEntry): Promise<void> {
    // JSON escapes line breaks inside strings: each entry is one line.
    this.pending += `${JSON.stringify({ ...entry, fields: [...entry.fields] })}\n`;
    if (this.pending.length >= WRITE_BYTES) await this.flush();
  }

  /** The entries added, in order; nothing can be added after. */
  async *entries(): AsyncGenerator<WxrEntry> {
    await this.flush();
    await this.handle.close();
    const lines = readline.createInterface({ input: fs.createReadStream(this.file), crlfDelay: Infinity });
    for await (const line of lines) {
      const entry = JSON.parse(line) as Omit<WxrEntry, 'fields'> & { fields: [string, string][] };
      yield { ...entry, fields: new Map(entry.fields) };
    }
  }

  async remove(): Promise<void> {
    // `entries` may have closed it already.
    await this.handle.close().catch(() => {});
    await fs.promises.rm(this.file, { force: true });
  }

  private async flush(): Promise<void> {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    await this.handle.write(text);
  }
}
