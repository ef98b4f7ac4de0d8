#!/usr/bin/env node
// The `pinbridge` command. The TypeScript sources are compiled to dist/ by `npm install` (the
// package's `prepare` script) and by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/main/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('pinbridge: not built yet; run `npm run build` (or `npm install`) first\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
