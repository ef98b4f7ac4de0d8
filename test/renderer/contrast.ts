/**
 * WCAG 2 contrast of the text a page shows, measured in the browser: for every visible element
 * with text of its own, the ratio of its colour to the first opaque background behind it (its
 * own or an ancestor's). Normal text needs 4.5:1, large text (24 px, or 18.66 px bold) 3:1.
 */
import type { Page } from 'playwright-core';

/** The elements under the minimum, as "text (#id or tag): ratio < minimum". */
export function lowContrastTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const parse = (css) => { const m = css.match(/rgba?\\(([^)]+)\\)/); if (!m) return null; const [r, g, b, a = '1'] = m[1].split(/[ ,\\/]+/).filter(Boolean); return [Number(r), Number(g), Number(b), Number(a)]; };
    const channel = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const background = (el) => {
      for (let node = el; node; node = node.parentElement) {
        const c = parse(getComputedStyle(node).backgroundColor);
        if (c && c[3] >= 0.99) return c;
        if (getComputedStyle(node).backgroundImage !== 'none') return null; // a gradient or stripes: not measured here
      }
      return [255, 255, 255, 1];
    };
    const found = [];
    for (const el of document.querySelectorAll('body *')) {
      if (el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
      if (!own || el.closest('[aria-hidden="true"], .visually-hidden, .sr-only, iframe, svg')) continue;
      if (el.matches(':disabled') || el.closest(':disabled')) continue; // disabled controls are exempt (WCAG 1.4.3)
      const fg = parse(style.color);
      const bg = background(el);
      if (!fg || !bg) continue;
      const blended = [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
      const [l1, l2] = [luminance(blended), luminance(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const minimum = large ? 3 : 4.5;
      if (ratio < minimum) found.push(el.textContent.trim().slice(0, 40) + ' (' + (el.id ? '#' + el.id : el.tagName.toLowerCase()) + '): ' + ratio.toFixed(2) + ' < ' + minimum);
    }
    return found;
  })()`);
}
