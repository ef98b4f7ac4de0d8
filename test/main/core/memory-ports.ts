/**
 * The engine's ports in a few lines of memory, for specs that need no HTTP, no simulator and no
 * timers of their own: a provider (transactions in a map, every call written down) and a PINPAD
 * (what it showed, what the chip was told).
 */
import type {
  AuthorizationAnswer,
  CardRead,
  ChipFinish,
  PaymentsPort,
  ProviderTransaction,
  ReferenceLookup,
  SaleDevice,
  TransactionRequest,
} from '../../../main/core/ports.js';

/** A chip card as the PINPAD reports it: masked, with the card part of the authorization. */
export const CHIP_CARD: CardRead = {
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

export type Answer = 'approve' | 'decline' | 'lose-after-approving' | 'lose-unanswered';

/** What a seeded transaction may say; the rest is a pending PINPAD transaction of 1990 centavos. */
export type SeededTransaction = Partial<ProviderTransaction> & { readonly terminal: string };

/**
 * A provider in memory: transactions in a map, every call written down. `answer` decides the
 * next authorization; 'lose-after-approving' approves it at the provider and then loses the answer
 * on the way back (an error with no `kind`: a lost answer, the engine's reading). Each transaction
 * is created one second after the one before (created_at), on the PINPAD serial it names.
 */
export class MemoryProvider implements PaymentsPort {
  readonly calls: string[] = [];
  answer: Answer = 'approve';
  readonly #byId = new Map<string, ProviderTransaction>();
  readonly #terminals = new Map<string, string>();
  #clock = Date.parse('2026-03-10T12:00:00Z');

  /** A transaction created by someone else (a POS back end, another agent), pending unless said otherwise. */
  add(seed: SeededTransaction): ProviderTransaction {
    const { terminal, ...fields } = seed;
    const transaction: ProviderTransaction = {
      id: `tr-${this.#byId.size + 1}`,
      status: 'pending',
      amount: 1990,
      payment_type: 'credit',
      reference_id: null,
      description: 'Venda',
      notification: null,
      installment_plan: { number_installments: 1 },
      transaction_number: null,
      gateway_authorizer: null,
      payment_authorization: null,
      error: null,
      history: [],
      metadata: {},
      created_at: new Date((this.#clock += 1_000)).toISOString(),
      ...fields,
    };
    this.#byId.set(transaction.id, transaction);
    this.#terminals.set(transaction.id, terminal);
    return transaction;
  }

  /** The provider's record of a transaction, as it is now. */
  get(id: string): ProviderTransaction {
    const transaction = this.#byId.get(id);
    if (transaction === undefined) throw Object.assign(new Error(`no transaction ${id}`), { kind: 'not_found' });
    return transaction;
  }

  readonly transactions: PaymentsPort['transactions'] = {
    create: (params: TransactionRequest) => {
      this.calls.push('create');
      return Promise.resolve(
        this.add({
          terminal: params.terminal,
          amount: params.amount,
          payment_type: params.payment_type,
          reference_id: params.reference_id,
          description: params.description,
          notification: params.notification ?? null,
          installment_plan: params.installment_plan ?? null,
          metadata: params.metadata ?? {},
        }),
      );
    },
    retrieve: (id: string) => {
      this.calls.push('retrieve');
      return Promise.resolve(this.get(id));
    },
    listByReference: (reference: string, lookup: ReferenceLookup) => {
      this.calls.push('listByReference');
      const wanted = Object.entries(lookup.metadata);
      return Promise.resolve(
        [...this.#byId.values()].filter(
          (t) =>
            t.reference_id === reference ||
            (wanted.length > 0 && wanted.every(([key, value]) => t.metadata[key] === value)),
        ),
      );
    },
  };

  readonly terminal: PaymentsPort['terminal'] = {
    pendingTransactions: (serial: string) => {
      this.calls.push('pendingTransactions');
      return Promise.resolve(
        [...this.#byId.values()].filter((t) => t.status === 'pending' && this.#terminals.get(t.id) === serial),
      );
    },
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
      return Promise.resolve(this.get(id));
    },
    // As the terminal channel: a pending transaction is cancelled, an approved one reversed.
    reverse: (id: string) => {
      this.calls.push('reverse');
      return Promise.resolve(this.#set(id, { status: this.get(id).status === 'pending' ? 'canceled' : 'reversed' }));
    },
    void: (id: string) => {
      this.calls.push('void');
      return Promise.resolve(this.#set(id, { status: 'canceled' }));
    },
  };

  #set(id: string, patch: Partial<ProviderTransaction>): ProviderTransaction {
    const transaction = { ...this.get(id), ...patch };
    this.#byId.set(id, transaction);
    return transaction;
  }
}

/** A PINPAD in memory: what it showed, in order, and what the chip was told. */
export class MemoryPinpad implements SaleDevice {
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
