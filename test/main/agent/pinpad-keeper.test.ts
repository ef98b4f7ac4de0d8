/**
 * The PINPAD keeper retries a PINPAD that is not there for as long as the agent runs — at a
 * store, all day. Each attempt must leave nothing behind: no abort listener piles up on the
 * agent's stop signal (Node warns past ten), and a stop ends the wait at once.
 */
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepPinpad } from '../../../main/agent/pinpad-keeper.js';
import { createLogger } from '../../../main/log.js';

const warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};

afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('keeping a PINPAD that is not there', () => {
  it('tries again and again without piling up listeners on the stop signal, and stops at once', async () => {
    process.on('warning', onWarning);
    const stop = new AbortController();
    let attempts = 0;
    const logger = createLogger({ level: 'silent' });
    const counting = new Proxy(logger, {
      get(target, property, receiver) {
        if (property === 'warn') {
          return (...args: unknown[]): void => {
            attempts++;
            Reflect.apply(target.warn, target, args);
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const kept = keepPinpad(join('/nonexistent', 'ttyPINPAD'), false, counting, stop.signal, {
      connected: () => Promise.resolve(),
      lost: () => undefined,
      ready: () => undefined,
    }, { reconnectDelayMs: 5 });
    while (attempts < 25) await new Promise((resolve) => setTimeout(resolve, 10));

    expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    const stoppedAt = Date.now();
    stop.abort();
    await kept;
    expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    expect(getEventListeners(stop.signal, 'abort')).toEqual([]);
  });
});
