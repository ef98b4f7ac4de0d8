/**
 * Child process of the crash test: journals payments along the happy path as fast as it can and
 * prints "<id> <state>" after each commit returns, until it is killed. Run with
 * `node --import tsx crash-writer.ts <journal path>`.
 */
import { Journal } from '../../../../main/core/journal/journal.js';
import type { PaymentPatch } from '../../../../main/core/journal/record.js';
import { centavos } from '../../../../main/core/money.js';
import type { PaymentState } from '../../../../main/core/states.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: crash-writer.ts <journal path>');

const HAPPY_PATH: readonly PaymentState[] = [
  'intent',
  'created',
  'card_read',
  'authorizing',
  'approved',
  'completing',
  'awaiting_confirmation',
  'confirmed',
];

const patches: Partial<Record<PaymentState, PaymentPatch>> = {
  card_read: { card: { brand: 'mastercard', maskedPan: '555555******4444', entryMode: 'contactless_chip' } },
  approved: {
    authorization: { authorizationCode: 'XYZ123', nsu: '123456', responseCode: '00', responseMessage: 'approved' },
  },
};

const journal = Journal.open(path);
// Pipes are synchronous on Linux: a printed line has left this process before the next write.
const print = (line: string): void => void process.stdout.write(`${line}\n`);
for (let n = 0; ; n++) {
  const record = journal.createIntent({
    referenceId: `crash-${process.pid}-${n}`,
    source: 'pos',
    terminal: 'PP-CRASH',
    amount: centavos(100 + n),
    paymentType: 'credit',
    installments: null,
    description: 'crash test',
    notification: null,
    paramsHash: 'c'.repeat(64),
    confirmation: 'auto',
  });
  print(`${record.id} intent`);
  for (const to of HAPPY_PATH.slice(1)) {
    journal.transition(record.id, to, patches[to] ?? {}, `to ${to}`);
    print(`${record.id} ${to}`);
  }
}
