/**
 * The settings file as the settings form edits it (renderer/settings/json.ts): a value read at its
 * path, set with the sections on the way created, removed with the sections it leaves empty, and
 * every other key of the file as it was.
 */
import { describe, expect, it } from 'vitest';
import { setAt, shownText, valueAt, type Json } from '../../../renderer/settings/json.js';

describe('valueAt', () => {
  it('reads a value at its path, and undefined where a section is missing or is not a section', () => {
    const file: Json = { receipts: { merchant: { name: 'Padaria' } }, training: true, list: ['a'] };
    expect(valueAt(file, ['receipts', 'merchant', 'name'])).toBe('Padaria');
    expect(valueAt(file, ['training'])).toBe(true);
    expect(valueAt(file, ['api', 'base_url'])).toBeUndefined();
    expect(valueAt(file, ['training', 'on'])).toBeUndefined();
    expect(valueAt(file, ['list', '0'])).toBeUndefined();
    expect(valueAt(null, ['training'])).toBeUndefined();
  });
});

describe('setAt', () => {
  it('sets a value, creating the sections on the way and keeping every other key', () => {
    const file: Json = { pos: { port: 17301 }, receipts: { merchant: { cnpj: '11222333000181' } } };
    setAt(file, ['receipts', 'merchant', 'name'], 'Padaria');
    setAt(file, ['printers', 'default', 'address'], 'lp://Recibos');
    expect(file).toEqual({
      pos: { port: 17301 },
      receipts: { merchant: { cnpj: '11222333000181', name: 'Padaria' } },
      printers: { default: { address: 'lp://Recibos' } },
    });
  });

  it('removes a value with undefined, and the sections the removal leaves empty, not one with other keys', () => {
    const file: Json = {
      printers: { default: { address: 'lp://Recibos' } },
      receipts: { merchant: { name: 'P', cnpj: 'C' } },
    };
    setAt(file, ['printers', 'default', 'address'], undefined);
    setAt(file, ['receipts', 'merchant', 'name'], undefined);
    expect(file).toEqual({ receipts: { merchant: { cnpj: 'C' } } });
  });

  it('removes nothing, and creates nothing, where the path does not exist', () => {
    const file: Json = { training: false };
    setAt(file, ['api', 'base_url'], undefined);
    expect(file).toEqual({ training: false });
  });
});

describe('shownText', () => {
  it('shows strings, numbers and booleans as text, anything else blank', () => {
    expect([
      shownText('tcp://x'),
      shownText(9100),
      shownText(true),
      shownText(null),
      shownText({}),
      shownText(undefined),
    ]).toEqual(['tcp://x', '9100', 'true', '', '', '']);
  });
});
