// Bundles the compiled agent (dist/main, dist/drivers, dist/lib) into dist/bundle/ with esbuild:
// what `pinbridge`, `npm start` and the desktop app run (bin/pinbridge.js, package.json "main").
// Run by `npm run build` and by `npm install` (scripts/prepare.mjs) after TypeScript.
//
// Why (issue 35): Node loads each ES module on its own — resolved, read, compiled, linked — and
// keeps its source, its module record and its scope for the process's life. The agent's ~350 own
// modules and TypeBox's ~370 cost a start some 100 ms of CPU and ~10 MB of memory that one file
// per chunk does not. The chunks follow the dynamic imports (code splitting), so what was loaded
// only when used (a command, the sandbox, PDF receipts…) still is. Whitespace and comments are
// dropped and the text is ASCII (esbuild escapes the rest), so V8 keeps one byte a character of
// a smaller source.
//
// Packages stay outside (imported from node_modules as before) except those in INLINE: ES module
// packages of many small files the agent loads as it starts. A CommonJS package may find its own
// files by __dirname or be required at run time by path (createRequire), which a bundle breaks.
//
// Source maps (dist/bundle/*.map, composed with TypeScript's) lead each chunk's lines back to the
// .ts sources: run with NODE_OPTIONS=--enable-source-maps for stack traces in TypeScript (not by
// default: Node then parses every chunk's map as it loads, ~4 MB more memory).
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = join(ROOT, 'dist', 'bundle');

/** Packages bundled in: pure ES modules, many files, loaded at start (see above). */
export const INLINE = new Set(['typebox']);

/** The package a bare import names ("typebox/compile" → "typebox", "@fastify/error" → "@fastify/error"). */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const CLASS = /\bclass\s+([A-Za-z_$][\w$]*)(?:\s+extends\s+([A-Za-z_$][\w$.]*))?/g;

/**
 * "dist/bundle/chunk-X.js: _AbecsStatusError": each class of the chunks whose name no module
 * declares (esbuild renamed it) and that is an error — its name, or its base's, ends in Error.
 */
export function renamedErrorClasses(metafile, root = ROOT) {
  const declared = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    for (const [, name] of readFileSync(join(root, input), 'utf8').matchAll(CLASS)) declared.add(name);
  }
  const renamed = [];
  for (const output of Object.keys(metafile.outputs).filter((path) => path.endsWith('.js'))) {
    for (const [, name, base] of readFileSync(join(root, output), 'utf8').matchAll(CLASS)) {
      const isError = /Error$/.test(name.replace(/^_+|\d+$/g, '')) || /Error$/.test(base ?? '');
      if (isError && !declared.has(name)) renamed.push(`${output}: ${name}`);
    }
  }
  return renamed;
}

export async function bundle() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.log('bundle: esbuild is not installed (dev dependencies omitted); the agent runs from dist/main.');
    return false;
  }
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: {
      cli: 'dist/main/cli/main.js',
      'electron-main': 'dist/main/app/electron-main.js',
    },
    outdir: BUNDLE_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // Electron 45's Node is 22; plain Node is ≥ 22.12 (package.json engines).
    target: 'node22',
    minifyWhitespace: true,
    minifySyntax: true,
    // Names stay as esbuild leaves them: keepNames's __name() on each of ~3,000 functions and
    // classes costs the idle agent ~1.3 MB of heap. A class esbuild renames — one that names
    // itself inside its body becomes `X = class _X`, the second of two `class X` in a chunk X2 —
    // has that `name` then; an error reports its class's name (lib/errors.ts), so a renamed
    // error class fails the build (renamedErrorClasses).
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-outside',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, ({ path }) =>
            path.startsWith('node:') || !INLINE.has(packageOf(path)) ? { external: true } : undefined,
          );
        },
      },
    ],
  });
  const renamed = renamedErrorClasses(result.metafile);
  if (renamed.length > 0) {
    throw new Error(
      `bundle: error classes renamed by esbuild (an error reports its class's name): ${renamed.join(', ')}. ` +
        'A class that names itself in its body (a static factory: use `new this(…)`), or two of the same name in one chunk, is renamed.',
    );
  }
  // The window's preload script, found beside the desktop app's entry (electron-main.ts).
  copyFileSync(join(ROOT, 'dist', 'main', 'app', 'preload.cjs'), join(BUNDLE_DIR, 'preload.cjs'));
  writeFileSync(join(BUNDLE_DIR, 'meta.json'), JSON.stringify(result.metafile));
  return true;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(join(ROOT, 'dist', 'main', 'cli', 'main.js'))) {
    console.error('bundle: dist/main is missing: compile the TypeScript first (npm run build)');
    process.exit(1);
  }
  await bundle();
}
