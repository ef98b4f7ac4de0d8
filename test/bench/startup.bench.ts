/**
 * Start-up (issue 35). The headless agent as `pinbridge start` runs it (training mode: embedded
 * sandbox, simulated PINPAD, POS API): the time from spawning Node to the ready line, and the
 * resident memory once it has sat idle (two seconds). The `pinbridge` command: the time from
 * spawning Node to `pinbridge --version`'s exit and to `pinbridge sandbox`'s ready line. Goals:
 * agent ready ≤ 400 ms, idle RSS ≤ 80 MB; each command ≤ 300 ms — reported met or missed, never
 * asserted.
 *
 * The goals are read on the agent as `npm start` runs it headless: with the V8 flags of
 * main/agent/node-flags.ts (scripts/start.mjs; the desktop app passes the same ones).
 * Measured in the same run beside them: the agent with Node's defaults (`pinbridge start` run
 * directly, without them), and bare Node (a script that prints its
 * ready line and idles): what Node itself costs on this machine, under which nothing of ours goes.
 * Each agent start after the first reuses the same home (the sandbox and journal files exist), as
 * a checkout's daily start does; the first (cold) start is reported apart.
 *
 * What the idle agent holds, by module: one more start with a preload noting every module it
 * loads (test/helpers/module-trace.ts), read while it idles — the modules of each package and
 * folder, and the source text V8 keeps for them (a floor of what each costs), so that a package
 * that starts loading at start-up shows here — and with V8's sampling heap profiler
 * (test/helpers/heap-by-module.ts): its heap after a full GC (heap used, external, each of V8's
 * spaces) and the live objects by the module that allocated them, so that a module whose data
 * grows shows here too.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { goal, round, stats, type Goal, type Stats } from './harness.js';
import {
  MODULE_TRACE_ARGS,
  MODULE_TRACE_ENV,
  moduleGroups,
  readModuleTrace,
  type ModuleGroupSize,
} from '../helpers/module-trace.js';
import { AGENT_V8_FLAGS } from '../../main/agent/node-flags.js';
import {
  HEAP_PROFILE_ARGS,
  HEAP_PROFILE_ENV,
  heapByModule,
  type HeapByModule,
  type HeapGroup,
} from '../helpers/heap-by-module.js';

const BIN = fileURLToPath(new URL('../../bin/pinbridge.js', import.meta.url));
const READY_GOAL_MS = 400;
const RSS_GOAL_MB = 80;
const COMMAND_GOAL_MS = 300;
/** The V8 flags of scripts/start.mjs (and the desktop app): `npm start` headless. */
const AGENT_NODE_FLAGS = AGENT_V8_FLAGS;
/** Bare Node: a ready line, then nothing. */
const BARE_NODE = ['-e', 'console.log(JSON.stringify({ status: "ready" })); setInterval(() => {}, 1 << 30);'];

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) / 1024;
}

/** CPU time a process has used so far, user and system, in ms (/proc/<pid>/stat, ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Start {
  readyMs: number;
  /** CPU time to the ready line: what the start costs, less sensitive than the wall clock to other work on the machine. */
  cpuMs: number;
  idleRssMb: number;
}

