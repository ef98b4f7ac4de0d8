/**
 * What the window's specs ask of a page about the keyboard and the touch screen: where the focus
 * is, which controls there are, which fields have no label, what Tab reaches, what is smaller
 * than a fingertip. Run in the page (the project compiles without the DOM library, hence text).
 */
import type { Page } from 'playwright-core';

export function text(page: Page, selector: string): Promise<string> {
  return page.locator(selector).innerText();
}

/**
 * One attribute of every element the selector finds, read in one go in the page. Reading the
 * elements of `locator.all()` one by one is not a snapshot: a list rendered again in between (a
 * search's answer) leaves a locator `nth(1)` that waits for a row that is no longer there.
 */
export function attributes(page: Page, selector: string, name: string): Promise<(string | null)[]> {
  return page.evaluate<(string | null)[]>(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => el.getAttribute(${JSON.stringify(name)}))`,
  );
}

/** What the keyboard focus is on: its id, a radio group as "radio:NAME", or its focus key or label. */
export const FOCUSED = `(() => { const el = document.activeElement; if (!el || el === document.body) return '';
  if (el.type === 'radio') return 'radio:' + el.name;
  return el.id || el.dataset.focusKey || el.getAttribute('aria-label') || el.textContent.trim(); })()`;

/** Every visible, enabled control of the page (a radio group once: Tab reaches its checked option). */
export const CONTROLS = `[...new Set([...document.querySelectorAll('button, a[href], input, select, textarea')]
  .filter((el) => el.id !== 'skip-link' && !el.disabled && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => el.type === 'radio' ? 'radio:' + el.name : el.id || el.dataset.focusKey || el.getAttribute('aria-label') || el.textContent.trim()))]`;

/** Inputs, selects and text areas with no label (neither <label> nor aria-label / aria-labelledby). */
export const UNLABELLED = `[...document.querySelectorAll('input, select, textarea')]
  .filter((el) => el.getClientRects().length > 0)
  .filter((el) => el.labels.length === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
  .map((el) => el.id || el.name)`;

/** Presses Tab until the focus comes back to a control it reached before (or `max` presses); returns what got the focus, in order. */
export async function tabAround(page: Page, max = 80): Promise<string[]> {
  const reached: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>(FOCUSED);
    // A control of several parts (a date field's day, month and year) takes a Tab for each.
    if (focused !== '' && focused === reached.at(-1)) continue;
    if (focused !== '' && reached.includes(focused)) break;
    if (focused !== '') reached.push(focused);
  }
  return reached;
}

/** Visible controls (text fields included; a radio or checkbox counts by its label) shorter than 44 px. */
export function controlsUnder44px(page: Page): Promise<string[]> {
  return page.evaluate<
    string[]
  >(`[...document.querySelectorAll('button, a[href], select, summary, .choice-option, input:not([type=radio]):not([type=checkbox]), textarea')]
    .filter((el) => el.id !== 'skip-link' && el.getClientRects().length > 0)
    .filter((el) => el.getBoundingClientRect().height < 44)
    .map((el) => (el.id || el.textContent.trim()) + ': ' + el.getBoundingClientRect().height)`);
}
