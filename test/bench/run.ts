/**
 * `npm run bench`: runs every benchmark, prints the results and writes them to
 * bench-results/latest.json. Speed goals are checked here, never in unit tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { benchFraming } from './framing.bench.js';

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
};

console.log('framing: CRC and frame encode+decode throughput');
results.framing = await benchFraming();
console.log(results.framing);

mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
console.log('written to bench-results/latest.json');
