import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Spec files that take minutes, mostly waiting (a browser through 60 window states, an agent
 * on a disk that fills at every step of a sale, agents killed and started again). Started first:
 * on a clean clone vitest has no durations and orders files by size, and these small files
 * (layout-<w>x<h>.test.ts are three lines) started last and made the run's last two minutes.
 */
const LONG_RUNNING = [
  /\/test\/renderer\/layout-\d+x\d+\.test\.ts$/,
  /\/test\/main\/cli\/start-disk-full\.test\.ts$/,
  /\/test\/renderer\/(window|settings|supervisor-lock)\.test\.ts$/,
  /\/test\/main\/core\/(engine-crash|engine|disk-full|engine-faults)\.test\.ts$/,
  /\/test\/main\/cli\/(cli|start|start-on-full-disk)\.test\.ts$/,
  /\/test\/main\/agent\/agent\.test\.ts$/,
];

/** Vitest's order (failed first, then the slowest known), with the long-running files ahead of all. */
class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = (spec: TestSpecification): boolean => LONG_RUNNING.some((pattern) => pattern.test(spec.moduleId));
    return [...sorted.filter(long), ...sorted.filter((spec) => !long(spec))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Scans every log and journal the tests leave for card data once all files have run.
    globalSetup: ['test/setup/card-data-scan.global.ts'],
    // PINBRIDGE_TEST_CPU=<file.jsonl>: one line per spec file with its CPU (`npx tsx scripts/spec-cpu.ts`).
    ...(process.env.PINBRIDGE_TEST_CPU ? { setupFiles: ['test/setup/cpu-profile.ts'] } : {}),
    // Integration tests drive real ptys, sockets and timers; a 2-core CI box needs headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for real events (a page rendering, a socket answering); its 1 s default was
    // too short on a loaded 2-core CI box. A wait that should fail still fails, only later.
    expect: { poll: { timeout: 10_000 } },
    // The store's clock follows the computer's zone when it is Brazilian: every run reads times
    // as CI does (UTC, so America/Sao_Paulo), wherever the developer is.
    env: { TZ: 'UTC' },
    pool: 'forks',
    sequence: { sequencer: LongRunningFirst },
    // At least four processes, even on two cores: most specs wait (sockets, pseudo-terminals, a
    // browser, the simulated customer) rather than compute, so four side by side take the suite
    // from about 20 minutes to about 7 there. Vitest's own default (cores − 1) where that is more.
    // PINBRIDGE_TEST_WORKERS overrides both (1: one file at a time, to tell a flaky spec from load).
    maxWorkers: Number(process.env.PINBRIDGE_TEST_WORKERS ?? '') || Math.max(4, availableParallelism() - 1),
    reporters: ['default'],
  },
});
