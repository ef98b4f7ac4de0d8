/**
 * `npm run bench`: runs every benchmark, prints the results and writes them to
 * bench-results/latest.json. Speed goals are checked here, never in unit tests.
 *
 * `npm run bench -- --quick`: every benchmark once with tiny sizes (seconds, not minutes), written
 * to bench-results/quick.json — what CI runs so a benchmark that breaks fails the build. Its
 * numbers are not measurements.
 *
 * `npm run bench -- idle startup`: only the benchmarks named (see BENCHMARKS), results printed
 * and not written. Each benchmark's own running time is printed after it, so the slow ones show.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { benchFraming } from './framing.bench.js';
import { benchLinkEfficiency, benchRoundTrips } from './pinpad.bench.js';
import { benchSandboxThroughput } from './sandbox.bench.js';
import { benchClientOverhead } from './client.bench.js';
import { benchJournalRecovery } from './journal.bench.js';
import { benchLog } from './log.bench.js';
import { benchPaymentConcurrency, benchPaymentEndToEnd } from './payment.bench.js';
import { benchReceipts } from './receipts.bench.js';
import { benchPos } from './pos.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchIdle } from './idle.bench.js';
import { benchFleet, QUICK_FLEET } from './fleet.bench.js';

interface Benchmark {
  /** Its key in the results file, and how it is named on the command line. */
  name: string;
  title: string;
  run: (quick: boolean) => unknown;
}

const BENCHMARKS: Benchmark[] = [
  {
    name: 'framing',
    title: 'CRC and frame encode+decode throughput',
    run: (quick) => (quick ? benchFraming(3) : benchFraming()),
  },
  {
    name: 'roundTrips',
    title: 'OPN, DSP, GIN driver ⇄ simulator (ms)',
    run: (quick) => (quick ? benchRoundTrips(10) : benchRoundTrips()),
  },
  {
    name: 'linkEfficiency',
    title: '~2 KB exchange at 19200 baud vs wire time',
    run: (quick) => (quick ? benchLinkEfficiency(115_200, 1) : benchLinkEfficiency()),
  },
  {
    name: 'sandbox',
    title: 'requests/s with keep-alive, beside a bare node:http hello-world',
    run: (quick) => (quick ? benchSandboxThroughput(1, 0.3) : benchSandboxThroughput()),
  },
  {
    name: 'clientOverhead',
    title: 'GET buyer, client vs raw fetch (ms, keep-alive)',
    run: (quick) => (quick ? benchClientOverhead(50) : benchClientOverhead()),
  },
  {
    name: 'journalRecovery',
    title: 'start-up recovery with 1,000,000 finished payments and 10 unfinished (ms)',
    run: (quick) => (quick ? benchJournalRecovery(2_000, 2) : benchJournalRecovery()),
  },
  {
    name: 'log',
    title: 'log line with card-data masking vs the same logger without it (µs per line, ratio), and the masking alone',
    run: (quick) => (quick ? benchLog(50, 3) : benchLog()),
  },
  {
    name: 'paymentEndToEnd',
    title: 'one chip sale at a time, beside its API round trips and PINPAD exchanges (ms)',
    run: (quick) => (quick ? benchPaymentEndToEnd(3, 3) : benchPaymentEndToEnd()),
  },
  {
    name: 'paymentConcurrency',
    title: 'payments on 1 to 32 simulated PINPADs at once: payments/s and latency (ms)',
    run: (quick) => (quick ? benchPaymentConcurrency(0.3, [1, 2]) : benchPaymentConcurrency()),
  },
  {
    name: 'receipts',
    title: 'journal record → receipt → ESC/POS per receipt (ms), bytes per receipt; SVG and PDF beside it',
    run: (quick) => (quick ? benchReceipts(20) : benchReceipts()),
  },
  {
    name: 'pos',
    title:
      'pinpad.status round trips (1 and 50 clients; goals ≤ 1.5× and ≤ 1.2× a bare ws server), pinpad.busy fan-out to 50, memory per client; beside a bare ws server (ms, /s, KiB)',
    run: (quick) =>
      quick
        ? benchPos({
            oneClientRequests: 20,
            clients: 3,
            requestsPerClient: 5,
            rounds: 1,
            burst: 20,
            singleEvents: 5,
            warmUp: 10,
            memoryClients: 5,
          })
        : benchPos(),
  },
  {
    name: 'startup',
    title:
      'headless agent (training) from spawn to its ready line and idle RSS after 2 s (goals ≤ 400 ms, ≤ 80 MB), beside Node’s defaults and bare Node; pinbridge --version and pinbridge sandbox (goal ≤ 300 ms); the modules loaded at idle',
    run: (quick) => (quick ? benchStartup(1, 200, true) : benchStartup()),
  },
  {
    name: 'idle',
    title:
      'CPU s/h, processes spawned/h, log lines and bytes/h, RSS at the end of the window of the headless agent with no PINPAD and with the simulated one, beside the 750 ms polling before issue 19 (goal without a PINPAD: no spawn, ≤ 5 log lines/h)',
    run: (quick) => (quick ? benchIdle(1_000, 500, true) : benchIdle()),
  },
  {
    name: 'fleet',
    title:
      "1,000 simulated checkouts (agent-shaped registries, the real telemetry pusher and queue) pushing to the real Prometheus at a 6× compressed push interval (10 s for 60 s): samples/s, failures and drops, Prometheus's CPU, RSS and disk, the emitter's µs and bytes per push beside JSON.stringify",
    run: (quick) => (quick ? benchFleet(QUICK_FLEET) : benchFleet()),
  },
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const chosen = args.filter((arg) => !arg.startsWith('--'));
const unknown = chosen.filter((name) => !BENCHMARKS.some((bench) => bench.name === name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((bench) => bench.name).join(', ')}`);
  process.exit(2);
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  quick,
};
const secondsTaken: Record<string, number> = {};

for (const bench of BENCHMARKS) {
  if (chosen.length > 0 && !chosen.includes(bench.name)) continue;
  console.log(`${bench.name}: ${bench.title}`);
  const started = performance.now();
  results[bench.name] = await bench.run(quick);
  secondsTaken[bench.name] = Math.round(performance.now() - started) / 1000;
  console.log(JSON.stringify(results[bench.name], null, 2));
  console.log(`(${bench.name} took ${secondsTaken[bench.name]} s)`);
}
results.secondsTaken = secondsTaken;

if (chosen.length > 0) {
  console.log('only some benchmarks ran: results not written');
} else {
  const file = quick ? 'bench-results/quick.json' : 'bench-results/latest.json';
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${file}`);
}
