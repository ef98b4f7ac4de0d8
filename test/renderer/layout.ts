/**
 * What the layout specs ask of a page as the cashier sees it, measured in the browser: no
 * sideways scroll, no text cut by its box, nothing pushed past the window's edge, every control
 * reachable and not covered by something else (the sticky banner, the save bar, another layer),
 * and the parts that must be on screen as they are (the sale just started, a dialog's buttons)
 * inside the window and clear of the banner; a failure in the window's failure style, never in
 * success's green; and the answer to what the cashier did said to screen readers (a live region
 * changed to say it). Run in the page as text (no DOM library here).
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

/**
 * The failure style of the window (window.css): the text in --bad, and the element (or the box
 * it is in) marked as a failure — class `error` or `field-error`, `data-level`/`data-tone`
 * "bad", or role=alert — so it reads as one in colour and to a screen reader alike. The elements
 * of `selectors` that are not shown, or not in that style (green like a success, grey like a
 * hint), one line each.
 */
export function failureStyleProblems(page: Page, selectors: readonly string[]): Promise<string[]> {
  return page.evaluate<string[]>(`((selectors) => {
    ${IN_PAGE}
    const colour = (name) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(' + name + ')';
      document.body.append(probe);
      const value = getComputedStyle(probe).color;
      probe.remove();
      return value;
    };
    const bad = colour('--bad');
    const ok = colour('--ok');
    const marked = (el) => {
      for (let node = el, depth = 0; node && node !== document.body && depth < 4; node = node.parentElement, depth++) {
        if (node.matches('.error, .field-error, [data-level="bad"], [data-tone="bad"], [role="alert"]')) return true;
      }
      return false;
    };
    const problems = [];
    for (const selector of selectors) {
      const el = document.querySelector(selector);
      if (!el || !shown(el) || el.innerText.trim() === '') { problems.push(selector + ': no failure shown'); continue; }
      const shownColour = getComputedStyle(el).color;
      if (shownColour === ok) problems.push(selector + ': in the green of a success (' + describe(el) + ')');
      else if (shownColour !== bad) problems.push(selector + ': not in the failure colour ' + bad + ' but ' + shownColour + ' (' + describe(el) + ')');
      if (!marked(el)) problems.push(selector + ': not marked as a failure (class error, data-level/data-tone "bad" or role=alert): ' + describe(el));
    }
    return problems;
  })(${JSON.stringify(selectors)})`);
}

/**
 * Records in the page, from now on, each change of text inside a live region (aria-live polite or
 * assertive, role status, alert or log): what a screen reader says without the cashier moving.
 * Returns how many were recorded so far: what `notAnnounced` reads after this mark is new. (Put in
 * the page when asked, not as an init script: that would run in the receipts' sandboxed frames too,
 * which refuse scripts and say so on the console.)
 */
export function announcementMark(page: Page): Promise<number> {
  return page.evaluate<number>(`(() => {
    if (window.__announced === undefined) {
      const said = (window.__announced = []);
      const region = (node) => {
        const el = node.nodeType === 1 ? node : node.parentElement;
        return el ? el.closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]') : null;
      };
      new MutationObserver((records) => {
        for (const record of records) {
          const live = region(record.target);
          if (live && !live.closest('[aria-hidden="true"]')) said.push({ region: live, text: live.textContent.trim().replace(/\\s+/g, ' ') });
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    }
    return window.__announced.length;
  })()`);
}

/**
 * The elements of `selectors` whose text was not announced since `mark`: each must sit in a live
 * region whose text changed to hold it after the mark (the same text left as it was is not said
 * again by a screen reader).
 */
export function notAnnounced(page: Page, selectors: readonly string[], mark: number): Promise<string[]> {
  return page.evaluate<string[]>(`((selectors, mark) => {
    const problems = [];
    if (selectors.length === 0) return [];
    if (window.__announced === undefined) return ['the page records no announcements since it was loaded again (announcementMark)'];
    const said = window.__announced.slice(mark);
    for (const selector of selectors) {
      const el = document.querySelector(selector);
      const text = el ? el.textContent.trim().replace(/\\s+/g, ' ') : '';
      if (!el || text === '') { problems.push(selector + ': nothing to announce'); continue; }
      const live = el.closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]');
      if (!live) { problems.push(selector + ': not in a live region (aria-live, role status or alert): "' + text.slice(0, 60) + '"'); continue; }
      if (!said.some((entry) => entry.region === live && entry.text.includes(text))) problems.push(selector + ': its live region did not change to say "' + text.slice(0, 60) + '"');
    }
    return problems;
  })(${JSON.stringify(selectors)}, ${mark})`);
}
