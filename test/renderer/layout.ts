/**
 * What the layout specs ask of a page as the cashier sees it, measured in the browser: no
 * sideways scroll, no text cut by its box, nothing pushed past the window's edge, every control
 * reachable and not covered by something else (the sticky banner, the save bar, another layer),
 * and the parts that must be on screen as they are (the sale just started, a dialog's buttons)
 * inside the window and clear of the banner. Run in the page as text (no DOM library here).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** Shared in-page helpers: a readable name for an element, and whether it is hidden from sight on purpose (screen-reader-only text). */
const IN_PAGE = `
  const describe = (el) => {
    const id = el.id ? '#' + el.id : el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim() !== '' ? '.' + el.className.trim().split(/\\s+/)[0] : '');
    const words = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return words === '' ? id : id + ' "' + words + '"';
  };
  const screenReaderOnly = (el) => {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.clipPath.startsWith('inset(50%') || (style.clip !== 'auto' && style.position === 'absolute')) return true;
      if (node.id === 'skip-link') return true;
    }
    return false;
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  /** Where the content starts: below the sticky top bar (the status line, and the training banner when it shows). */
  const topEdge = (el) => {
    const bar = document.getElementById('top-bar') ?? document.getElementById('training-banner');
    if (!bar || !shown(bar) || el.closest('.sidebar, dialog, #top-bar')) return 0; // the bar sits over the main column only, under any dialog
    return Math.max(0, bar.getBoundingClientRect().bottom);
  };
`;

/**
 * Layout faults of the page as it is now (an open modal dialog: of the dialog), one line each.
 * Scrolls each control to the middle of its scroll box to look at it: call it after screenshots.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    ${IN_PAGE}
    const problems = [];
    const root = document.scrollingElement;
    if (root.scrollWidth > root.clientWidth) problems.push('the page scrolls sideways: ' + root.scrollWidth + ' px wide in a ' + root.clientWidth + ' px window');
    // The dialog on top (a confirmation over a sale's dialog): what the cashier can touch now.
    const dialog = [...document.querySelectorAll('dialog[open]')].at(-1);
    const scope = dialog ?? document.body;
    const width = document.documentElement.clientWidth;
    const all = [...scope.querySelectorAll('*')].filter((el) => shown(el) && !el.closest('svg') && !screenReaderOnly(el));

    for (const el of all) {
      if (el.matches('textarea, input, select, iframe, option')) continue; // fields scroll their own text by design
      const style = getComputedStyle(el);
      // Cut sideways: a box that hides or scrolls what is wider than itself (text-overflow included).
      if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) problems.push('cut or scrolled sideways: ' + describe(el) + ' (' + el.scrollWidth + ' px in ' + el.clientWidth + ')');
      // Cut at the bottom: a box that hides (not scrolls) what is taller than itself.
      if ((style.overflowY === 'hidden' || style.overflowY === 'clip') && el.scrollHeight > el.clientHeight + 1 && !el.matches('dialog')) problems.push('cut at the bottom: ' + describe(el));
      // Text wider than its own box spills over its neighbours (a word too long for a narrow column).
      const ownText = [...el.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim() !== '');
      if (ownText && style.overflowX === 'visible' && style.display !== 'inline' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) problems.push('text wider than its box: ' + describe(el) + ' (' + el.scrollWidth + ' px in ' + el.clientWidth + ')');
      const box = el.getBoundingClientRect();
      if (box.width > 0 && (box.right > width + 1 || box.left < -1)) problems.push('past the edge of the window: ' + describe(el) + ' (' + Math.round(box.left) + '…' + Math.round(box.right) + ' of ' + width + ')');
    }

    // Every control, scrolled to the middle of its scroll boxes, is inside the window and is what a finger there touches.
    const x0 = root.scrollLeft, y0 = root.scrollTop;
    const controls = all.filter((el) => el.matches('button, a[href], input:not([type=radio]):not([type=checkbox]), select, textarea, summary, .choice-option'));
    for (const el of controls) {
      el.scrollIntoView({ block: 'center', inline: 'nearest' });
      const box = el.getBoundingClientRect();
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      if (x < 0 || x > width || y < topEdge(el) || y > window.innerHeight) { problems.push('out of reach: ' + describe(el)); continue; }
      const hit = document.elementFromPoint(x, y);
      const mine = hit && (el.contains(hit) || hit.contains(el) || [...(el.labels ?? [])].some((label) => label.contains(hit)));
      if (!mine) problems.push('covered: ' + describe(el) + ' under ' + (hit ? describe(hit) : 'nothing'));
    }
    root.scrollTo(x0, y0);
    return problems;
  })()`);
}

/**
 * The elements of `selectors` that are not wholly on screen as the page is now (no scrolling):
 * inside the window, below the training banner, and not covered at their middle.
 */
export function notInView(page: Page, selectors: readonly string[]): Promise<string[]> {
  return page.evaluate<string[]>(`((selectors) => {
    ${IN_PAGE}
    const problems = [];
    for (const selector of selectors) {
      const el = document.querySelector(selector);
      if (!el || !shown(el)) { problems.push(selector + ': not shown'); continue; }
      const box = el.getBoundingClientRect();
      const inside = box.top >= topEdge(el) - 1 && box.bottom <= window.innerHeight + 1 && box.left >= -1 && box.right <= document.documentElement.clientWidth + 1;
      if (!inside) { problems.push(selector + ': not wholly in view (' + Math.round(box.top) + '…' + Math.round(box.bottom) + ' px, content from ' + Math.round(topEdge(el)) + ' to ' + window.innerHeight + ')'); continue; }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !(el.contains(hit) || hit.contains(el))) problems.push(selector + ': covered by ' + (hit ? describe(hit) : 'nothing'));
    }
    return problems;
  })(${JSON.stringify(selectors)})`);
}

/** axe-core's script, loaded into a page by `seriousA11yViolations` (as page code: the window's CSP refuses an injected <script>). */
let axeSource: string | undefined;

/**
 * axe-core's violations of impact serious or critical on the page as it is now, one line each:
 * the rule, what it asks, and where (up to five elements). The receipt's sandboxed frame (a
 * printout's picture, with no scripts) is left out.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(axeSource);
  return page.evaluate<
    string[]
  >(`axe.run(document, { iframes: false, resultTypes: ['violations'] }).then((results) => results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => violation.id + ' (' + violation.impact + '): ' + violation.help + ' — ' + violation.nodes.slice(0, 5).map((node) => node.target.join(' ')).join(', ')))`);
}
