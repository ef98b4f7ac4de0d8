import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Scans every log and journal the tests leave for card data once all files have run.
    globalSetup: ['test/setup/card-data-scan.global.ts'],
    // Integration tests drive real ptys, sockets and timers; a 2-core CI box needs headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
