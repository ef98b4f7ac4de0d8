/**
 * How each step of a sale talks to the PINPAD (main/pinpad/sale/context.ts): a failure becomes
 * one SaleStepError of its step and is logged by step and code only, the PINPAD's notifications
 * reach the cashier as one line, and nothing a listener does breaks the exchange in flight.
 */
import { describe, expect, it } from 'vitest';
import { AbecsStatusError } from '../../../../drivers/abecs/status.js';
import { SaleStepError } from '../../../../main/pinpad/sale-errors.js';
import { pinpadSeconds } from '../../../../main/pinpad/sale/context.js';
import { contextOn, fakePinpad, recordingLogger } from './fake-pinpad.js';

describe('a step’s failure', () => {
  it('becomes a SaleStepError of that step, from what the PINPAD said', async () => {
    const context = contextOn(fakePinpad().pinpad);
    const error = await context
      .step('read_card', () => {
        throw new AbecsStatusError('GCX', 12);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error).toMatchObject({ code: 'TIMEOUT', step: 'read_card' });
  });

  it('is logged by step and code alone: never the message, which might hold what the card said', async () => {
    const { logger, lines } = recordingLogger();
    const context = contextOn(fakePinpad().pinpad, { logger });
    await context
      .step('chip', () => {
        throw new Error('track 2 was 5500-secret-track');
      })
      .catch(() => {});
    expect(lines).toHaveLength(1);
    expect(lines[0]!.fields).toEqual({ step: 'chip', code: expect.any(String) as unknown });
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('passes a step’s answer through untouched', async () => {
    const context = contextOn(fakePinpad().pinpad);
    expect(await context.step('installments', () => 3)).toBe(3);
  });
});

describe('the wait of one command', () => {
  it('carries the sale’s signal only when the sale has one, and the host’s limit', () => {
    const context = contextOn(fakePinpad().pinpad);
    const signal = new AbortController().signal;
    expect(context.wait(undefined, 1_000)).not.toHaveProperty('signal');
    expect(context.wait(signal, 1_000)).toMatchObject({ signal, timeoutMs: 1_000 });
  });

  it('relays the PINPAD’s notification to the cashier as one line, blank lines left out, empty ones not at all', () => {
    const messages: string[] = [];
    const context = contextOn(fakePinpad().pinpad, { onMessage: (text) => messages.push(text) });
    const { onNotification } = context.wait(undefined, 1_000);
    onNotification!({ text: '', lines: ['INSIRA OU', 'PASSE O CARTAO'] });
    onNotification!({ text: '', lines: ['', 'SENHA'] });
    onNotification!({ text: '', lines: ['', ''] });
    expect(messages).toEqual(['INSIRA OU PASSE O CARTAO', 'SENHA']);
  });

  it('survives a cashier listener that throws, logging the error’s kind only', () => {
    const { logger, lines } = recordingLogger();
    const context = contextOn(fakePinpad().pinpad, {
      logger,
      onMessage: () => {
        throw new TypeError('listener bug with 5500-secret');
      },
    });
    expect(() => context.message('RETIRE O CARTAO')).not.toThrow();
    expect(lines).toEqual([{ level: 'warn', fields: { error: 'TypeError' }, message: 'onMessage listener threw' }]);
  });
});

describe('the PINPAD’s own limit (SPE_TIMEOUT)', () => {
  it('is whole seconds, rounded up, from 1 to 255', () => {
    expect(pinpadSeconds(0)).toBe(1);
    expect(pinpadSeconds(1_001)).toBe(2);
    expect(pinpadSeconds(60_000)).toBe(60);
    expect(pinpadSeconds(600_000)).toBe(255);
  });
});

describe('which commands the PINPAD knows', () => {
  it('comes from the identification read at attach', async () => {
    expect(await contextOn(fakePinpad({ info: { protocol: 'legacy' } }).pinpad).isLegacy()).toBe(true);
    expect(await contextOn(fakePinpad().pinpad).isLegacy()).toBe(false);
  });
});
