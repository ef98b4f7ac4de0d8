/**
 * Child process of the engine crash test: a whole agent (journal, payment engine, a simulated
 * PINPAD over an in-memory link, the typed client against the test's sandbox) runs one payment
 * and kills itself with SIGKILL at an exact point:
 *
 *   state:<state>   right after the journal committed a move to that state;
 *   after:<call>    right after the payments API answered that call, before the engine could
 *                   journal the answer (the API knows more than the journal).
 *
 * The kill is synchronous, in this process, so the point is exact; a parent reacting to output
 * would race the next step. Before dying it prints, one JSON line each on stdout with a
 * synchronous write: every journal event as it is committed, every API answer, and the crash
 * itself, so the parent knows what was committed and what the API was told.
 *
 * Run with `node --import tsx engine-crash-agent.ts '<AgentOrder as JSON>'` from the repo root (the
 * test runs it compiled: test/helpers/compile-child.ts).
 * This file is test-only code: it patches the journal's methods and wraps the payments port.
 */
import { writeSync } from 'node:fs';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator, type TestCardName } from '../../../drivers/simulator/index.js';
import { PaymentsClient, type ProviderCapabilities } from '../../../main/api/index.js';
import { paymentsPortOf } from '../../../main/agent/payments-port.js';
import { PaymentEngine } from '../../../main/core/engine.js';
import { Journal, type JournalMove } from '../../../main/core/journal/journal.js';
import type { ConfirmationPolicy } from '../../../main/core/journal/record.js';
import { attachPinpad } from '../../../main/pinpad/attach.js';
import type { PaymentsPort } from '../../../main/core/ports.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import { isFinal, type PaymentState } from '../../../main/core/states.js';
import { createLogger } from '../../../main/log.js';
import { recordSecrets } from '../../helpers/card-data-scan.js';

/** The API calls the engine makes, by the name a crash point uses. */
export type ApiCall =
  'create' | 'retrieve' | 'listByReference' | 'pendingTransactions' | 'authorize' | 'complete' | 'reverse' | 'void';

export type CrashPoint = `state:${PaymentState}` | `after:${ApiCall}`;

export interface AgentOrder {
  readonly api: {
    readonly url: string;
    readonly token: string;
    readonly marketplaceId: string;
    readonly sellerId: string;
    /** The provider's capabilities as the store's settings declare them. */
    readonly capabilities: ProviderCapabilities;
  };
  readonly journalPath: string;
  readonly logPath: string;
  /** The simulated PINPAD's serial number (the transaction's terminal). */
  readonly serial: string;
  /** The test card the simulated customer presents; null: nobody presents a card. */
  readonly card: TestCardName | null;
  /** The POS cancels the sale once the PINPAD shows the amount and waits for the card. */
  readonly posCancels: boolean;
  /** How long the PINPAD waits for a card (the engine's default when absent). */
  readonly cardTimeoutMs?: number;
  readonly confirmation: ConfirmationPolicy;
  readonly confirmationDeadlineMs: number;
  readonly apiTimeoutMs: number;
  /** The sale, as the engine takes it (its amount made Centavos by the parent; it crosses as JSON). */
  readonly params: SaleRequest;
  readonly crashAt: CrashPoint;
}

/** One line of the agent's stdout. */
export type AgentLine =
  | {
      readonly kind: 'event';
      readonly paymentId: string;
      readonly seq: number;
      readonly from: PaymentState | null;
      readonly to: PaymentState;
      readonly note: string;
    }
  | { readonly kind: 'api'; readonly call: ApiCall; readonly answer: string }
  | { readonly kind: 'crash'; readonly at: CrashPoint }
  | { readonly kind: 'end'; readonly state: PaymentState | null };

/** Exit code when the payment ended without ever reaching the crash point. */
const MISSED_CRASH_POINT = 3;

// fd 1 written with writeSync: the line has left this process before the next statement runs.
const print = (line: AgentLine): void => void writeSync(1, `${JSON.stringify(line)}\n`);

function crashIfAt(order: AgentOrder, point: CrashPoint): void {
  if (order.crashAt !== point) return;
  print({ kind: 'crash', at: point });
  process.kill(process.pid, 'SIGKILL');
}

/** Reports every committed journal event and dies right after the commit of the crash state. */
function watchJournal(journal: Journal, order: AgentOrder): void {
  const report = (paymentId: string): void => {
    const event = journal.events(paymentId).at(-1);
    if (event) print({ kind: 'event', paymentId, seq: event.seq, from: event.from, to: event.to, note: event.note });
  };
  const createIntent = journal.createIntent.bind(journal);
  journal.createIntent = (payment) => {
    const record = createIntent(payment);
    report(record.id);
    crashIfAt(order, `state:${record.state}`);
    return record;
  };
  const transition = journal.transition.bind(journal);
  journal.transition = (id, to, patch, note) => {
    const record = transition(id, to, patch, note);
    report(id);
    crashIfAt(order, `state:${to}`);
    return record;
  };
  // Several moves in one commit: the kill comes after the commit that holds the crash state —
  // for transitionsSyncedLater before its fsync has even started: a kill -9 does not wait for the disk.
  const committed = (id: string, moves: readonly JournalMove[]): void => {
    for (const event of journal.events(id).slice(-moves.length)) {
      print({ kind: 'event', paymentId: id, seq: event.seq, from: event.from, to: event.to, note: event.note });
    }
    for (const move of moves) crashIfAt(order, `state:${move.to}`);
  };
  const transitions = journal.transitions.bind(journal);
  journal.transitions = (id, moves) => {
    const records = transitions(id, moves);
    committed(id, moves);
    return records;
  };
  const transitionsSyncedLater = journal.transitionsSyncedLater.bind(journal);
  journal.transitionsSyncedLater = (id, moves) => {
    const staged = transitionsSyncedLater(id, moves);
    committed(id, moves);
    return staged;
  };
  const update = journal.update.bind(journal);
  journal.update = (id, patch, note) => {
    const record = update(id, patch, note);
    report(id);
    return record;
  };
}

