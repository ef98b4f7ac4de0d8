/**
 * Start-up of the headless agent as `pinbridge start` runs it (training mode: embedded sandbox,
 * simulated PINPAD, POS API): the time from spawning Node to the ready line, and the resident
 * memory once it has sat idle (two seconds). Goals: ready under 1 s, idle RSS under 120 MB.
 * Each start after the first reuses the same home (the sandbox and journal files exist), as a
 * checkout's daily start does; the first (cold) start is reported apart.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { round, stats, type Stats } from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/pinbridge.js', import.meta.url));
const READY_GOAL_MS = 1_000;
const RSS_GOAL_MB = 120;

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) / 1024;
}

async function startOnce(
  home: string,
  nodeFlags: readonly string[],
  idleMs: number,
): Promise<{ readyMs: number; idleRssMb: number }> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, BIN, 'start', '--headless', '--pos-port', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, HOME: home, PINBRIDGE_LOG_LEVEL: 'warn' },
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    if (line.includes('"status":"ready"')) break;
  }
  const readyMs = performance.now() - startedAt;
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const idleRssMb = rssMb(child.pid!);
  child.kill('SIGTERM');
  if (child.exitCode === null) await once(child, 'exit');
  return { readyMs, idleRssMb };
}

interface StartupResult {
  coldReadyMs: number;
  readyMs: Stats;
  idleRssMb: { median: number; max: number };
  goals: { readyUnder1s: boolean; idleRssUnder120Mb: boolean };
}

/**
 * As `npm start` runs the agent headless (with the V8 flags of scripts/start.mjs), and with
 * Node's defaults beside it (`pinbridge start` run directly): one after the other, or both at
 * once (`together`, the quick mode, whose numbers mean only "it runs").
 */
export async function benchStartup(
  samples = 5,
  idleMs = 2_000,
  together = false,
): Promise<{ asNpmStart: StartupResult; nodeDefaults: StartupResult }> {
  const asNpmStart = (): Promise<StartupResult> => benchStartupWith(['--max-semi-space-size=4'], samples, idleMs);
  const nodeDefaults = (): Promise<StartupResult> => benchStartupWith([], samples, idleMs);
  if (together) {
    const [npm, defaults] = await Promise.all([asNpmStart(), nodeDefaults()]);
    return { asNpmStart: npm, nodeDefaults: defaults };
  }
  return { asNpmStart: await asNpmStart(), nodeDefaults: await nodeDefaults() };
}

async function benchStartupWith(nodeFlags: readonly string[], samples: number, idleMs: number): Promise<StartupResult> {
  const home = mkdtempSync(join(tmpdir(), 'pinbridge-bench-start-'));
  const cold = await startOnce(home, nodeFlags, idleMs);
  const runs: { readyMs: number; idleRssMb: number }[] = [];
  for (let i = 0; i < samples; i++) runs.push(await startOnce(home, nodeFlags, idleMs));
  const ready = stats(runs.map((run) => run.readyMs));
  const rss = runs.map((run) => run.idleRssMb).sort((a, b) => a - b);
  const rssMedian = rss[Math.floor(rss.length / 2)]!;
  return {
    coldReadyMs: round(cold.readyMs, 1),
    readyMs: ready,
    idleRssMb: { median: round(rssMedian, 1), max: round(rss.at(-1)!, 1) },
    goals: { readyUnder1s: ready.medianMs < READY_GOAL_MS, idleRssUnder120Mb: rssMedian < RSS_GOAL_MB },
  };
}
