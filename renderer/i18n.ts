/**
 * The window's texts — each language's catalog in a file of its own (i18n/pt-br.ts defines the
 * keys, i18n/en.ts must have exactly the same) — the language switch (remembered in
 * localStorage), and dates and times in the chosen language. Static texts in index.html name
 * their key in `data-i18n` (and attributes in `data-i18n-attr="aria-label:key"`; the build
 * checks both, scripts/check-i18n-keys.ts); the pages call `t()` when they render.
 */
import { EN } from './i18n/en.js';
import { PT_BR, type MessageKey } from './i18n/pt-br.js';

export type { MessageKey };
export type Language = 'pt-BR' | 'en';

/** Both catalogs (exported for the specs that compare them and scan the window for English). */
export const CATALOGS: Readonly<Record<Language, Readonly<Record<MessageKey, string>>>> = { 'pt-BR': PT_BR, en: EN };
const LANGUAGE_STORAGE = 'pinbridge-window:language';

function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE) === 'en' ? 'en' : 'pt-BR';
  } catch {
    return 'pt-BR';
  }
}

let language: Language = storedLanguage();
/** The store's time zone, once the agent named it (session.operator); until then the browser's. */
let timeZone: string | undefined;
const listeners = new Set<() => void>();

export function currentLanguage(): Language {
  return language;
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(PT_BR, key);
}

/** The text of `key` in a given language, whatever the window shows (specs compare the catalogs). */
export function textIn(lang: Language, key: MessageKey): string {
  return CATALOGS[lang][key];
}

/** The text of `key` in the current language, `{name}` placeholders filled from `vars`. */
export function t(key: MessageKey, vars: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/**
 * `none` for 0 when given ("Nenhuma venda hoje"), else `one` or `many` (each with {n}) by the
 * language's plural rules (CLDR, through Intl.PluralRules): Portuguese takes the singular for 0
 * and 1 (its rule is i = 0..1), English for 1 only.
 */
export function plural(count: number, one: MessageKey, many: MessageKey, none?: MessageKey): string {
  if (count === 0 && none !== undefined) return t(none);
  return new Intl.PluralRules(language).select(count) === 'one' ? t(one, { n: count }) : t(many, { n: count });
}

/** Switches the language, remembers it, and tells the pages to render again. */
export function setLanguage(next: Language): void {
  language = next;
  try {
    localStorage.setItem(LANGUAGE_STORAGE, next);
  } catch {
    // Storage disabled: the choice lasts until the page is reloaded.
  }
  document.documentElement.lang = next;
  translateStatic(document);
  for (const listener of listeners) listener();
}

export function onLanguageChange(listener: () => void): void {
  listeners.add(listener);
}

/**
 * Fills the static texts of index.html: `data-i18n="key"` sets the text, and
 * `data-i18n-attr="aria-label:key;title:key"` sets attributes. An unknown key is a bug in the
 * page: it is reported on the console (the browser tests fail on console errors).
 */
export function translateStatic(root: ParentNode): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    const key = element.dataset.i18n ?? '';
    if (isMessageKey(key)) element.textContent = t(key);
    else console.error(`The window has no text "${key}"`);
  }
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n-attr]')) {
    for (const pair of (element.dataset.i18nAttr ?? '').split(';')) {
      const [attribute, key] = pair.split(':').map((part) => part.trim());
      if (attribute === undefined || key === undefined || attribute === '') continue;
      if (isMessageKey(key)) element.setAttribute(attribute, t(key));
      else console.error(`The window has no text "${key}"`);
    }
  }
}

/** Times are shown on the store's clock, the one its receipts print with. */
export function setTimeZone(zone: string | undefined): void {
  timeZone = zone;
}

export function currentTimeZone(): string | undefined {
  return timeZone;
}

/** "14:05:09" in the current language, on the store's clock. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleTimeString(language, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}

/** "21/11/2026 14:05" (pt-BR) or "11/21/2026, 02:05 PM" (en). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(language, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}

/** Seconds left as "1:05". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
