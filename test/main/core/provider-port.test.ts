/**
 * A provider's own PaymentsPort (an SDK, a TEF bridge: no HTTP client in sight) is understood by
 * the engine through the port's failure `kind` alone: its refusal ends the payment as a refusal,
 * with nothing looked up or cancelled, and only an error it cannot classify counts as a lost
 * answer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentEngine } from '../../../main/core/engine.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { centavos } from '../../../main/core/money.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import { PaymentsPortError } from '../../../main/core/payments-failure.js';
import type { PaymentsPort, SaleDevice } from '../../../main/core/ports.js';

/** A PINPAD that is never reached past the transaction's creation. */
const idlePinpad: SaleDevice = {
  prepare: () => Promise.resolve(),
  showAmount: () => Promise.resolve(),
  chooseInstallments: () => Promise.resolve(1),
  readTaxId: () => Promise.reject(new Error('not asked')),
  readCard: () => Promise.reject(new Error('no card in this spec')),
  finishChip: () => Promise.reject(new Error('no chip in this spec')),
  removeCard: () => Promise.resolve(),
  showResult: () => Promise.resolve(),
};

/** A provider whose creation fails with `failure`; every call is written down. */
function provider(failure: Error): { port: PaymentsPort; calls: string[] } {
  const calls: string[] = [];
  const never = (call: string) => (): Promise<never> => {
    calls.push(call);
    return Promise.reject(new Error(`${call}: unreachable in this spec`));
  };
  const port: PaymentsPort = {
    transactions: {
      create: () => {
        calls.push('create');
        return Promise.reject(failure);
      },
      retrieve: never('retrieve'),
      listByReference: () => {
        calls.push('listByReference');
        return Promise.resolve([]);
      },
    },
    terminal: {
      pendingTransactions: () => Promise.resolve([]),
      authorize: never('authorize'),
      complete: never('complete'),
      reverse: never('reverse'),
      void: never('void'),
    },
  };
  return { port, calls };
}

const engines: PaymentEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

function engineOver(port: PaymentsPort): PaymentEngine {
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'pinbridge-provider-port-')), 'journal.db'));
  const engine = new PaymentEngine({ journal, payments: port, sellerId: 'seller-1' });
  engine.attachTerminal('PB-PROVIDER-1', idlePinpad);
  engines.push(engine);
  return engine;
}

const sale = (reference: string): SaleRequest => ({
  referenceId: reference,
  amount: centavos(1990),
  paymentType: 'credit',
  installments: 1,
  description: 'Venda de teste',
});

describe("a provider's own PaymentsPort", () => {
  it('has its refusal taken as a refusal: the payment fails at once, nothing is looked up', async () => {
    const { port, calls } = provider(
      new PaymentsPortError({ kind: 'refused', code: 'E-AMOUNT', message: 'amount above the terminal limit' }),
    );
    const outcome = await engineOver(port).start(sale('provider-refused-1'));
    expect(outcome).toMatchObject({
      status: 'failed',
      state: 'failed',
      problem: {
        code: 'API_REJECTED',
        message: expect.stringContaining('E-AMOUNT: amount above the terminal limit') as unknown,
      },
    });
    expect(calls).toEqual(['create']);
  });

  it('is understood by the fields of its own error class, not by the core’s', async () => {
    class BridgeError extends Error {
      readonly kind = 'not_enabled';
    }
    const { port, calls } = provider(new BridgeError('PINPAD sales are off for this store'));
    const outcome = await engineOver(port).start(sale('provider-not-enabled-1'));
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'API_NOT_ENABLED' } });
    expect(calls).toEqual(['create']);
  });

  it('has an error it did not classify taken as a lost answer: the reference is looked up first', async () => {
    const { port, calls } = provider(Object.assign(new Error('bridge socket closed'), { code: 'EPIPE' }));
    const outcome = await engineOver(port).start(sale('provider-lost-1'));
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'API_UNAVAILABLE' } });
    expect(calls).toEqual(['create', 'listByReference']);
  });
});
