/**
 * Idle: what the headless agent costs while nothing happens at the checkout (issue 19) — CPU
 * seconds per hour, processes spawned, log lines and bytes per hour — with its PINPAD missing (a
 * serial address with nothing there) and with the simulated PINPAD, in training mode.
 *
 * Each scenario is `pinbridge start` (the built bin) in a fresh home, run as `npm start` runs it
 * (the V8 flags of main/agent/node-flags.ts); one runs without udevadm
 * on its PATH, as on a system without udev, where listing the ports fails. After its ready line and a
 * warm-up (the first reconnection attempts, the hot-plug watcher's first listing), a window is
 * measured and extrapolated to an hour:
 * - CPU from /proc/<pid>/stat: the agent's own (utime + stime) and its reaped children's
 *   (cutime + cstime: udevadm and the like);
 * - processes spawned, counted in the agent itself: a preload (`--import`) notes every
 *   ChildProcess spawn and every synchronous spawn in a file;
 * - the log file's growth (~/.pinbridge/logs/pinbridge.log, at the shipped level, info);
 * - and, at the end of the window, its resident memory (issue 35).
 *
 * The baseline, measured in the same run, is the same agent with the timings before issue 19:
 * the hot-plug watcher listing the serial ports every 750 ms (each listing spawns `udevadm info -e`
 * on Linux) and the PINPAD tried every 2 s. It runs the agent in a child of this file (flag
 * below), with the options `pinbridge start` has no flag for. Its log lines are written by
 * today's logger (a missing PINPAD logged once), so they understate the old 15 MiB a day.
 *
 * Goal (issue 19): with no PINPAD — udevadm present or not — no process spawned in the window and
 * at most a few log lines per hour. Linux only (/proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { round } from './harness.js';
import { AGENT_V8_FLAGS } from '../../main/agent/node-flags.js';

const BIN = fileURLToPath(new URL('../../bin/pinbridge.js', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);
const BASELINE_CHILD_FLAG = '--idle-bench-baseline-child';
const SPAWN_LOG_ENV = 'PINBRIDGE_BENCH_SPAWN_LOG';
/** A serial address with nothing there: a PINPAD unplugged, or its address wrong. */
const MISSING_PINPAD = '/dev/ttyPINBRIDGE-BENCH-NONE';
/** At most this many log lines an hour with no PINPAD: "a few" (issue 19). */
const FEW_LINES_PER_HOUR = 5;

/**
 * Loaded into the agent before anything else: notes each process it spawns (the command) in the
 * file $PINBRIDGE_BENCH_SPAWN_LOG. Every asynchronous spawn (spawn, exec, execFile, fork) goes
 * through ChildProcess.prototype.spawn; the synchronous ones are wrapped where callers find them.
 */
const SPAWN_COUNTER = `
import childProcess, { ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
const file = process.env.${SPAWN_LOG_ENV};
const note = (command) => appendFileSync(file, String(command).split('/').pop() + '\\n');
const asyncSpawn = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (options) {
  note(options && options.file);
  return asyncSpawn.call(this, options);
};
for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
  const original = childProcess[name];
  childProcess[name] = function (...args) {
    note(args[0]);
    return original.apply(this, args);
  };
}
`;

interface Scenario {
  readonly name: string;
  readonly description: string;
  /** Node's arguments after the preload: the bin and its arguments, or this file as the baseline child. */
  readonly args: readonly string[];
  /** PATH without udevadm: serialport's listing fails, as on a system without udev. */
  readonly noUdevadm?: boolean;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'noPinpad',
    description: `pinbridge start --port ${MISSING_PINPAD} (training, nothing at that address)`,
    args: [BIN, 'start', '--headless', '--pos-port', '0', '--port', MISSING_PINPAD],
  },
  {
    name: 'noPinpadNoUdevadm',
    description: `pinbridge start --port ${MISSING_PINPAD} on a system without udevadm (the port listing fails)`,
    args: [BIN, 'start', '--headless', '--pos-port', '0', '--port', MISSING_PINPAD],
    noUdevadm: true,
  },
  {
    name: 'simulatedPinpad',
    description: 'pinbridge start (training, simulated PINPAD)',
    args: [BIN, 'start', '--headless', '--pos-port', '0', '--port', 'sim'],
  },
  {
    name: 'baselineNoPinpad',
    description: 'baseline: no PINPAD, ports listed every 750 ms, PINPAD tried every 2 s (before issue 19)',
    args: ['--import', 'tsx', THIS_FILE, BASELINE_CHILD_FLAG, MISSING_PINPAD],
  },
  {
    name: 'baselineSimulatedPinpad',
    description: 'baseline: simulated PINPAD, ports listed every 750 ms (before issue 19)',
    args: ['--import', 'tsx', THIS_FILE, BASELINE_CHILD_FLAG, 'sim'],
  },
];

