/**
 * A spec's child-process script, and the project's modules it imports, compiled to JavaScript once
 * per spec file, so that each child starts as plain Node. Run through tsx instead, every child
 * resolves and loads the TypeScript sources again: about half a second of CPU a child, where
 * engine-crash.test.ts starts seventy of them.
 *
 * TypeScript 7's compiler writes them with the project's own options (tsconfig.json) and without
 * type checking (`npm run typecheck` checks) under node_modules/.cache/, where Node finds the
 * project's packages as it does from the sources. It compiles the sources as they are now, so a
 * spec needs no `npm run build`, as it did not with tsx.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript7/bin/tsc');
const CACHE = join(ROOT, 'node_modules/.cache/pinbridge-spec-children');

export interface CompiledChild {
  /** The compiled entry, to run as `node <script> …`. */
  readonly script: string;
  /** Deletes the compiled files. */
  remove(): void;
}

/** Compiles `entry` (an absolute .ts path inside the project) and what it imports. */
export async function compileChild(entry: string): Promise<CompiledChild> {
  mkdirSync(CACHE, { recursive: true });
  const out = mkdtempSync(join(CACHE, 'child-'));
  const remove = (): void => rmSync(out, { recursive: true, force: true });
  const project = join(out, 'tsconfig.json');
  writeFileSync(
    project,
    JSON.stringify({
      extends: join(ROOT, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        noCheck: true,
        rootDir: ROOT,
        outDir: out,
        declaration: false,
        sourceMap: false,
      },
      files: [entry],
      include: [],
    }),
  );
  // The compiled modules' package: ES modules, and the name and version main/version.ts looks for.
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, string>;
  writeFileSync(join(out, 'package.json'), JSON.stringify({ name, version, private: true, type: 'module' }));

  const tsc = spawn(process.execPath, [TSC, '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  tsc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  tsc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(tsc, 'close')) as [number | null];
  if (code !== 0) {
    remove();
    throw new Error(`tsc could not compile ${relative(ROOT, entry)} (exit ${code}):\n${output}`);
  }
  return { script: join(out, relative(ROOT, entry).replace(/\.ts$/, '.js')), remove };
}
