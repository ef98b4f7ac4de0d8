/**
 * A real Prometheus (Debian's 2.42, /usr/bin/prometheus) for the specs: on 127.0.0.1, a port taken
 * from the kernel, a temporary storage path, a minimal configuration (no scraping; the given rule
 * files, evaluated every second), optionally its remote-write receiver (what the agents push to,
 * main/telemetry) and history backfilled beforehand with `promtool tsdb create-blocks-from
 * openmetrics`, so that queries over the last hours have data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freedPort } from './closed-port.js';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';

export interface RunningPrometheus {
  readonly url: string;
  /** Where an agent pushes (remote write), when started with `remoteWrite`. */
  readonly writeUrl: string;
  /** The process id (its /proc/<pid>/status for RSS and CPU, as benchmarks read them). */
  readonly pid: number;
  /** The TSDB folder (its WAL and blocks, for what the storage takes on disk). */
  readonly dataDir: string;
  /** An instant query at now: the API's answer, whatever its status. */
  query(expr: string): Promise<QueryAnswer>;
  /** Kills the process and removes its storage. */
  stop(): Promise<void>;
}

export interface QueryAnswer {
  readonly status: 'success' | 'error';
  readonly error?: string;
  readonly errorType?: string;
  readonly data?: { readonly resultType: string; readonly result: readonly unknown[] };
}

export interface PrometheusOptions {
  readonly ruleFiles?: readonly string[];
  /** OpenMetrics text (ending with `# EOF`) loaded into the storage before the start. */
  readonly openMetrics?: string;
  /** Accept remote write on /api/v1/write (--web.enable-remote-write-receiver). */
  readonly remoteWrite?: boolean;
}

export async function startPrometheus(options: PrometheusOptions = {}): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-prometheus-'));
  const storage = join(dir, 'data');
  if (options.openMetrics !== undefined) {
    const input = join(dir, 'history.om.txt');
    writeFileSync(input, options.openMetrics);
    const backfill = spawnSync(PROMTOOL, ['tsdb', 'create-blocks-from', 'openmetrics', input, storage], {
      encoding: 'utf8',
    });
    if (backfill.status !== 0) throw new Error(`promtool could not backfill:\n${backfill.stdout}${backfill.stderr}`);
  }
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    `global:\n  evaluation_interval: 1s\nrule_files:\n${(options.ruleFiles ?? []).map((file) => `  - ${JSON.stringify(file)}\n`).join('')}`,
  );
  const port = await freedPort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${storage}`,
      `--web.listen-address=127.0.0.1:${port}`,
      ...(options.remoteWrite === true ? ['--web.enable-remote-write-receiver'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited (${child.exitCode}) before it was ready:\n${log}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready within 20 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    writeUrl: `${url}/api/v1/write`,
    pid: child.pid!,
    dataDir: storage,
    async query(expr) {
      const response = await fetch(`${url}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ query: expr }),
      });
      return (await response.json()) as QueryAnswer;
    },
    stop,
  };
}
