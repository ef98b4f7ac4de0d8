/**
 * Child process of the two-agents spec (engine-two-agents.test.ts): a whole agent (journal,
 * payment engine, a simulated PINPAD over an in-memory link, the typed client with its default
 * settings) that recovers what its journal holds, then runs the sales it was given one after the
 * other until the parent kills it with SIGKILL. The client is built as the agent builds it from
 * settings with no `capabilities` section: no Idempotency-Key, no reference_id filter, the
 * client's default retries.
 *
 * It prints one JSON line per event on stdout (synchronous writes, so a line is out before the
 * next statement): `ready` once the PINPAD is attached, `pending` when a sale's transaction
 * exists and its PINPAD waits for the card, `outcome` per sale, `done` when every sale ran.
 *
 * Run with `node --import tsx engine-two-agents-agent.ts '<AgentOrder as JSON>'` from the repo root.
 */
import { writeSync } from 'node:fs';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator } from '../../../drivers/simulator/index.js';
import { PaymentsClient } from '../../../main/api/index.js';
import { paymentsPortOf } from '../../../main/agent/payments-port.js';
import { PaymentEngine } from '../../../main/core/engine.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { centavos } from '../../../main/core/money.js';
import { attachPinpad } from '../../../main/pinpad/attach.js';
import { createLogger } from '../../../main/log.js';

export interface AgentOrder {
  readonly api: {
    readonly url: string;
    readonly token: string;
    readonly marketplaceId: string;
    readonly sellerId: string;
  };
  readonly journalPath: string;
  readonly logPath: string;
  readonly serial: string;
  readonly apiTimeoutMs: number;
  /** The sales' reference_ids, run in this order. */
  readonly references: readonly string[];
}

export type AgentLine =
  | { readonly kind: 'ready' }
  | { readonly kind: 'pending'; readonly reference: string }
  | { readonly kind: 'outcome'; readonly reference: string; readonly status: string; readonly state: string }
  | { readonly kind: 'done' };

const print = (line: AgentLine): void => void writeSync(1, `${JSON.stringify(line)}\n`);

async function main(order: AgentOrder): Promise<void> {
  const logger = createLogger({ level: 'debug', name: 'two-agents-a', file: order.logPath });
  const client = new PaymentsClient({
    baseUrl: order.api.url,
    token: order.api.token,
    marketplaceId: order.api.marketplaceId,
    timeoutMs: order.apiTimeoutMs,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 40,
  });
  const journal = Journal.open(order.journalPath);
  const engine = new PaymentEngine({
    journal,
    payments: paymentsPortOf(client),
    sellerId: order.api.sellerId,
    config: {
      apiTimeoutMs: order.apiTimeoutMs,
      unknownResolution: { attempts: 2, delayMs: 10 },
      undoRetry: { baseMs: 20, maxMs: 200 },
      recoveryRetry: { baseMs: 20, maxMs: 200 },
    },
    logger,
  });
  const sim = new PinpadSimulator({
    serialNumber: order.serial,
    timeScale: 0.05,
    autoCustomer: { delayMs: 5, card: 'visaCredit' },
  });
  const served = await startMemorySimulator(sim, { name: order.serial });
  const pinpad = new Pinpad(served.link.host, { logger });
  await pinpad.open();
  await attachPinpad(engine, pinpad, { logger });
  engine.on('progress', (event) => {
    if (event.step === 'waiting_card') print({ kind: 'pending', reference: event.referenceId });
  });
  print({ kind: 'ready' });
  await engine.recover();
  for (const reference of order.references) {
    const outcome = await engine.start({
      referenceId: reference,
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'Venda do teste de dois agentes',
    });
    print({ kind: 'outcome', reference, status: outcome.status, state: outcome.state });
  }
  print({ kind: 'done' });
  // Alive until killed: the parent decides when this agent dies.
  setInterval(() => undefined, 60_000);
}

const argument = process.argv[2];
if (argument === undefined) throw new Error("usage: engine-two-agents-agent.ts '<order as JSON>'");
main(JSON.parse(argument) as AgentOrder).catch((error: unknown) => {
  process.stderr.write(
    `two-agents agent failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(2);
});
