/**
 * Finding English on a Portuguese screen. The words to look for come from the window's own
 * catalogs (renderer/i18n.ts): every word of an English text that no Portuguese text uses ("the",
 * "failed", "printer", "default"…), so the list grows with the window. What reads the same in both
 * languages (PINPAD, NSU, CNPJ, Bluetooth, host names, addresses, paths) is never one of them, and
 * addresses, paths and placeholders are taken out of a text before its words are read.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../main/version.js';

export interface Catalogs {
  readonly 'pt-BR': Readonly<Record<string, string>>;
  readonly en: Readonly<Record<string, string>>;
}

/**
 * The window's catalogs, from its compiled script (dist/renderer/i18n.js: `npm run build`). Read
 * there, not from the source, because the source is compiled with the DOM library and the specs
 * without it.
 */
export async function windowCatalogs(): Promise<Catalogs> {
  const module = (await import(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'renderer', 'i18n.js')).href)) as {
    CATALOGS: Catalogs;
  };
  return module.CATALOGS;
}

/**
 * Words of the English catalog that are names, not English: they read the same to a Brazilian
 * cashier (ICP-Brasil, the CUPS printing system).
 */
export const NOT_ENGLISH: ReadonlySet<string> = new Set(['icp', 'brasil', 'cups']);

/** The words of a text, lower case, without its placeholders, code in backticks, addresses, paths, file names, host names and codes. */
export function wordsOf(text: string): string[] {
  const plain = text
    .replace(/\{\w+\}/g, ' ')
    // `printers`: a key of the settings file, quoted as code (the file's own word).
    .replace(/`[^`]*`/g, ' ')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ')
    .replace(/\S*[/@_.:\\]\S*[\p{L}\d]/gu, ' ')
    .replace(/--?[a-z][\w-]*/gi, ' ');
  // Letters and digits together (a serial number, POS0000000000001) are a code, not a word.
  return (plain.match(/[\p{L}\d]+/gu) ?? []).filter((word) => /^\p{L}+$/u.test(word)).map((word) => word.toLowerCase());
}

/** Every word of an English text that no Portuguese text of the window uses. */
export function englishOnlyWords(catalogs: Catalogs): Set<string> {
  const portuguese = new Set(Object.values(catalogs['pt-BR']).flatMap(wordsOf));
  return new Set(
    Object.values(catalogs.en)
      .flatMap(wordsOf)
      .filter((word) => !portuguese.has(word) && !NOT_ENGLISH.has(word)),
  );
}

/** The English words found in `texts`, each as `word in “text”`. */
export function englishIn(texts: readonly string[], english: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const text of texts) {
    const words = [...new Set(wordsOf(text).filter((word) => english.has(word)))];
    if (words.length > 0) found.push(`${words.join(', ')} in “${text.replace(/\s+/g, ' ').trim().slice(0, 120)}”`);
  }
  return found;
}

/**
 * What the cashier can read or hear on the page as it is now: the text of every element shown
 * (screen-reader-only text included), the title, and the names and hints in title, aria-label,
 * aria-description, placeholder and alt. Left out: what is marked as another language (lang="en"
 * on the language switch's "English") or not to translate (translate="no": commands, addresses), and the
 * text inside fields (the logs for the support technician, what the cashier typed).
 */
export function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const texts = [document.title];
    const foreign = (el) => {
      if (el.closest('[translate="no"], textarea, script, style, template')) return true;
      const marked = el.closest('[lang]');
      return marked !== null && marked !== document.documentElement && marked.getAttribute('lang') !== document.documentElement.lang;
    };
    const shown = (el) => el.getClientRects().length > 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || node.textContent.trim() === '' || foreign(el)) continue;
      if (!shown(el) || getComputedStyle(el).visibility === 'hidden') continue;
      texts.push(node.textContent);
    }
    for (const el of document.body.querySelectorAll('[title], [aria-label], [aria-description], [placeholder], [alt]')) {
      if (foreign(el) || !(el.getClientRects().length > 0)) continue;
      for (const name of ['title', 'aria-label', 'aria-description', 'placeholder', 'alt']) {
        const value = el.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts;
  })()`);
}
