#!/usr/bin/env node
// Entry for `npx realty-api <command>`: runs the compiled CLI (npm run build).
import '../dist/main.js';