/**
 * The client as the engine sees it, reporting each answer and dying at the `after:` point. The
 * continuation runs before the engine's own `await` resumes, so nothing of the answer is journaled.
 */
function watchPayments(client: PaymentsClient, order: AgentOrder): PaymentsPort {
  const answered = <T>(call: ApiCall, promise: Promise<T>, describe: (value: T) => string): Promise<T> =>
    promise.then((value) => {
      print({ kind: 'api', call, answer: describe(value) });
      crashIfAt(order, `after:${call}`);
      return value;
    });
  const status = (transaction: { status: string }): string => transaction.status;
  const { transactions, terminal } = client;
  return {
    transactions: {
      create: (params, options) => answered('create', transactions.create(params, options), status),
      retrieve: (id, options) => answered('retrieve', transactions.retrieve(id, options), status),
      listByReference: (reference, options) =>
        answered(
          'listByReference',
          transactions.listByReference(reference, options),
          (found) => found.map((transaction) => transaction.status).join(',') || 'none',
        ),
    },
    terminal: {
      pendingTransactions: (serial, options) =>
        answered('pendingTransactions', terminal.pendingTransactions(serial, options), (list) => String(list.length)),
      authorize: (id, request, options) => {
        // Kept for the card-data scan of the test run: none of these may reach a log or the journal.
        recordSecrets([request.pin_block?.block, request.encrypted_card_data?.payload, request.emv_data]);
        return answered('authorize', terminal.authorize(id, request, options), (result) => result.decision);
      },
      complete: (id, request, options) => answered('complete', terminal.complete(id, request, options), status),
      reverse: (id, request, options) => answered('reverse', terminal.reverse(id, request, options), status),
      void: (id, request, options) => answered('void', terminal.void(id, request, options), status),
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function main(order: AgentOrder): Promise<void> {
  const logger = createLogger({ level: 'trace', name: 'engine-crash-agent', file: order.logPath });
  const client = new PaymentsClient({
    baseUrl: order.api.url,
    token: order.api.token,
    marketplaceId: order.api.marketplaceId,
    maxRetries: 0,
    timeoutMs: order.apiTimeoutMs,
    capabilities: order.api.capabilities,
  });
  const journal = Journal.open(order.journalPath);
  watchJournal(journal, order);
  const engine = new PaymentEngine({
    journal,
    payments: paymentsPortOf(watchPayments(client, order)),
    sellerId: order.api.sellerId,
    config: {
      confirmation: order.confirmation,
      confirmationDeadlineMs: order.confirmationDeadlineMs,
      apiTimeoutMs: order.apiTimeoutMs,
      unknownResolution: { attempts: 2, delayMs: 10 },
      undoRetry: { baseMs: 20, maxMs: 200 },
    },
    logger,
  });
  const sim = new PinpadSimulator({
    serialNumber: order.serial,
    timeScale: 0.05,
    ...(order.card === null ? {} : { autoCustomer: { delayMs: 5, card: order.card } }),
  });
  const served = await startMemorySimulator(sim, { name: order.serial });
  const pinpad = new Pinpad(served.link.host, { logger });
  await pinpad.open();
  await attachPinpad(engine, pinpad, {
    logger,
    ...(order.cardTimeoutMs === undefined ? {} : { timeouts: { cardMs: order.cardTimeoutMs } }),
  });

  const reference = order.params.referenceId;
  if (order.posCancels) {
    // As a POS would: once the amount is on the PINPAD and it waits for the card.
    const showsAmount = new Promise<void>((resolve) => {
      const check = ({ lines }: { lines: readonly string[] }): void => {
        if (!/R\$/.test(lines.join('\n'))) return;
        sim.off('display', check);
        resolve();
      };
      sim.on('display', check);
    });
    engine.on('progress', (event) => {
      if (event.referenceId !== reference || event.step !== 'waiting_card') return;
      void showsAmount.then(() => engine.cancel(reference));
    });
  }
  await engine.start(order.params);
  // Still alive: the crash point may lie after the sale (a `pos` deadline voids the approval);
  // wait for the payment to end, then say the point was never reached.
  const until = Date.now() + 5_000;
  let state: PaymentState | null = null;
  while (Date.now() < until) {
    state = journal.findByReference(reference)?.state ?? null;
    if (state !== null && isFinal(state)) break;
    await sleep(20);
  }
  print({ kind: 'end', state });
  process.exit(MISSED_CRASH_POINT);
}

const argument = process.argv[2];
if (argument === undefined) throw new Error("usage: engine-crash-agent.ts '<order as JSON>'");
main(JSON.parse(argument) as AgentOrder).catch((error: unknown) => {
  process.stderr.write(
    `engine crash agent failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(2);
});
