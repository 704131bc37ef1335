import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileStorage } from './storage.js';

/** Files under UPLOAD_DIR, served by the app under `/uploads/` (http/uploads.ts). */
export class DiskStorage implements FileStorage {
  constructor(
    readonly root: string,
    private readonly baseUrl: string,
  ) {}

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body, { mode: 0o644 });
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  url(key: string): string {
    return `${this.baseUrl}/uploads/${key}`;
  }

  /** Keys are generated (`ab/cdef….jpg`), but refuse anything that could leave the root all the same. */
  private pathOf(key: string): string {
    if (!/^[a-z0-9][a-z0-9/_.-]*$/.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
    return path.join(this.root, key);
  }
}