/** Spawns `node <args>`, waits for its ready line, lets it idle `idleMs`, reads its RSS and stops it. */
async function startOnce(
  args: readonly string[],
  home: string,
  idleMs: number,
  atIdle?: (pid: number) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
): Promise<Start> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, HOME: home, PINBRIDGE_LOG_LEVEL: 'warn', ...env },
  });
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      if (line.includes('"status":"ready"')) break;
    }
    const readyMs = performance.now() - startedAt;
    const cpu = cpuMs(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const idleRssMb = rssMb(child.pid!);
    await atIdle?.(child.pid!);
    return { readyMs, cpuMs: cpu, idleRssMb };
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

const agentArgs = (nodeFlags: readonly string[]): string[] => [
  ...nodeFlags,
  BIN,
  'start',
  '--headless',
  '--pos-port',
  '0',
];

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface StartupResult {
  coldReadyMs: number;
  readyMs: Stats;
  cpuMsToReady: number;
  idleRssMb: { median: number; max: number };
}

async function benchStarts(args: readonly string[], samples: number, idleMs: number): Promise<StartupResult> {
  const home = mkdtempSync(join(tmpdir(), 'pinbridge-bench-start-'));
  try {
    const cold = await startOnce(args, home, idleMs);
    const runs: Start[] = [];
    for (let i = 0; i < samples; i++) runs.push(await startOnce(args, home, idleMs));
    const rss = runs.map((run) => run.idleRssMb).sort((a, b) => a - b);
    return {
      coldReadyMs: round(cold.readyMs, 1),
      readyMs: stats(runs.map((run) => run.readyMs)),
      cpuMsToReady: median(runs.map((run) => run.cpuMs)),
      idleRssMb: { median: round(median(rss), 1), max: round(rss.at(-1)!, 1) },
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** `pinbridge <args>`: spawn to exit, or to the first line on stdout (then stopped), `samples` times. */
async function benchCommand(args: readonly string[], untilFirstLine: boolean, samples: number): Promise<Stats> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const startedAt = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = once(child, 'exit');
    if (untilFirstLine) {
      for await (const line of createInterface({ input: child.stdout })) if (line.length > 0) break;
      times.push(performance.now() - startedAt);
      child.kill('SIGTERM');
    } else {
      child.stdout.resume();
      await exited;
      times.push(performance.now() - startedAt);
    }
    await exited;
  }
  return stats(times);
}

/** Waits (up to 5 s) for a file the agent's preload writes from its event loop. */
async function written(file: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    try {
      if (readFileSync(file, 'utf8').length > 0) return;
    } catch {
      // not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The modules the idle agent has loaded, by group, and its live heap by the module that
 * allocated it (test/helpers/heap-by-module.ts), read `idleMs` after its ready line. The heap
 * profiler costs the process some memory and time of its own: this start is not one of those the
 * goals are read on.
 */
async function modulesAtIdle(
  idleMs: number,
): Promise<{ total: number; groups: ModuleGroupSize[]; heap: HeapByModule }> {
  const home = mkdtempSync(join(tmpdir(), 'pinbridge-bench-modules-'));
  const trace = join(home, 'modules.txt');
  const heap = join(home, 'heap.json');
  try {
    await startOnce(
      [...MODULE_TRACE_ARGS, ...HEAP_PROFILE_ARGS, ...agentArgs(AGENT_NODE_FLAGS)],
      home,
      idleMs,
      async (pid) => {
        process.kill(pid, 'SIGUSR2');
        await written(trace);
        await written(heap);
      },
      { [MODULE_TRACE_ENV]: trace, [HEAP_PROFILE_ENV]: heap },
    );
    const loaded = readModuleTrace(trace);
    return { total: loaded.length, groups: moduleGroups(loaded), heap: heapByModule(heap) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export interface StartupBench {
  /** As `npm start` runs the agent headless (scripts/start.mjs's V8 flags): what the goals are read on. */
  asNpmStart: StartupResult;
  /** Baseline: the same agent with Node's defaults. */
  nodeDefaults: StartupResult;
  /** Baseline: bare Node on this machine. */
  bareNode: { readyMs: Stats; idleRssMb: number };
  commands: { version: Stats; sandbox: Stats };
  goals: {
    agentReadyMs: Goal;
    agentIdleRssMb: Goal;
    versionMs: Goal;
    sandboxMs: Goal;
  };
  /** The idle agent's modules: how many, and the largest groups by the source V8 keeps for them. */
  modulesAtIdle: { total: number; largest: ModuleGroupSize[] };
  /**
   * The idle agent's heap: process.memoryUsage and V8's heap spaces after a full GC, and the live
   * heap by the module that allocated it (largest groups), module loading counted apart.
   */
  heapAtIdle: Omit<HeapByModule, 'groups'> & { largest: readonly HeapGroup[] };
}

/**
 * `samples` starts of each (after one cold start for the agents), idling `idleMs` before the RSS
 * is read; `quick`: one sample of each and the agents side by side, whose numbers mean only "it runs".
 */
export async function benchStartup(samples = 5, idleMs = 2_000, quick = false): Promise<StartupBench> {
  const agent = (flags: readonly string[]): Promise<StartupResult> => benchStarts(agentArgs(flags), samples, idleMs);
  const [asNpmStart, nodeDefaults] = quick
    ? await Promise.all([agent(AGENT_NODE_FLAGS), agent([])])
    : [await agent(AGENT_NODE_FLAGS), await agent([])];
  const bare = await benchStarts(BARE_NODE, samples, idleMs);
  const commandSamples = quick ? 1 : samples * 2;
  const version = await benchCommand(['--version'], false, commandSamples);
  const sandbox = await benchCommand(['sandbox', '--port', '0'], true, commandSamples);
  const modules = await modulesAtIdle(idleMs);
  const { groups: heapGroups, ...heapAtIdle } = modules.heap;
  return {
    asNpmStart,
    nodeDefaults,
    bareNode: { readyMs: bare.readyMs, idleRssMb: bare.idleRssMb.median },
    commands: { version, sandbox },
    goals: {
      agentReadyMs: goal(READY_GOAL_MS, asNpmStart.readyMs.medianMs),
      agentIdleRssMb: goal(RSS_GOAL_MB, asNpmStart.idleRssMb.median),
      versionMs: goal(COMMAND_GOAL_MS, version.medianMs),
      sandboxMs: goal(COMMAND_GOAL_MS, sandbox.medianMs),
    },
    modulesAtIdle: { total: modules.total, largest: modules.groups.slice(0, 15) },
    heapAtIdle: { ...heapAtIdle, largest: heapGroups.slice(0, 15) },
  };
}
