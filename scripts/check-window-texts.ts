/**
 * Fails the build when a page of the window names a text its catalog does not have. The static
 * texts of renderer/*.html name their key in `data-i18n="key"` and their attributes' in
 * `data-i18n-attr="aria-label:key;title:key"` (renderer/i18n.ts fills them in); the Portuguese
 * catalog (renderer/i18n/pt-br.ts) defines the keys. In the browser an unknown key only logs an
 * error and leaves the page's Portuguese in place — an English window would then show
 * Portuguese — so it is caught here, at build time, by `npm run build`.
 *
 * Run: `tsx scripts/check-window-texts.ts [page.html…]` (by default every .html under renderer/);
 * it prints each mistake as `file:line: …` and exits with 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PT_BR } from '../renderer/i18n/pt-br.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RENDERER = join(ROOT, 'renderer');

/** A `data-i18n…` attribute the window does not understand, or a key its catalog lacks. */
export interface TextMistake {
  /** 1-based line of the attribute in the page. */
  readonly line: number;
  readonly attribute: string;
  readonly message: string;
}

/** `data-i18n` and `data-i18n-<anything>` with a quoted value (the window's pages always quote). */
const TEXT_ATTRIBUTE = /\sdata-i18n(-[\w-]+)?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The mistakes in one page: keys not in `keys`, `data-i18n-attr` pairs that are not
 * `attribute:key`, and `data-i18n-…` attributes other than `data-i18n-attr` (translateStatic
 * reads no other, so their text would never change language).
 */
export function textMistakes(html: string, keys: ReadonlySet<string>): TextMistake[] {
  // A comment may speak of data-i18n without using it; blanked with its line breaks kept, so lines still count.
  const page = html.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
  const mistakes: TextMistake[] = [];
  for (const match of page.matchAll(TEXT_ATTRIBUTE)) {
    const suffix = match[1] ?? '';
    const attribute = `data-i18n${suffix}`;
    const value = match[2] ?? match[3] ?? '';
    const line = page.slice(0, match.index).split('\n').length;
    const unknown = (key: string): void => {
      if (!keys.has(key)) mistakes.push({ line, attribute, message: `"${key}" is not a text of the window's catalog` });
    };
    if (suffix === '') {
      unknown(value.trim());
    } else if (suffix === '-attr') {
      for (const pair of value.split(';')) {
        if (pair.trim() === '') continue;
        const [name, key, ...rest] = pair.split(':').map((part) => part.trim());
        if (name === undefined || name === '' || key === undefined || key === '' || rest.length > 0)
          mistakes.push({ line, attribute, message: `"${pair.trim()}" is not attribute:key` });
        else unknown(key);
      }
    } else {
      mistakes.push({ line, attribute, message: 'the window reads only data-i18n and data-i18n-attr' });
    }
  }
  return mistakes;
}

/** Every page of the window: the .html files under renderer/. */
function windowPages(folder = RENDERER): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? windowPages(join(folder, entry.name))
      : entry.name.endsWith('.html')
        ? [join(folder, entry.name)]
        : [],
  );
}

/** Checks `pages` against the Portuguese catalog; prints the mistakes and returns how many. */
export function checkWindowTexts(pages: readonly string[]): number {
  const keys = new Set(Object.keys(PT_BR));
  let count = 0;
  for (const page of pages) {
    for (const mistake of textMistakes(readFileSync(page, 'utf8'), keys)) {
      process.stderr.write(
        `${relative(process.cwd(), page)}:${mistake.line}: ${mistake.attribute}: ${mistake.message}\n`,
      );
      count++;
    }
  }
  return count;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const named = process.argv.slice(2);
  const pages = named.length > 0 ? named : windowPages();
  const count = checkWindowTexts(pages);
  if (count > 0) {
    process.stderr.write(`check-window-texts: ${count} unknown or malformed text key(s) in the window's pages\n`);
    process.exit(1);
  }
}
