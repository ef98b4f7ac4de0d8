/**
 * The window's two catalogs (renderer/i18n.ts) side by side: every Portuguese text is Portuguese,
 * not the English one copied over — the few that read the same in both languages (device and
 * document names) are listed here by key. And the English words the layout spec looks for on the
 * Portuguese window are the English ones, never a name both languages share.
 * (Read from the compiled window: `npm run build` first, which `npm test` runs.)
 */
import { describe, expect, it } from 'vitest';
import { englishOnlyWords, windowCatalogs, wordsOf } from './english.js';

/** Texts that are the same in both languages: names of things (PINPAD, NSU, CNPJ), a number with its unit, "OK". */
const SAME_IN_BOTH: ReadonlySet<string> = new Set([
  'status.pinpads',
  'status.firmware',
  'status.version',
  'payment.terminal',
  'payment.nsu',
  'payment.pinpadSays',
  'settings.pinpad',
  'settings.bleSignal',
  'setting.receipts.merchant.cnpj',
  'support.statusOk',
  'support.checkPinpads',
  // "Supervisor" is the Portuguese word too.
  'supervisor.title',
  // "3x": installments are written so in both.
  'training.installmentsN',
  'support.pinpad',
  'pinpad.kind.bluetooth',
  'pinpad.kind.serial',
  // "Pix" is its name in every language.
  'type.pix',
  // Only placeholders: a printer's trouble and its name.
  'ready.printerNamed',
]);

describe("the window's catalogs", () => {
  it('have every text in Portuguese of its own: none is the English one, except names that read the same', async () => {
    const { 'pt-BR': pt, en } = await windowCatalogs();
    expect(Object.keys(pt).sort()).toEqual(Object.keys(en).sort());
    const copied = Object.keys(pt).filter((key) => pt[key] === en[key] && !SAME_IN_BOTH.has(key));
    expect(copied).toEqual([]);
    // The list stays true: a key listed here that now differs is taken off it.
    expect([...SAME_IN_BOTH].filter((key) => pt[key] !== en[key])).toEqual([]);
  });

  it('give the English scan words that are English and never Portuguese', async () => {
    const catalogs = await windowCatalogs();
    const english = englishOnlyWords(catalogs);
    for (const word of [
      'the',
      'and',
      'not',
      'error',
      'failed',
      'printer',
      'payment',
      'settings',
      'sale',
      'cancel',
      'connected',
      'waiting',
      'unknown',
      'invalid',
      'default',
    ]) {
      expect(english, word).toContain(word);
    }
    for (const word of [
      'a',
      'de',
      'pinpad',
      'pinbridge',
      'nsu',
      'cnpj',
      'bluetooth',
      'usb',
      'ok',
      'firmware',
      'token',
    ]) {
      expect(english, word).not.toContain(word);
    }
  });

  it('read a text without its addresses, paths, flags, placeholders, quoted keys and serial numbers', () => {
    expect(
      wordsOf(
        'Erro: {error} em tcp://192.168.0.50:9100, /dev/ttyUSB0 e pdv.example.com (--headless), seção `printers`, POS0000000000001',
      ),
    ).toEqual(['erro', 'em', 'e', 'seção']);
  });
});
