import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../drivers/errors.js';
import {
  formatDexText,
  formatDisplay2x16,
  normalizeDisplay2x16,
  parseDexText,
  parseDisplay2x16,
  toLatin1Display,
} from '../../../drivers/abecs/text.js';
import { display2x16, displayText } from './commands/basic-arbitraries.js';

describe('toLatin1Display', () => {
  it('keeps pt-BR accents, which travel as Latin-1 bytes', () => {
    const text = toLatin1Display('OPERAÇÃO É À Õ ú');
    expect(text).toBe('OPERAÇÃO É À Õ ú');
    expect(Buffer.from(text, 'latin1').subarray(5, 7)).toEqual(Buffer.from([0xc7, 0xc3]));
  });

  it('composes decomposed accents (NFC) so they fit in one Latin-1 byte', () => {
    expect(toLatin1Display('C\u0327A\u0303O')).toBe('ÇÃO');
  });

  it('maps typographic characters to ASCII', () => {
    expect(toLatin1Display('\u201CSim\u201D \u2018n\u00E3o\u2019 \u2013 a\u2014b\u2026 R$\u00A010')).toBe(
      '"Sim" \'não\' - a-b... R$ 10',
    );
  });

  it('removes diacritics on request, for PINPADs without Latin-1', () => {
    expect(toLatin1Display('OPERAÇÃO NÃO AUTORIZADA, ÚLTIMA', { stripAccents: true })).toBe(
      'OPERACAO NAO AUTORIZADA, ULTIMA',
    );
    expect(toLatin1Display('1º ß ½', { stripAccents: true })).toBe('1o ss 1/2');
  });

  it('produces ASCII only when stripping accents', () => {
    fc.assert(
      fc.property(displayText(40), (text) => {
        expect(toLatin1Display(text, { stripAccents: true })).toMatch(/^[\x20-\x7e]*$/);
      }),
    );
  });

  it('refuses characters outside Latin-1, naming them', () => {
    expect(() => toLatin1Display('Pago 😀')).toThrow(InvalidArgumentError);
    expect(() => toLatin1Display('Pago 😀')).toThrow(/"😀" \(U\+1F600\)/);
    expect(() => toLatin1Display('支付')).toThrow(/U\+652F/);
    expect(() => toLatin1Display('€ 10')).toThrow(/ISO-8859-1/);
  });

  it('refuses control characters', () => {
    expect(() => toLatin1Display('A\tB')).toThrow(/control character/);
    expect(() => toLatin1Display('A\nB')).toThrow(InvalidArgumentError);
    expect(() => toLatin1Display('A\u0085B')).toThrow(InvalidArgumentError);
  });
});

