/**
 * The build's check of the window's static texts (scripts/check-window-texts.ts, run by
 * `npm run build`): every `data-i18n` and `data-i18n-attr` key of a page is a text of the
 * catalog, and a page naming one that is not fails the check, with the file and line.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textMistakes } from '../../scripts/check-window-texts.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-window-texts.ts', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/window-texts/', import.meta.url));
/** The TypeScript runner the build runs the script with (`tsx` in package.json's build). */
const TSX = createRequire(import.meta.url).resolve('tsx/cli');
const KEYS: ReadonlySet<string> = new Set(['nav.label', 'settings.save']);

function check(...pages: string[]): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [TSX, SCRIPT, ...pages], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe("the check of the window's text keys", () => {
  it("passes the window's own pages (what npm run build checks)", () => {
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('passes a page whose keys are all in the catalog, a key named in a comment being no text', () => {
    expect(check(`${FIXTURES}known-keys.html`)).toEqual({ status: 0, stderr: '' });
  });

  it('fails on a data-i18n key the catalog does not have, naming the file, line and key', () => {
    const run = check(`${FIXTURES}unknown-key.html`);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /unknown-key\.html:7: data-i18n: "settings\.saveEverything" is not a text of the window's catalog/,
    );
    expect(run.stderr).not.toContain('nav.label');
  });

  it("reads an attribute's keys in data-i18n-attr, pair by pair", () => {
    expect(textMistakes('<nav data-i18n-attr="aria-label:nav.label; title:nav.title">', KEYS)).toEqual([
      { line: 1, attribute: 'data-i18n-attr', message: '"nav.title" is not a text of the window\'s catalog' },
    ]);
  });

  it('refuses a data-i18n-attr pair that is not attribute:key, and data-i18n-… attributes the window never reads', () => {
    const html = [
      '<p data-i18n="settings.save">',
      '<nav data-i18n-attr="aria-label">',
      "<i data-i18n-title='nav.label'>",
    ];
    expect(textMistakes(html.join('\n'), KEYS)).toEqual([
      { line: 2, attribute: 'data-i18n-attr', message: '"aria-label" is not attribute:key' },
      { line: 3, attribute: 'data-i18n-title', message: 'the window reads only data-i18n and data-i18n-attr' },
    ]);
  });
});
