/**
 * The helpers every doctor check builds its result with: one message in English and Brazilian
 * Portuguese side by side, joined from parts language by language, and a result whose Portuguese
 * fix is there exactly when the English one is.
 */
import { describe, expect, it } from 'vitest';
import { bilingual, checkResult, formatDuration, joinBilingual } from '../../../main/doctor/check.js';

describe('checkResult', () => {
  it('puts the English in summary and fix, and the Portuguese of both under pt', () => {
    const result = checkResult({
      id: 'printers',
      status: 'fail',
      summary: bilingual('Printer: "default" out of paper', 'Impressora: "default" sem papel'),
      details: { printers: [] },
      fix: bilingual('Load a new paper roll.', 'Coloque uma bobina de papel nova.'),
    });
    expect(result).toEqual({
      id: 'printers',
      status: 'fail',
      summary: 'Printer: "default" out of paper',
      details: { printers: [] },
      fix: 'Load a new paper roll.',
      pt: { summary: 'Impressora: "default" sem papel', fix: 'Coloque uma bobina de papel nova.' },
    });
  });

  it('leaves the fix out in both languages when there is none', () => {
    const result = checkResult({
      id: 'settings',
      status: 'ok',
      summary: bilingual('Settings loaded', 'Configurações carregadas'),
      details: {},
      fix: undefined,
    });
    expect(result).not.toHaveProperty('fix');
    expect(result.pt).toEqual({ summary: 'Configurações carregadas' });
    expect(result.pt).not.toHaveProperty('fix');
  });
});

describe('joinBilingual', () => {
  it('joins each language from its own parts, with one separator or one per language', () => {
    const parts = [
      bilingual('17301 free', '17301 livre'),
      bilingual('17302 used by another program', '17302 usada por outro programa'),
    ];
    expect(joinBilingual(parts, ', ')).toEqual({
      en: '17301 free, 17302 used by another program',
      pt: '17301 livre, 17302 usada por outro programa',
    });
    expect(joinBilingual(parts, bilingual(' and ', ' e '))).toEqual({
      en: '17301 free and 17302 used by another program',
      pt: '17301 livre e 17302 usada por outro programa',
    });
  });
});

describe('formatDuration', () => {
  it('writes a decimal comma in Portuguese and leaves whole numbers as they are', () => {
    expect(formatDuration(1500)).toEqual({ en: '1.5 s', pt: '1,5 s' });
    expect(formatDuration(5000)).toEqual({ en: '5 s', pt: '5 s' });
    expect(formatDuration(300)).toEqual({ en: '300 ms', pt: '300 ms' });
  });
});
