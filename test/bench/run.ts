/**
 * `npm run bench`: runs every benchmark, prints the results and writes them to
 * bench-results/latest.json. Speed goals are checked here, never in unit tests.
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

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
};

console.log('framing: CRC and frame encode+decode throughput');
results.framing = await benchFraming();
console.log(results.framing);

console.log('round trips: OPN, DSP, GIN driver ⇄ simulator (ms)');
results.roundTrips = await benchRoundTrips();
console.log(JSON.stringify(results.roundTrips, null, 2));

console.log('link efficiency: ~2 KB exchange at 19200 baud vs wire time');
results.linkEfficiency = await benchLinkEfficiency();
console.log(results.linkEfficiency);

console.log('sandbox: requests/s with keep-alive, beside a bare node:http hello-world');
results.sandbox = await benchSandboxThroughput();
console.log(results.sandbox);

console.log('payments client: GET buyer, client vs raw fetch (ms, keep-alive)');
results.clientOverhead = await benchClientOverhead();
console.log(results.clientOverhead);

console.log('journal: start-up recovery with 1,000,000 finished payments and 10 unfinished (ms)');
results.journalRecovery = await benchJournalRecovery();
console.log(results.journalRecovery);

console.log('payment end to end: one chip sale at a time, beside its API round trips and PINPAD exchanges (ms)');
results.paymentEndToEnd = await benchPaymentEndToEnd();
console.log(JSON.stringify(results.paymentEndToEnd, null, 2));

console.log('payments on 1 to 32 simulated PINPADs at once: payments/s and latency (ms)');
results.paymentConcurrency = await benchPaymentConcurrency();
console.log(JSON.stringify(results.paymentConcurrency, null, 2));

console.log('receipts: journal record → receipt → ESC/POS per receipt (ms), bytes per receipt; SVG and PDF beside it');
results.receipts = await benchReceipts();
console.log(JSON.stringify(results.receipts, null, 2));

console.log('POS API: pinpad.status round trips (1 and 50 clients), pinpad.busy fan-out to 50, memory per client; beside a bare ws server (ms, /s, KiB)');
results.pos = await benchPos();
console.log(JSON.stringify(results.pos, null, 2));

console.log('start-up: headless agent (training) from spawn to its ready line, and idle RSS after 2 s (goals: < 1 s, < 120 MB)');
results.startup = await benchStartup();
console.log(JSON.stringify(results.startup, null, 2));

mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
console.log('written to bench-results/latest.json');
