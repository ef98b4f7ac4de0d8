#!/usr/bin/env node
// The `pinbridge` command. The TypeScript sources are compiled to dist/ and bundled into
// dist/bundle/ (scripts/bundle.mjs: issue 35, a faster and smaller start) by `npm install` (the
// package's `prepare` script) and by `npm run build`. Without a bundle — dev dependencies left
// out, so nothing to bundle with — or with one older than the compiled sources (TypeScript run on
// its own since), the compiled modules run as they are.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const file = (path) => fileURLToPath(new URL(path, import.meta.url));
const bundled = file('../dist/bundle/cli.js');
const compiled = file('../dist/main/cli/main.js');
const compiledAt = file('../dist/.tsbuildinfo/build.json');

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : undefined);
const bundledAt = mtime(bundled);
const entry =
  bundledAt !== undefined && bundledAt >= (mtime(compiledAt) ?? 0)
    ? bundled
    : existsSync(compiled)
      ? compiled
      : undefined;
if (entry === undefined) {
  process.stderr.write('pinbridge: not built yet; run `npm run build` (or `npm install`) first\n');
  process.exit(1);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
