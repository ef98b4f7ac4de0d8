/**
 * `npm run lint` (scripts/lint.mjs) runs every check whatever the others found — a formatting slip
 * must not hide a layer violation — and ends with one line naming what failed; the layer check
 * prints each broken rule's advice.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, ROOT, runChecks } from '../../scripts/lint.mjs';

const dir = mkdtempSync(join(tmpdir(), 'pinbridge-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A check that notes it ran (a file named after it), then exits with `code`. */
const check = (name: string, code: number) => ({
  name,
  command: [
    process.execPath,
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(join(dir, name))}, ''); process.exit(${code})`,
  ],
});

describe('npm run lint', () => {
  it('runs every check after one fails, and says in its last line which failed and which passed', async () => {
    const lines: string[] = [];
    const failed = await runChecks([check('eslint', 1), check('prettier', 0), check('layers', 2)], {
      log: (line) => lines.push(line),
    });
    expect(failed).toEqual(['eslint', 'layers']);
    for (const name of ['eslint', 'prettier', 'layers']) expect(readFileSync(join(dir, name), 'utf8')).toBe('');
    expect(lines.at(-1)).toBe('lint: eslint, layers failed; prettier passed');
  });

  it('says all passed when they did, and fails a check whose program cannot start', async () => {
    const lines: string[] = [];
    expect(await runChecks([check('eslint', 0)], { log: (line) => lines.push(line) })).toEqual([]);
    expect(lines.at(-1)).toBe('lint: all 1 checks passed (eslint)');
    const missing = await runChecks([{ name: 'layers', command: [join(dir, 'no-such-program')] }], {
      log: (line) => lines.push(line),
    });
    expect(missing).toEqual(['layers']);
    expect(lines).toContain(`lint: layers could not start: spawn ${join(dir, 'no-such-program')} ENOENT`);
  });

  it('is the package script, with the type check, ESLint, Prettier and the layer check printing its advice', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.lint).toBe('node scripts/lint.mjs');
    expect(CHECKS.map(({ name }) => name)).toEqual(['types', 'window types', 'eslint', 'prettier', 'layers']);
    // The same projects as `npm run typecheck`, so lint fails where the type check does.
    const projects = CHECKS.slice(0, 2).map(({ command }) => command.slice(-3).join(' '));
    expect(projects).toEqual(['-p tsconfig.json --noEmit', '-p renderer/tsconfig.json --noEmit']);
    for (const project of ['tsconfig.json', 'renderer/tsconfig.json'])
      expect(scripts.typecheck).toContain(`tsc -p ${project} --noEmit`);
    expect(CHECKS.find(({ name }) => name === 'layers')?.command.slice(-2)).toEqual(['--output-type', 'err-long']);
  });
});
