#!/usr/bin/env node
// Entry for `npx realty-api <command>`: runs the compiled CLI.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('realty-api is not built yet: run `npm run build` first (npm start builds it too).');
  process.exit(1);
}
await import(main.href);
