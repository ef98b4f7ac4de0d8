/**
 * The suite's CPU profile: with PINBRIDGE_TEST_CPU set, every spec file appends what its worker and
 * the processes it started cost (test/setup/cpu-profile.ts), and scripts/spec-cpu.ts lists the
 * costliest files, so the suite's CPU can be cut where it is spent.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTop, readProfile, type SpecCpu } from '../../scripts/spec-cpu.js';
import { parseProcStat } from '../setup/cpu-profile.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/cpu-profile/', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

const record = (file: string, cpuMs: number, extra: Partial<SpecCpu> = {}): SpecCpu => ({
  file,
  cpuMs,
  selfMs: cpuMs,
  bootMs: 100,
  childrenMs: 0,
  wallMs: 2 * cpuMs,
  running: [],
  ...extra,
});

describe('the profile of one spec file (test/setup/cpu-profile.ts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-cpu-profile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the process’s own and its reaped children’s CPU from /proc, whatever its name holds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    const line = '4242 (vitest) 1 2) S 1 4242 4242 0 -1 4194304 99 0 0 0 150 25 300 7 20 0 1 0 4106766';
    expect(parseProcStat(line)).toEqual({ selfMs: 1_750, childrenMs: 3_070 });
  });

  it('counts the worker’s CPU and that of the children it waited for, and names those still running', async () => {
    const output = join(dir, 'cpu.jsonl');
    // The config read by vitest's module runner, not bundled into a node_modules/.vite-temp beside it.
    const config = ['--config', join(FIXTURE, 'vitest.config.ts'), '--configLoader', 'runner'];
    const run = spawn(process.execPath, [VITEST, 'run', ...config], {
      cwd: FIXTURE,
      env: { ...process.env, PINBRIDGE_TEST_CPU: output },
      stdio: 'ignore',
    });
    const [code] = (await once(run, 'exit')) as [number | null];
    expect(code).toBe(0);

    const [line, ...more] = readFileSync(output, 'utf8').trim().split('\n');
    expect(more).toEqual([]);
    const profile = JSON.parse(line!) as SpecCpu;
    expect(profile.file).toBe('busy.spec.ts');
    // The fixture burns 300 ms in the worker and 400 ms in a child (the kernel counts in 10 ms ticks).
    expect(profile.selfMs - profile.bootMs).toBeGreaterThanOrEqual(300);
    expect(profile.childrenMs).toBeGreaterThanOrEqual(390);
    expect(profile.cpuMs).toBe(profile.selfMs + profile.childrenMs);
    expect(profile.wallMs).toBeGreaterThan(0);
    expect(profile.running).toEqual(['sleep']);
  });
});

describe('the list of the costliest spec files (scripts/spec-cpu.ts)', () => {
  it('puts the costliest first and counts a file profiled twice by its last line', () => {
    const lines = [record('a.test.ts', 500), record('b.test.ts', 900), record('a.test.ts', 1_200)];
    const profile = readProfile(lines.map((line) => JSON.stringify(line)).join('\n') + '\n\n');
    expect(profile.map(({ file, cpuMs }) => [file, cpuMs])).toEqual([
      ['a.test.ts', 1_200],
      ['b.test.ts', 900],
    ]);
  });

  it('prints the top files with their CPU split and wall time, and the whole run’s totals', () => {
    const profile = readProfile(
      [
        record('slow.test.ts', 9_000, { selfMs: 1_000, childrenMs: 8_000, wallMs: 12_345, running: ['socat'] }),
        record('pure.test.ts', 150),
        record('mid.test.ts', 860),
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    expect(formatTop(profile, 2).split('\n')).toEqual([
      '| # | spec file | CPU s | worker s | children s | wall s |',
      '|---:|---|---:|---:|---:|---:|',
      '| 1 | slow.test.ts (still running: socat) | 9.0 | 1.0 | 8.0 | 12.3 |',
      '| 2 | mid.test.ts | 0.9 | 0.9 | 0.0 | 1.7 |',
      '',
      '3 files: 10.0 CPU s (workers 2.0, of which start-up 0.3; children 8.0); the top 2: 9.9 s, 99 %.',
    ]);
  });
});
