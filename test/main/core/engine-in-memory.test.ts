/**
 * The payment engine over nothing but its ports: a provider and a PINPAD made of a few lines of
 * memory, no HTTP, no simulator, no timers of its own. What a sale asks of the PINPAD and of the
 * provider, in which order, and what the POS is told, specified without real devices or real time
 * (the engine's other specs drive the simulator and the sandbox for the same rules end to end).
 * The journal is the real SQLite one, on a temporary file.
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
import { MemoryPinpad, MemoryProvider } from './memory-ports.js';

const SERIAL = 'PB-MEMORY-1';

const engines: PaymentEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

function rig(): { engine: PaymentEngine; provider: MemoryProvider; pinpad: MemoryPinpad; journal: Journal } {
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'pinbridge-engine-memory-')), 'journal.db'));
  const provider = new MemoryProvider();
  const pinpad = new MemoryPinpad();
  // The lost answer is looked up at once: no real time passes in these specs.
  const engine = new PaymentEngine({
    journal,
    payments: provider,
    sellerId: 'seller-1',
    config: { unknownResolution: { attempts: 1, delayMs: 0 } },
  });
  engine.attachTerminal(SERIAL, pinpad);
  engines.push(engine);
  return { engine, provider, pinpad, journal };
}

const sale = (reference: string, amount = 1990): SaleRequest => ({
  referenceId: reference,
  amount: centavos(amount),
  paymentType: 'credit',
  installments: 1,
  description: 'Venda de teste',
});

describe('the engine over memory ports', () => {
  it('approves a chip sale: creates, shows the amount, reads the card, authorizes, lets the chip finish, completes', async () => {
    const { engine, provider, pinpad } = rig();
    const outcome = await engine.start(sale('memory-approved'));
    expect(outcome).toMatchObject({
      status: 'approved',
      referenceId: 'memory-approved',
      terminal: SERIAL,
      amount: 1990,
      authorizationCode: 'A1B2C3',
      nsu: '000123',
      card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' },
      problem: null,
    });
    expect(provider.calls).toEqual(['create', 'authorize', 'complete']);
    expect(pinpad.chipAnswers).toEqual([{ approved: true, responseCode: '00' }]);
    expect(pinpad.shown.slice(0, 2)).toEqual(['amount 1990', 'card']);
  });

  it('declines with the issuer’s reason: nothing completed, nothing undone', async () => {
    const { engine, provider } = rig();
    provider.answer = 'decline';
    const outcome = await engine.start(sale('memory-declined'));
    expect(outcome).toMatchObject({
      status: 'declined',
      issuerResponseCode: '51',
      authorizationCode: null,
      problem: { code: 'CARD_DECLINED' },
    });
    expect(provider.calls).not.toContain('complete');
    expect(provider.calls).not.toContain('reverse');
    expect(provider.calls).not.toContain('void');
  });

  it('reverses an approval the chip refused, and says the card declined it', async () => {
    const { engine, provider, pinpad } = rig();
    pinpad.chipDecision = 'refused';
    const outcome = await engine.start(sale('memory-chip-refused'));
    expect(outcome).toMatchObject({ status: 'declined', problem: { code: 'CHIP_REFUSED' } });
    expect(provider.calls).toEqual(['create', 'authorize', 'reverse']);
  });

  it('keeps a refused reversal queued when its error quotes an id whose digits pass the Luhn check: the journal masks the run, never refuses the move', async () => {
    const { engine, provider, pinpad, journal } = rig();
    pinpad.chipDecision = 'refused';
    // What the HTTP client says of a timeout, naming the path; this marketplace id holds "4539578763621486".
    const path = '/v1/marketplaces/ab4539578763621486cdef0123456789/card_present_transactions/tr-1/reverse';
    const reverse = provider.terminal.reverse.bind(provider.terminal);
    let refusals = 1;
    Object.assign(provider.terminal, {
      reverse: (...args: Parameters<typeof reverse>) =>
        refusals-- > 0
          ? Promise.reject(
              new PaymentsPortError({
                kind: 'answer_unknown',
                code: 'timeout_error',
                message: `Payments API did not answer POST ${path} within 15000 ms (attempt 1)`,
              }),
            )
          : reverse(...args),
    });
    const outcome = await engine.start(sale('memory-reverse-luhn-id'));
    expect(outcome).toMatchObject({ status: 'declined', state: 'reversing', problem: { code: 'CHIP_REFUSED' } });
    expect(engine.pending().undos.map((undo) => undo.referenceId)).toEqual(['memory-reverse-luhn-id']);
    const record = journal.get(outcome.paymentId)!;
    expect(record.pendingUndo?.lastError).toContain('ab453957******1486cdef');
    expect(journal.events(record.id).at(-1)?.note).toContain('ab453957******1486cdef');
  });

  it('learns a lost answer from the provider’s record instead of asking twice: read back, found approved, the chip told so', async () => {
    const { engine, provider, pinpad } = rig();
    provider.answer = 'lose-after-approving';
    const outcome = await engine.start(sale('memory-lost'));
    expect(provider.calls).toEqual(['create', 'authorize', 'retrieve', 'complete']);
    expect(pinpad.chipAnswers).toEqual([{ approved: true, responseCode: '00' }]);
    expect(outcome).toMatchObject({
      status: 'approved',
      transactionId: 'tr-1',
      authorizationCode: 'A1B2C3',
      nsu: '000123',
      issuerResponseCode: '00',
    });
  });

  it('undoes an authorization whose answer was lost and that the provider never approved: the chip hears nothing, the transaction is reversed', async () => {
    const { engine, provider, pinpad } = rig();
    provider.answer = 'lose-unanswered';
    const outcome = await engine.start(sale('memory-unanswered'));
    expect(pinpad.chipAnswers).toEqual([null]);
    expect(provider.calls).toEqual(['create', 'authorize', 'retrieve', 'reverse']);
    expect(outcome).toMatchObject({
      status: 'failed',
      authorizationCode: null,
      problem: { code: 'AUTHORIZATION_NOT_RECEIVED' },
    });
  });
});
