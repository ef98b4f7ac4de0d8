/**
 * Vitest setup file, loaded only when PINBRIDGE_TEST_CPU names a file (vitest.config.ts): appends one
 * JSON line per spec file with the CPU its worker burned and the CPU of the processes it started
 * (agents, socat, Chromium), so the suite's CPU can be read file by file (`npx tsx scripts/spec-cpu.ts`).
 *
 * Vitest starts a fresh worker process for every spec file (`isolate`), so the worker's whole CPU,
 * from its start to the file's last afterAll, is that file's cost, worker start-up included.
 * Children count once they have exited and been reaped (Linux adds a reaped child's CPU, and that of
 * the children it reaped, to its parent's cutime/cstime); a process still running when the file ends
 * is not counted, and is listed under `running` instead.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect } from 'vitest';

/** Linux reports /proc times in USER_HZ ticks, fixed at 100 a second by its ABI. */
const TICK_MS = 10;
/** How long the end of a file waits for processes that are already exiting to be reaped: 20 × 50 ms. */
const REAP_POLLS = 20;
/** A spec may leave fake timers on: the clocks it would fake, as they were before it ran. */
const now = performance.now.bind(performance);
const RealDate = Date;

export interface ProcStat {
  /** The process's own CPU (all its threads), user and system, ms. */
  readonly selfMs: number;
  /** CPU of its exited and reaped children (and theirs), user and system, ms. */
  readonly childrenMs: number;
}

/** Reads utime, stime, cutime and cstime from a /proc/<pid>/stat line. */
export function parseProcStat(line: string): ProcStat {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field n is fields[n - 3]: utime 14, stime 15, cutime 16, cstime 17.
  const tick = (n: number): number => Number(fields[n - 3]) * TICK_MS;
  return { selfMs: tick(14) + tick(15), childrenMs: tick(16) + tick(17) };
}

function procStat(): ProcStat {
  return parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
}

/** The command names of this process's children still running (every thread can have its own). */
function runningChildren(): string[] {
  const names: string[] = [];
  for (const task of readdirSync('/proc/self/task')) {
    const pids = readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim();
    for (const pid of pids === '' ? [] : pids.split(' ')) {
      try {
        names.push(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
      } catch {
        // Exited between the two reads.
      }
    }
  }
  return names;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

const output = process.env.PINBRIDGE_TEST_CPU;
const bootCpuMs = cpuMs();
const bootWallMs = now();
const bootChildrenMs = procStat().childrenMs;
// Registered before the spec file's own hooks, so it runs after them (vitest runs after-hooks in reverse).
afterAll(async () => {
  if (output === undefined || output === '') return;
  // node:timers/promises is not among the timers vi.useFakeTimers() replaces.
  for (let poll = 0; poll < REAP_POLLS && runningChildren().length > 0; poll++) await sleep(50);
  const childrenMs = procStat().childrenMs - bootChildrenMs;
  const selfMs = cpuMs();
  const record = {
    file: relative(process.cwd(), expect.getState().testPath ?? ''),
    cpuMs: Math.round(selfMs + childrenMs),
    selfMs: Math.round(selfMs),
    bootMs: Math.round(bootCpuMs),
    childrenMs,
    wallMs: Math.round(now()),
    bootWallMs: Math.round(bootWallMs),
    running: runningChildren(),
    pid: process.pid,
    at: new RealDate().toISOString(),
  };
  appendFileSync(output, JSON.stringify(record) + '\n');
});
