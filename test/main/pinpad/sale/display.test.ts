/**
 * What the PINPAD's display shows during a sale, and when (main/pinpad/sale/display.ts): the
 * amount before the card, the card prompt while the card is asked for, the notice of a legacy
 * PINPAD before GCR, a swiped card's PIN prompt, and the result.
 */
import { describe, expect, it } from 'vitest';
import { AbecsStatusError } from '../../../../drivers/abecs/status.js';
import {
  CLASSIC_DISPLAY,
  cardPrompt,
  displaySize,
  legacyNoticeScreen,
  pinPrompt,
  showAmount,
  showResult,
} from '../../../../main/pinpad/sale/display.js';
import { contextOn, fakePinpad, recordingLogger } from './fake-pinpad.js';

const LONG_NOTIFICATION = 'Pedido 4521 - Loja do Centro SP';
/** A display with room for amount, notification and request at once (8 × 20). */
const TALL = { lines: 8, columns: 20 };

describe('before the card: the amount and the notification (showAmount)', () => {
  it('on a 2 × 16 display: the amount on line 1, the notification’s first 16 columns on line 2 (DSP)', async () => {
    const { pinpad, calls } = fakePinpad();
    await showAmount(contextOn(pinpad), 1990, LONG_NOTIFICATION);
    expect(calls).toEqual([{ method: 'display', request: 'R$ 19,90\nPedido 4521 - Lo' }]);
  });

  it('on a display that holds the card prompt: that very screen (DEX), so nothing moves when GCX takes over', async () => {
    const { pinpad, calls } = fakePinpad({ info: { display: TALL } });
    await showAmount(contextOn(pinpad), 1990, LONG_NOTIFICATION);
    const screen = 'R$ 19,90\n\nPedido 4521 - Loja\ndo Centro SP\n\nAPROXIME, INSIRA\nOU PASSE CARTAO';
    expect(calls).toEqual([{ method: 'displayExtended', request: screen }]);
    expect(cardPrompt(TALL, 1990, LONG_NOTIFICATION).promptFor(true)).toBe(screen.replaceAll('\n', '\r'));
  });

  it('without a notification (or a blank one): the amount alone (DSP)', async () => {
    const { pinpad, calls } = fakePinpad({ info: { display: TALL } });
    await showAmount(contextOn(pinpad), 1990, null);
    await showAmount(contextOn(pinpad), 1990, '   ');
    expect(calls.map((call) => call.request)).toEqual(['R$ 19,90\n', 'R$ 19,90\n']);
  });

  it('fails as step show_amount when the PINPAD refuses the screen', async () => {
    const { pinpad } = fakePinpad({
      answers: {
        display: () => {
          throw new AbecsStatusError('DSP', 12);
        },
      },
    });
    await expect(showAmount(contextOn(pinpad), 1990, 'Mesa 12')).rejects.toMatchObject({ step: 'show_amount' });
  });
});

describe('while the card is asked for (cardPrompt)', () => {
  it('on a display that holds it: the notification’s screen as GCX’s prompt, its request following contactless', () => {
    const prompt = cardPrompt({ lines: 4, columns: 20 }, 1990, 'Mesa 12');
    expect(prompt.promptFor(true)).toBe('R$ 19,90\rMesa 12\rAPROXIME, INSIRA\rOU PASSE CARTAO');
    expect(prompt.promptFor(false)).toBe('R$ 19,90\rMesa 12\rINSIRA OU PASSE\rO CARTAO');
    expect(prompt.rotation).toBeUndefined();
  });

  it('on a 2 × 16 display: GCX’s own prompt, in turns with the whole notification (never cut)', () => {
    const prompt = cardPrompt(CLASSIC_DISPLAY, 1990, LONG_NOTIFICATION);
    expect(prompt.promptFor(true)).toBeUndefined();
    expect(prompt.promptFor(false)).toBeUndefined();
    expect(prompt.rotation).toEqual(['Pedido 4521 - Lo\nja do Centro SP']);
  });

  it('without a notification: GCX’s own prompt alone, after the amount showAmount showed', () => {
    const prompt = cardPrompt(undefined, 1990, null);
    expect(prompt.promptFor(true)).toBeUndefined();
    expect(prompt.rotation).toBeUndefined();
  });

  it('takes the display’s size from the identification, 2 × 16 when it gives none or cannot be read', async () => {
    expect(await displaySize(fakePinpad({ info: { display: TALL } }).pinpad)).toEqual(TALL);
    expect(await displaySize(fakePinpad({ info: { display: undefined } }).pinpad)).toEqual(CLASSIC_DISPLAY);
    const unreadable = fakePinpad().pinpad;
    unreadable.info = () => Promise.reject(new Error('no answer'));
    expect(await displaySize(unreadable)).toEqual(CLASSIC_DISPLAY);
  });
});

describe('on a legacy PINPAD, before GCR (legacyNoticeScreen)', () => {
  it('shows the amount with a notification that fits one line, as showAmount did', () => {
    expect(legacyNoticeScreen(1990, 'Mesa 12')).toBe('R$ 19,90\nMesa 12');
  });

  it('shows a longer notification whole on both lines', () => {
    expect(legacyNoticeScreen(1990, LONG_NOTIFICATION)).toBe('Pedido 4521 - Lo\nja do Centro SP');
  });
});

describe('a swiped card’s PIN (pinPrompt, GPN’s message)', () => {
  it('shows the amount over "SENHA:", without its label when both do not fit 16 columns', () => {
    expect(pinPrompt(1990)).toBe('VALOR: 19,90\nSENHA:');
    expect(pinPrompt(123_456_789)).toBe('1.234.567,89\nSENHA:');
  });
});

describe('the result (showResult)', () => {
  it('shows the text cut to 2 × 16', async () => {
    const { pinpad, calls } = fakePinpad();
    await showResult(contextOn(pinpad), 'APROVADA\nRETIRE O CARTAO, OBRIGADO');
    expect(calls).toEqual([{ method: 'display', request: 'APROVADA\nRETIRE O CARTAO,' }]);
  });

  it('never throws when the display fails: the sale is already decided; the log says step and code only', async () => {
    const { logger, lines } = recordingLogger();
    const { pinpad } = fakePinpad({
      answers: {
        display: () => {
          throw new AbecsStatusError('DSP', 12);
        },
      },
    });
    await expect(showResult(contextOn(pinpad, { logger }), 'APROVADA')).resolves.toBeUndefined();
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { step: 'show_result', code: 'TIMEOUT' },
        message: 'the PINPAD did not show the result',
      },
    ]);
  });
});
