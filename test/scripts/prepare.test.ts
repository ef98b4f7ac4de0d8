/**
 * The package's `prepare` script (scripts/prepare.mjs), which npm runs after `npm ci` / `npm install`:
 * it compiles the TypeScript sources when TypeScript is there, and never fails an install where the
 * dev dependencies were left out (`npm ci --omit=dev`, an installed copy of the package).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PREPARE = fileURLToPath(new URL('../../scripts/prepare.mjs', import.meta.url));

describe('npm prepare', () => {
  it('succeeds without compiling, and says so, where TypeScript is not installed', () => {
    // A package folder with no node_modules at all: typescript cannot be resolved from it.
    const root = mkdtempSync(join(tmpdir(), 'pinbridge-prepare-'));
    mkdirSync(join(root, 'scripts'));
    copyFileSync(PREPARE, join(root, 'scripts', 'prepare.mjs'));
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'prepare.mjs')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('prepare: TypeScript is not installed (dev dependencies omitted); not compiling');
    expect(run.stdout).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD is set');
  });
});
