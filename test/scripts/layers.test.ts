/**
 * The layer check (.dependency-cruiser.cjs, run by `npm run lint`): it fails on an arrow that runs
 * up a floor or sideways between two folders of one floor, and on an import loop of type-only
 * imports — shown on a small tree planted with exactly such arrows (test/fixtures/layers) — and the
 * repository's own tree passes it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

/** Runs depcruise as `npm run lint` does, with `config`, from the repository's root. */
function depcruise(config: string, outputType: 'json' | 'err'): { status: number | null; stdout: string } {
  const run = spawnSync(DEPCRUISE, ['.', '--config', config, '--output-type', outputType], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout + run.stderr };
}

/** The project's rules, run on the fixture tree (paths read from it, modules resolved by tsconfig.json). */
function onFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-layers-'));
  const config = join(dir, 'fixture.dependency-cruiser.cjs');
  const options = {
    extends: CONFIG,
    options: { baseDir: join(ROOT, 'test/fixtures/layers'), tsConfig: { fileName: join(ROOT, 'tsconfig.json') } },
  };
  writeFileSync(config, `module.exports = ${JSON.stringify(options)};\n`);
  return config;
}

describe('the layer check', () => {
  it("fails on an import that runs up a floor, one between two folders of a floor, a loop of type-only imports, Node's network or module loader in the core, node:fs in the window, a package where it may not run or classified nowhere, and the POS protocol reaching into the server or the core", () => {
    const config = onFixture();
    const lint = depcruise(config, 'err');
    expect(lint.status, lint.stdout).not.toBe(0);
    expect(lint.stdout).toContain('error layer:main/core: main/core/engine.ts → main/pos/server.ts');

    const violations = (JSON.parse(depcruise(config, 'json').stdout) as { summary: { violations: Violation[] } })
      .summary.violations;
    const arrows = violations
      .filter(({ rule }) => rule.name !== 'no-circular')
      .map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`)
      .sort();
    expect(arrows, 'the arrows planted in test/fixtures/layers, and nothing else').toEqual([
      'layer:main/api: main/api/client.ts → main/core/engine.ts',
      'layer:main/core: main/core/engine.ts → main/pos/server.ts',
      'node-closed:main/core: main/core/wire.ts → http',
      'node-closed:main/core: main/core/wire.ts → module',
      'package-classified: main/core/wire.ts → ../../../node_modules/globals/index.js',
      'package:commander: main/core/wire.ts → ../../../node_modules/commander/typings/index.d.ts',
      'protocol-owns-the-wire: main/pos/protocol/methods.ts → main/core/engine.ts',
      'protocol-owns-the-wire: main/pos/protocol/methods.ts → main/pos/server.ts',
      'renderer-no-node: renderer/page.ts → fs',
    ]);
    // main/pos/handler.ts → main/core/engine.ts runs down: allowed, so not among them.
    const loops = violations.filter(({ rule }) => rule.name === 'no-circular');
    expect(loops.length).toBeGreaterThan(0);
    for (const loop of loops) {
      expect((loop.cycle ?? []).map(({ name }) => name).sort()).toEqual([
        'drivers/abecs/frame.ts',
        'drivers/abecs/link.ts',
      ]);
    }
  });

  it("finds no violation in the repository's own tree", () => {
    const run = depcruise(CONFIG, 'err');
    expect(run.stdout).toContain('no dependency violations found');
    expect(run.status, run.stdout).toBe(0);
  });

  it('is the table of docs/architecture.md: the same floors, in the same order', () => {
    const { floors } = createRequire(import.meta.url)(CONFIG) as { floors: readonly (readonly string[])[] };
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const layers = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\nRules:', doc.indexOf('## Layers')));
    const table = [...layers.matchAll(/^ ?(\d+) {2}(\S+(?: · \S+)*)/gm)].map((row) => [
      Number(row[1]),
      row[2]!.split(' · ').map((member) => member.replace(/\/$/, '')),
    ]);
    expect(table).toEqual(floors.map((floor, index) => [index + 1, [...floor]]));
  });
});
