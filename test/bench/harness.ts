/**
 * A small benchmark harness: repeated samples, reported as medians and percentiles (this
 * machine's timings are noisy, so single runs and means mislead).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface Stats {
  readonly samples: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly minMs: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function stats(samplesMs: readonly number[]): Stats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    medianMs: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    minMs: sorted[0] ?? Number.NaN,
  };
}

/** Times `fn` `samples` times (after `warmup` untimed runs). */
export async function sample(fn: () => unknown, samples: number, warmup = Math.ceil(samples / 10)): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return stats(times);
}

/** A server in a child process, so a load generator or client does not share its event loop. */
export interface Child {
  readonly process: ChildProcess;
  readonly ready: Record<string, string>;
}

/** Starts `node <args>` and waits for the one JSON ready line it prints on stdout. */
export async function startChild(args: readonly string[]): Promise<Child> {
  const child = spawn(process.execPath, [...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PINBRIDGE_LOG_LEVEL: 'warn' },
  });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  return { process: child, ready: JSON.parse(line) as Record<string, string> };
}

export async function stopChild(child: Child): Promise<void> {
  child.process.kill('SIGTERM');
  if (child.process.exitCode === null) await once(child.process, 'exit');
}

export const round = (value: number, digits = 3): number => Number(value.toFixed(digits));

/** A goal of issue 35, the median measured against it and whether it is met (reported, never asserted). */
export interface Goal {
  readonly goal: number;
  readonly median: number;
  readonly met: boolean;
}

/** `value` (a median) against the upper limit `limit`, to `digits` decimals. */
export const goal = (limit: number, value: number, digits = 1): Goal => ({
  goal: limit,
  median: round(value, digits),
  met: value <= limit,
});
