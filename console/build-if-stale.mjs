// Builds the console with Vite unless console/dist already holds the build of these exact sources, so that
// `npm start` pays for a build only after the console changed. The stamp is a hash of every input file.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const stampFile = path.join(here, 'dist', '.sources-hash');
const inputs = ['index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', '../package-lock.json', 'src'];

function filesOf(entry) {
  const full = path.join(here, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesOf(path.join(entry, name)));
}

const hash = createHash('sha256');
for (const file of inputs.flatMap(filesOf)) hash.update(path.relative(here, file)).update('\0').update(readFileSync(file)).update('\0');
const digest = hash.digest('hex');

if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) {
  console.error('console: build is up to date');
} else {
  // A production build even when started from a test run (NODE_ENV=test would bundle React's development build).
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ root: here, mode: 'production', logLevel: 'warn' });
  writeFileSync(stampFile, digest);
  console.error('console: built into console/dist');
}
