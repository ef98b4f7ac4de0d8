import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Scans every log and journal the tests leave for card data once all files have run.
    globalSetup: ['test/setup/card-data-scan.global.ts'],
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
    // Twice the cores: most specs wait — on sockets, pseudo-terminals, a browser, the simulated
    // PINPAD's clock — rather than compute, and vitest's default (cores − 1) left one of two cores
    // idle and ran the files one at a time. PINBRIDGE_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.PINBRIDGE_TEST_WORKERS ?? '') || Math.max(2, availableParallelism() * 2),
    reporters: ['default'],
  },
});
