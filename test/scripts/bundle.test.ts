/**
 * The agent's bundle (scripts/bundle.mjs, run by `npm run build`; issue 35): it is what the
 * `pinbridge` command and the desktop app run, the bin falls back to the compiled modules where
 * there is no bundle or only one older than them, the desktop app's entry runs a command from
 * it, and its source maps lead back to the TypeScript.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../main/version.js';
import { MODULE_TRACE_ARGS, MODULE_TRACE_ENV } from '../helpers/module-trace.js';
import { renamedErrorClasses, type BundleMetafile as Metafile } from '../../scripts/bundle.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'pinbridge.js');
const work = mkdtempSync(join(tmpdir(), 'pinbridge-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The module URLs `node <args>` loaded, as the process noted them (chunks as chunks). */
function rawTrace(args: readonly string[]): { urls: string[]; stdout: string; status: number | null } {
  const trace = join(work, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const run = spawnSync(process.execPath, [...MODULE_TRACE_ARGS, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: work, [MODULE_TRACE_ENV]: trace },
  });
  return {
    urls: readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((url) => url.replace(`file://${ROOT}`, '')),
    stdout: run.stdout,
    status: run.status,
  };
}

describe('the bundle', () => {
  it('is what `pinbridge` runs: its chunks, none of the compiled modules one by one', () => {
    const { urls, stdout, status } = rawTrace([BIN, '--version']);
    expect(status).toBe(0);
    expect(stdout.trim()).toBe(VERSION);
    expect(urls).toContain('dist/bundle/cli.js');
    expect(urls.filter((url) => url.startsWith('dist/main/'))).toEqual([]);
  });

  it('is what the desktop app runs (package.json "main"), which runs a command in the app', () => {
    const main = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string }).main;
    expect(main).toBe('dist/bundle/electron-main.js');
    // A stand-in for Electron's module: the app a command needs (cli-dispatch.ts), which exits the process.
    const electron = `export default { app: { isPackaged: false, exit: (code) => process.exit(code) } };`;
    const hooks = `
      import { registerHooks } from 'node:module';
      registerHooks({ resolve: (specifier, context, next) => specifier === 'electron'
        ? { url: 'data:text/javascript,${encodeURIComponent(electron)}', shortCircuit: true }
        : next(specifier, context) });`;
    const { urls, stdout, status } = rawTrace([
      '--import',
      `data:text/javascript,${encodeURIComponent(hooks)}`,
      join(ROOT, main),
      'pinpad',
      'list',
      '--tcp',
      '127.0.0.1:4000',
      '--json',
    ]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toContainEqual(expect.objectContaining({ port: 'tcp://127.0.0.1:4000' }));
    expect(urls.filter((url) => url.startsWith('dist/main/'))).toEqual([]);
  });

  it('has source maps that lead its code back to the TypeScript it was compiled from', () => {
    const chunk = readFileSync(join(ROOT, 'dist/bundle/cli.js'), 'utf8');
    const map = new SourceMap(
      JSON.parse(readFileSync(join(ROOT, 'dist/bundle/cli.js.map'), 'utf8')) as SourceMapPayload,
    );
    const at = chunk.indexOf('async function main(');
    expect(at).toBeGreaterThan(-1);
    const before = chunk.slice(0, at).split('\n');
    const entry = map.findEntry(before.length - 1, before.at(-1)!.length);
    expect(entry).toHaveProperty('originalSource');
    if (!('originalSource' in entry)) return;
    expect(entry.originalSource).toMatch(/\/main\/cli\/main\.ts$/);
    const source = readFileSync(join(ROOT, 'main/cli/main.ts'), 'utf8').split('\n');
    expect(source[entry.originalLine]).toContain('export async function main(');
  });
});

describe('the bundle’s class names', () => {
  it('are those of the sources for every error class (an error reports its class’s name)', () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist/bundle/meta.json'), 'utf8')) as Metafile;
    expect(renamedErrorClasses(meta)).toEqual([]);
  });

  it('fail the build for an error class the bundler renamed, and only for an error class', () => {
    const root = mkdtempSync(join(work, 'names-'));
    writeFileSync(join(root, 'a.js'), 'class StatusError extends Error {} class Agent {}');
    writeFileSync(
      join(root, 'out.js'),
      'var StatusError=class _StatusError extends Error{};var Agent=class _Agent{};class TransportError2 extends DriverError{}',
    );
    const meta: Metafile = { inputs: { 'a.js': {} }, outputs: { 'out.js': {} } };
    expect(renamedErrorClasses(meta, root)).toEqual(['out.js: _StatusError', 'out.js: TransportError2']);
  });
});

describe('bin/pinbridge.js', () => {
  /** A copy of the bin in a package with a stand-in bundle and compiled entry, each saying which it is. */
  function packageWith(files: { bundle?: boolean; compiled?: boolean }): string {
    const root = mkdtempSync(join(work, 'package-'));
    mkdirSync(join(root, 'bin'));
    copyFileSync(BIN, join(root, 'bin', 'pinbridge.js'));
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    const entry = (path: string, name: string): void => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), `export async function main() { process.stdout.write('${name}'); return 0; }\n`);
    };
    if (files.bundle === true) entry('dist/bundle/cli.js', 'bundle');
    if (files.compiled === true) {
      entry('dist/main/cli/main.js', 'compiled');
      mkdirSync(join(root, 'dist/.tsbuildinfo'));
      writeFileSync(join(root, 'dist/.tsbuildinfo/build.json'), '{}');
    }
    return root;
  }

  const run = (root: string) => spawnSync(process.execPath, [join(root, 'bin', 'pinbridge.js')], { encoding: 'utf8' });

  it('runs the bundle when it is as new as the compiled modules or newer', () => {
    const root = packageWith({ bundle: true, compiled: true });
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(root, 'dist/.tsbuildinfo/build.json'), earlier, earlier);
    expect(run(root).stdout).toBe('bundle');
  });

  it('runs the compiled modules when TypeScript compiled them after the bundle was made', () => {
    const root = packageWith({ bundle: true, compiled: true });
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(root, 'dist/bundle/cli.js'), earlier, earlier);
    expect(run(root).stdout).toBe('compiled');
  });

  it('runs the compiled modules where there is no bundle (dev dependencies left out)', () => {
    expect(run(packageWith({ compiled: true })).stdout).toBe('compiled');
  });

  it('says to build first where there is neither', () => {
    const result = run(packageWith({}));
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('pinbridge: not built yet; run `npm run build` (or `npm install`) first\n');
  });
});
