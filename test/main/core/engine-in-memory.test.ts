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
import type {
  AuthorizationAnswer,
  CardRead,
  ChipFinish,
  PaymentsPort,
  ProviderTransaction,
  SaleDevice,
  TransactionRequest,
} from '../../../main/core/ports.js';

const SERIAL = 'PB-MEMORY-1';

/** A chip card as the PINPAD reports it: masked, with the card part of the authorization. */
const CHIP_CARD: CardRead = {
  card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' },
  authorization: {
    terminal: { model: 'MEMORY PINPAD', table_versions: { '01': '2611270001' } },
    entry_mode: 'chip',
    pos_entry_mode: '051',
    card: { brand: 'visa', first6_digits: '411111', last4_digits: '1111', pan_length: 16 },
    cardholder_verification: 'online_pin',
  },
  chipDecision: 'online',
  needsChipCompletion: true,
};

type Answer = 'approve' | 'decline' | 'lose-after-approving' | 'lose-unanswered';

/**
 * A provider in memory: transactions in a map, every call written down. `answer` decides the
 * next authorization; 'lose-after-approving' approves it at the provider and then loses the answer
 * on the way back (an error with no `kind`: a lost answer, the engine's reading).
 */
class MemoryProvider implements PaymentsPort {
  readonly calls: string[] = [];
  answer: Answer = 'approve';
  readonly #byId = new Map<string, ProviderTransaction>();

  readonly transactions: PaymentsPort['transactions'] = {
    create: (params: TransactionRequest) => {
      this.calls.push('create');
      const transaction: ProviderTransaction = {
        id: `tr-${this.#byId.size + 1}`,
        status: 'pending',
        amount: params.amount,
        payment_type: params.payment_type,
        reference_id: params.reference_id,
        description: params.description,
        notification: params.notification ?? null,
        installment_plan: params.installment_plan ?? null,
        transaction_number: null,
        gateway_authorizer: null,
        payment_authorization: null,
        error: null,
        history: [],
        metadata: params.metadata ?? {},
        created_at: new Date().toISOString(),
      };
      this.#byId.set(transaction.id, transaction);
      return Promise.resolve(transaction);
    },
    retrieve: (id: string) => {
      this.calls.push('retrieve');
      return Promise.resolve(this.#get(id));
    },
    listByReference: (reference: string) => {
      this.calls.push('listByReference');
      return Promise.resolve([...this.#byId.values()].filter((t) => t.reference_id === reference));
    },
  };

  readonly terminal: PaymentsPort['terminal'] = {
    pendingTransactions: () => Promise.resolve([]),
    authorize: (id: string) => {
      this.calls.push('authorize');
      // The request never reached an issuer: the transaction stays pending, the answer is lost.
      if (this.answer === 'lose-unanswered') return Promise.reject(new Error('connect ETIMEDOUT'));
      const approved = this.answer !== 'decline';
      const transaction = this.#set(id, {
        status: approved ? 'succeeded' : 'failed',
        payment_authorization: approved
          ? { authorizer_id: 'memory', authorization_code: 'A1B2C3', authorization_nsu: '000123' }
          : null,
        error: approved ? null : { code: 'card_declined', message: 'insufficient funds', response_code: '51' },
        history: [
          {
            operation_type: 'authorization',
            response_code: approved ? '00' : '51',
            response_message: approved ? 'approved' : 'insufficient funds',
            authorization_code: approved ? 'A1B2C3' : null,
            authorization_nsu: approved ? '000123' : null,
          },
        ],
      });
      if (this.answer === 'lose-after-approving') return Promise.reject(new Error('socket hang up'));
      const answer: AuthorizationAnswer = {
        decision: approved ? 'approved' : 'declined',
        response_code: approved ? '00' : '51',
        response_message: approved ? 'approved' : 'insufficient funds',
        decline_code: approved ? null : 'insufficient_funds',
        authorization_code: approved ? 'A1B2C3' : null,
        nsu: approved ? '000123' : null,
        issuer_emv_data: approved ? '8A023030' : null,
        transaction,
      };
      return Promise.resolve(answer);
    },
    complete: (id: string) => {
      this.calls.push('complete');
      return Promise.resolve(this.#get(id));
    },
    reverse: (id: string) => {
      this.calls.push('reverse');
      return Promise.resolve(this.#set(id, { status: 'reversed' }));
    },
    void: (id: string) => {
      this.calls.push('void');
      return Promise.resolve(this.#set(id, { status: 'canceled' }));
    },
  };

  #get(id: string): ProviderTransaction {
    const transaction = this.#byId.get(id);
    if (transaction === undefined) throw Object.assign(new Error(`no transaction ${id}`), { kind: 'not_found' });
    return transaction;
  }

  #set(id: string, patch: Partial<ProviderTransaction>): ProviderTransaction {
    const transaction = { ...this.#get(id), ...patch };
    this.#byId.set(id, transaction);
    return transaction;
  }
}

/** A PINPAD in memory: what it showed, in order, and what the chip was told. */
class MemoryPinpad implements SaleDevice {
  readonly shown: string[] = [];
  readonly chipAnswers: ({ approved: boolean; responseCode: string } | null)[] = [];
  chipDecision: ChipFinish['decision'] = 'accepted';

  prepare(): Promise<void> {
    return Promise.resolve();
  }
  showAmount(amount: number): Promise<void> {
    this.shown.push(`amount ${amount}`);
    return Promise.resolve();
  }
  chooseInstallments(): Promise<number> {
    return Promise.resolve(1);
  }
  readTaxId(): Promise<string> {
    return Promise.reject(new Error('no tax id asked in these specs'));
  }
  readCard(): Promise<CardRead> {
    this.shown.push('card');
    return Promise.resolve(CHIP_CARD);
  }
  finishChip(answer: { approved: boolean; responseCode: string } | null): Promise<ChipFinish> {
    this.chipAnswers.push(answer === null ? null : { approved: answer.approved, responseCode: answer.responseCode });
    return Promise.resolve({ decision: answer?.approved ? this.chipDecision : 'refused', emvData: null });
  }
  removeCard(message: string): Promise<void> {
    this.shown.push(`remove: ${message}`);
    return Promise.resolve();
  }
  showResult(text: string): Promise<void> {
    this.shown.push(`result: ${text}`);
    return Promise.resolve();
  }
}

const engines: PaymentEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

function rig(): { engine: PaymentEngine; provider: MemoryProvider; pinpad: MemoryPinpad } {
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
  return { engine, provider, pinpad };
}

const sale = (reference: string, amount = 1990): Record<string, unknown> => ({
  reference_id: reference,
  amount,
  payment_type: 'credit',
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
