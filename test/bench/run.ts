/**
 * `npm run bench`: runs every benchmark, prints the results and writes them to
 * bench-results/latest.json. Speed goals are checked here, never in unit tests.
 *
 * `npm run bench -- --quick`: every benchmark once with tiny sizes (seconds, not minutes), written
 * to bench-results/quick.json — what CI runs so a benchmark that breaks fails the build. Its
 * numbers are not measurements.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { benchFraming } from './framing.bench.js';
import { benchLinkEfficiency, benchRoundTrips } from './pinpad.bench.js';
import { benchSandboxThroughput } from './sandbox.bench.js';
import { benchClientOverhead } from './client.bench.js';
import { benchJournalRecovery } from './journal.bench.js';
import { benchPaymentConcurrency, benchPaymentEndToEnd } from './payment.bench.js';
import { benchReceipts } from './receipts.bench.js';
import { benchPos } from './pos.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchIdle } from './idle.bench.js';

const quick = process.argv.includes('--quick');

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  quick,
};

console.log('framing: CRC and frame encode+decode throughput');
results.framing = await benchFraming();
console.log(results.framing);

console.log('round trips: OPN, DSP, GIN driver ⇄ simulator (ms)');
results.roundTrips = await (quick ? benchRoundTrips(10) : benchRoundTrips());
console.log(JSON.stringify(results.roundTrips, null, 2));

console.log('link efficiency: ~2 KB exchange at 19200 baud vs wire time');
results.linkEfficiency = await (quick ? benchLinkEfficiency(19_200, 1) : benchLinkEfficiency());
console.log(results.linkEfficiency);

console.log('sandbox: requests/s with keep-alive, beside a bare node:http hello-world');
results.sandbox = await (quick ? benchSandboxThroughput(1, 1) : benchSandboxThroughput());
console.log(results.sandbox);

console.log('payments client: GET buyer, client vs raw fetch (ms, keep-alive)');
results.clientOverhead = await (quick ? benchClientOverhead(50) : benchClientOverhead());
console.log(results.clientOverhead);

console.log('journal: start-up recovery with 1,000,000 finished payments and 10 unfinished (ms)');
results.journalRecovery = await (quick ? benchJournalRecovery(2_000, 2) : benchJournalRecovery());
console.log(results.journalRecovery);

console.log('payment end to end: one chip sale at a time, beside its API round trips and PINPAD exchanges (ms)');
results.paymentEndToEnd = await (quick ? benchPaymentEndToEnd(3, 3) : benchPaymentEndToEnd());
console.log(JSON.stringify(results.paymentEndToEnd, null, 2));

console.log('payments on 1 to 32 simulated PINPADs at once: payments/s and latency (ms)');
results.paymentConcurrency = await (quick ? benchPaymentConcurrency(1, [1, 2]) : benchPaymentConcurrency());
console.log(JSON.stringify(results.paymentConcurrency, null, 2));

console.log('receipts: journal record → receipt → ESC/POS per receipt (ms), bytes per receipt; SVG and PDF beside it');
results.receipts = await (quick ? benchReceipts(20) : benchReceipts());
console.log(JSON.stringify(results.receipts, null, 2));

console.log('POS API: pinpad.status round trips (1 and 50 clients), pinpad.busy fan-out to 50, memory per client; beside a bare ws server (ms, /s, KiB)');
results.pos = await (quick
  ? benchPos({ oneClientRequests: 20, clients: 3, requestsPerClient: 5, rounds: 1, burst: 20, singleEvents: 5, memoryClients: 5 })
  : benchPos());
console.log(JSON.stringify(results.pos, null, 2));

console.log('start-up: headless agent (training) from spawn to its ready line, and idle RSS after 2 s (goals: < 1 s, < 120 MB)');
results.startup = await (quick ? benchStartup(1) : benchStartup());
console.log(JSON.stringify(results.startup, null, 2));

console.log('idle: CPU s/h, processes spawned/h, log lines and bytes/h of the headless agent with no PINPAD and with the simulated one, beside the 750 ms polling before issue 19 (goal without a PINPAD: no spawn, ≤ 5 log lines/h)');
results.idle = await (quick ? benchIdle(1_000, 500) : benchIdle());
console.log(JSON.stringify(results.idle, null, 2));

const file = quick ? 'bench-results/quick.json' : 'bench-results/latest.json';
mkdirSync('bench-results', { recursive: true });
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`written to ${file}`);
