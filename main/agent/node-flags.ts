/**
 * How V8 runs the agent, which stays up all day doing little: `npm start` headless passes these
 * to Node (scripts/start.mjs), the desktop app to Electron's V8 (js-flags,
 * main/app/electron-main.ts), and the start-up and idle benchmarks run the agent with them.
 *
 * Memory first, because a checkout's agent drives one PINPAD (the settings name one) and idles
 * between sales, on PCs of 4 GB with the window on top (issue 35): young-generation semi-spaces of
 * 1 MB instead of up to 16, and V8's modes for a tab left alone (memory-saver: GCs that favour a
 * smaller heap) and in the background (efficiency: fewer threads, optimizing later). Together
 * they take the idle agent from about 93 MB to 79 (2 s after its ready line; the start-up
 * benchmark's goal is 80). What they cost (measured on a quiet machine, docs/architecture.md,
 * "V8 flags"): nothing a single sale shows — it takes as long, PINPAD and API bound — but
 * 17–42 % fewer payments a second when 4 to 32 simulated PINPADs sell at once in one agent, which
 * no checkout does, and a POS round trip 1.27 times a bare WebSocket server's instead of 1.18
 * (the goal is 1.5). An agent run as a many-PINPAD hub would drop them: `pinbridge start` run
 * directly gets Node's defaults.
 */
export const AGENT_V8_FLAGS: readonly string[] = [
  '--max-semi-space-size=1',
  '--memory-saver-mode',
  '--efficiency-mode',
];
