/**
 * The demo POS page says a payment in the window's own words: the type as Pinbridge's window
 * says it ("Crédito à vista", never "Crédito em 1x") and the card with its brand in capitals
 * ("VISA 411111******1111", never "visa …"). demo/labels.js is a plain browser module (the demo has
 * no build step and loads nothing of the window), so this spec holds it to renderer/labels.ts
 * (compiled: `npm run build` first, which `npm test` runs).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../main/version.js';

interface Card {
  readonly brand: string;
  readonly masked_pan: string;
  readonly entry_mode: string;
}
interface Labels {
  typeLabel(paymentType: 'credit' | 'debit', installments: number | null): string;
  cardLabel(card: Card | null): string;
}

// A plain browser module without types: loaded through a variable so the type checker leaves it be.
const LABELS_MODULE = '../../demo/labels.js';
const demo = (await import(LABELS_MODULE)) as Labels;
// The window's, as the browser loads it (compiled: `npm run build` first, which `npm test` runs).
const windowLabels = (await import(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'renderer', 'labels.js')).href)) as Labels;

describe("the demo page's words for a payment", () => {
  it.each([
    ['credit', 1, 'Crédito à vista'],
    ['credit', 3, 'Crédito em 3x'],
    ['credit', 12, 'Crédito em 12x'],
    ['credit', null, 'Crédito'],
    ['debit', null, 'Débito'],
  ] as const)('%s in %j installments reads "%s", as in the window', (type, installments, words) => {
    expect(demo.typeLabel(type, installments)).toBe(words);
    expect(windowLabels.typeLabel(type, installments)).toBe(words);
  });

  it.each(['visa', 'mastercard', 'elo'])('a %s card reads with the brand in capitals, as in the window', (brand) => {
    const card = { brand, masked_pan: '411111******1111', entry_mode: 'chip' };
    expect(demo.cardLabel(card)).toBe(`${brand.toUpperCase()} 411111******1111`);
    expect(demo.cardLabel(card)).toBe(windowLabels.cardLabel(card));
  });

  it('says "—" for a payment that never reached a card, as the window does', () => {
    expect(demo.cardLabel(null)).toBe('—');
    expect(windowLabels.cardLabel(null)).toBe('—');
  });
});