/** CPU time of a process and of its reaped children, in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (index: number): number => Number(fields[index - 3]);
  const hz = 100;
  return { own: (ticks(14) + ticks(15)) / hz, children: (ticks(16) + ticks(17)) / hz };
}

/** Resident memory of a process in MB (/proc/<pid>/status). */
function residentMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

function spawnsIn(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.length > 0)
    : [];
}

function logState(file: string): { bytes: number; lines: number } {
  if (!existsSync(file)) return { bytes: 0, lines: 0 };
  const text = readFileSync(file, 'utf8');
  return { bytes: statSync(file).size, lines: text.split('\n').filter((line) => line.length > 0).length };
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export interface IdleResult {
  readonly description: string;
  /** What the ready line said of the PINPAD (state, and code when it is not there). */
  readonly pinpad: string;
  readonly windowSeconds: number;
  readonly cpuSecondsPerHour: { readonly agent: number; readonly children: number; readonly total: number };
  /** Of one core, on average over the window. */
  readonly cpuPercentOfCore: number;
  readonly spawnsPerHour: number;
  /** What was spawned in the window, by command. */
  readonly spawnedInWindow: Record<string, number>;
  readonly logLinesPerHour: number;
  readonly logBytesPerHour: number;
  /**
   * Resident memory at the end of the window (MB): the agent after minutes of idling, with what it
   * loads only after its start (the payments API health check's HTTP client, the first print-queue
   * poll), beside the two seconds after the ready line that the start-up benchmark reads.
   */
  readonly rssMb: number;
  /** From the start to the end of the warm-up: what the start itself costs, not extrapolated. */
  readonly atStart: { readonly spawns: number; readonly logLines: number; readonly logBytes: number };
}

async function measure(scenario: Scenario, warmupMs: number, windowMs: number): Promise<IdleResult> {
  const home = mkdtempSync(join(tmpdir(), 'pinbridge-bench-idle-'));
  const spawnLog = join(home, 'spawns.log');
  const emptyDir = join(home, 'no-programs');
  mkdirSync(emptyDir);
  const logFile = join(home, '.pinbridge', 'logs', 'pinbridge.log');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(SPAWN_COUNTER)}`, ...AGENT_V8_FLAGS, ...scenario.args],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: {
        ...process.env,
        HOME: home,
        PINBRIDGE_LOG_LEVEL: 'info',
        [SPAWN_LOG_ENV]: spawnLog,
        ...(scenario.noUdevadm === true ? { PATH: emptyDir } : {}),
      },
    },
  );
  try {
    let ready: { pinpad?: { state?: string; code?: string | null } } | undefined;
    for await (const line of createInterface({ input: child.stdout! })) {
      if (line.includes('"status":"ready"')) {
        ready = JSON.parse(line) as typeof ready;
        break;
      }
    }
    if (ready === undefined) throw new Error(`${scenario.name}: the agent exited before its ready line`);
    await sleep(warmupMs);
    const pid = child.pid!;
    const cpuBefore = cpuSeconds(pid);
    const spawnsBefore = spawnsIn(spawnLog).length;
    const logBefore = logState(logFile);
    const startedAt = performance.now();
    await sleep(windowMs);
    const seconds = (performance.now() - startedAt) / 1000;
    const cpuAfter = cpuSeconds(pid);
    const rssMb = residentMb(pid);
    const spawned = spawnsIn(spawnLog).slice(spawnsBefore);
    const logAfter = logState(logFile);
    const perHour = (value: number): number => round((value * 3600) / seconds, 1);
    const agentCpu = cpuAfter.own - cpuBefore.own;
    const childrenCpu = cpuAfter.children - cpuBefore.children;
    const pinpad = ready.pinpad;
    return {
      description: scenario.description,
      pinpad: `${pinpad?.state ?? '?'}${pinpad?.code ? ` (${pinpad.code})` : ''}`,
      windowSeconds: round(seconds, 1),
      cpuSecondsPerHour: {
        agent: perHour(agentCpu),
        children: perHour(childrenCpu),
        total: perHour(agentCpu + childrenCpu),
      },
      cpuPercentOfCore: round(((agentCpu + childrenCpu) / seconds) * 100, 2),
      spawnsPerHour: perHour(spawned.length),
      spawnedInWindow: countBy(spawned),
      logLinesPerHour: perHour(logAfter.lines - logBefore.lines),
      logBytesPerHour: perHour(logAfter.bytes - logBefore.bytes),
      rssMb: round(rssMb, 1),
      atStart: { spawns: spawnsBefore, logLines: logBefore.lines, logBytes: logBefore.bytes },
    };
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Each scenario after `warmupMs`, measured for `windowMs`, one after the other so that they do
 * not share the CPU — or all at once (`together`, the quick mode: its numbers mean only "it
 * runs", and the goals still hold, since they count spawns and lines, not time).
 */
export async function benchIdle(
  windowMs = 60_000,
  warmupMs = 10_000,
  together = false,
): Promise<{ scenarios: Record<string, IdleResult>; goals: Record<string, boolean> }> {
  const results: Record<string, IdleResult> = {};
  if (together) {
    const measured = await Promise.all(SCENARIOS.map((scenario) => measure(scenario, warmupMs, windowMs)));
    SCENARIOS.forEach((scenario, i) => (results[scenario.name] = measured[i]!));
  } else {
    for (const scenario of SCENARIOS) results[scenario.name] = await measure(scenario, warmupMs, windowMs);
  }
  const missing = [results.noPinpad!, results.noPinpadNoUdevadm!];
  return {
    scenarios: results,
    goals: {
      noProcessSpawnedWithoutPinpad: missing.every((result) => result.spawnsPerHour === 0),
      atMostFewLogLinesPerHourWithoutPinpad: missing.every((result) => result.logLinesPerHour <= FEW_LINES_PER_HOUR),
      noProcessSpawnedWithSimulatedPinpad: results.simulatedPinpad!.spawnsPerHour === 0,
    },
  };
}

/**
 * The baseline agent: what `pinbridge start` runs (training mode, the log copied to
 * ~/.pinbridge/logs), with the watcher polling every 750 ms and the PINPAD tried every 2 s.
 */
async function serveBaselineChild(address: string): Promise<void> {
  const [{ Agent }, { loadSettings }, { logFilePath }, { createLogger }] = await Promise.all([
    import('../../main/agent/agent.js'),
    import('../../main/settings/settings-file.js'),
    import('../../main/paths.js'),
    import('../../main/log.js'),
  ]);
  const home = process.env.HOME!;
  const logFile = logFilePath(home);
  const logger = createLogger({ level: 'info', copyTo: logFile });
  const agent = await Agent.start({
    settings: loadSettings(undefined, home),
    api: {},
    pinpadAddress: address,
    home,
    posPorts: [0],
    logger,
    logFile,
    hotplug: { intervalMs: 750 },
    reconnect: { reconnectDelayMs: 2_000, maxReconnectDelayMs: 2_000 },
  });
  const started = await agent.started;
  process.stdout.write(`${JSON.stringify({ status: 'ready', ...started })}\n`);
  process.once('SIGTERM', () => void agent.stop().then(() => process.exit(0)));
}

if (
  process.argv.includes(BASELINE_CHILD_FLAG) &&
  process.argv[1] !== undefined &&
  resolve(process.argv[1]) === THIS_FILE
) {
  await serveBaselineChild(process.argv[process.argv.indexOf(BASELINE_CHILD_FLAG) + 1] ?? 'sim');
}