describe('formatDisplay2x16', () => {
  it('passes a 32-character pre-formatted message unchanged (the spec DSP032 example)', () => {
    const message = '    OPERAÇÃO       FINALIZADA   ';
    expect(formatDisplay2x16(message)).toBe(message);
  });

  it('keeps up to 16 characters on line 1 and pads to 32', () => {
    expect(formatDisplay2x16('APROVADA')).toBe('APROVADA'.padEnd(32, ' '));
    expect(formatDisplay2x16('')).toBe(' '.repeat(32));
  });

  it('splits on an explicit line break', () => {
    expect(formatDisplay2x16('VALOR: 10,00\nSENHA:')).toBe('VALOR: 10,00    SENHA:          ');
    expect(formatDisplay2x16('\r\nSEGUNDA')).toBe(`${' '.repeat(16)}SEGUNDA         `);
  });

  it('word-wraps 17 to 31 characters at a space when both lines fit', () => {
    expect(formatDisplay2x16('Cartao Credito Aguarde...')).toBe('Cartao Credito  Aguarde...      ');
    expect(formatDisplay2x16('SELECIONADO:    CREDITO')).toBe('SELECIONADO:    CREDITO         ');
    expect(formatDisplay2x16('INSIRA OU PASSE O CARTAO')).toBe('INSIRA OU PASSE O CARTAO        ');
  });

  it('cuts at column 16 when no space gives two fitting lines', () => {
    expect(formatDisplay2x16('ABCDEFGHIJKLMNOPQRSTU')).toBe('ABCDEFGHIJKLMNOPQRSTU           ');
    expect(formatDisplay2x16('A BCDEFGHIJKLMNOPQRSTUVWXYZ')).toBe('A BCDEFGHIJKLMNOPQRSTUVWXYZ     ');
  });

  it('refuses more than 32 characters with a clear sentence', () => {
    expect(() => formatDisplay2x16('X'.repeat(40))).toThrow(
      'The PINPAD shows at most 32 characters (2 lines of 16); this text has 40.',
    );
    expect(() => formatDisplay2x16(`${'X'.repeat(20)}\n${'Y'.repeat(20)}`)).toThrow(/this text has 40\./);
  });

  it('refuses a line longer than 16 and more than two lines', () => {
    expect(() => formatDisplay2x16(`${'X'.repeat(17)}\nY`)).toThrow(
      'Line 1 has 17 characters; the PINPAD shows at most 16 per line.',
    );
    expect(() => formatDisplay2x16('A\nB\nC')).toThrow(/at most 2 lines/);
  });

  it('strips accents when asked', () => {
    expect(formatDisplay2x16('OPERAÇÃO\nFINALIZADA', { stripAccents: true })).toBe('OPERACAO        FINALIZADA      ');
  });

  it('always returns 32 Latin-1 characters that keep every word of the input', () => {
    fc.assert(
      fc.property(displayText(32), (text) => {
        const out = formatDisplay2x16(text);
        expect(out).toHaveLength(32);
        expect(out.replace(/ /g, '')).toBe(text.replace(/ /g, ''));
        expect(formatDisplay2x16(out)).toBe(out);
      }),
    );
  });
});

describe('formatDexText', () => {
  it('turns line breaks into CR', () => {
    expect(formatDexText('VALOR: 0,01\nAPROXIME, INSIRA\r\nOU PASSE CARTAO')).toBe(
      'VALOR: 0,01\rAPROXIME, INSIRA\rOU PASSE CARTAO',
    );
  });

  it('enforces 160 characters by default and another limit when given', () => {
    expect(formatDexText('X'.repeat(160))).toHaveLength(160);
    expect(() => formatDexText('X'.repeat(161))).toThrow(/at most 160 characters/);
    expect(() => formatDexText('X'.repeat(100) + '\n' + 'Y'.repeat(28), { maxLength: 128 })).toThrow(
      /at most 128 characters .*this text has 129\./,
    );
  });

  it('is undone by parseDexText', () => {
    fc.assert(
      fc.property(fc.array(displayText(30), { minLength: 1, maxLength: 5 }), (lines) => {
        const text = lines.join('\n');
        expect(parseDexText(formatDexText(text))).toBe(text);
      }),
    );
  });
});

describe('parseDisplay2x16', () => {
  it('returns the two trimmed lines', () => {
    expect(parseDisplay2x16('    OPERAÇÃO       FINALIZADA   ')).toEqual(['OPERAÇÃO', 'FINALIZADA']);
    expect(parseDisplay2x16('SELECIONADO:    CREDITO         ')).toEqual(['SELECIONADO:', 'CREDITO']);
  });

  it('tolerates short messages and control characters as a PINPAD does', () => {
    expect(parseDisplay2x16('OLA')).toEqual(['OLA', '']);
    expect(normalizeDisplay2x16('A\x01B')).toBe('A B'.padEnd(32, ' '));
    expect(normalizeDisplay2x16('Z'.repeat(40))).toBe('Z'.repeat(32));
  });

  it('reads back what formatDisplay2x16 lays out', () => {
    fc.assert(
      fc.property(display2x16, (message) => {
        const [line1, line2] = parseDisplay2x16(message);
        expect(message.slice(0, 16).trim()).toBe(line1);
        expect(message.slice(16).trim()).toBe(line2);
      }),
    );
  });
});
