/**
 * Display text as the PINPAD reads it: fixed 2×16 messages with the robustness of S220 §6.5.5,
 * free text where any character below 20h breaks a line (§6.5.4), NTM_MSG as 2×16 (§2.3.3).
 */
import { describe, expect, it } from 'vitest';
import {
  fixedLines,
  fixedMessage,
  freeTextLines,
  notificationMessage,
} from '../../../../drivers/simulator/wire/text.js';

describe('fixed 2×16 messages (DSP_MSG, CLO_MSG, RMC_MSG)', () => {
  it('splits 32 characters into lines 1–16 and 17–32 (the CLO example of §3.2.6)', () => {
    expect(fixedLines('POSTO FORÇA 10  OBRIGADO!!!     ')).toEqual(['POSTO FORÇA 10  ', 'OBRIGADO!!!     ']);
  });

  it('shows characters below 20h as spaces, completes a short message and ignores extra characters', () => {
    expect(fixedMessage('A\rB')).toBe('A B' + ' '.repeat(29));
    expect(fixedMessage('X'.repeat(40))).toBe('X'.repeat(32));
  });
});

describe('free text (DEX_MSG, SPE_DSPMSG)', () => {
  it('breaks lines at CR (the DEX example of §3.3.4) and at any other character below 20h', () => {
    expect(freeTextLines('Feliz Natal\re um\rPróspero\rAno Novo!')).toEqual([
      'Feliz Natal',
      'e um',
      'Próspero',
      'Ano Novo!',
    ]);
    expect(freeTextLines('A\nB\x01C')).toEqual(['A', 'B', 'C']);
  });
});

describe('NTM_MSG', () => {
  it('pads each line to 16 columns, as the TRACE\'s "SELECIONADO:    CREDITO         "', () => {
    expect(notificationMessage('SELECIONADO:', 'CREDITO')).toBe('SELECIONADO:    CREDITO         ');
    expect(notificationMessage('SOLICITE A SENHA')).toBe('SOLICITE A SENHA' + ' '.repeat(16));
  });
});
