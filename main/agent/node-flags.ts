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

/**
 * The flags of `flags` that a V8 knows, given its `node --v8-options` text (each option on a line
 * of its own, indented: "  --memory-saver-mode (…)"). Node refuses to start with a flag its V8 does
 * not know, and Node 22's has no memory-saver mode: there the agent runs with the others.
 */
export function knownV8Flags(flags: readonly string[], v8Options: string): string[] {
  const known = new Set(
    v8Options
      .split('\n')
      .map((line) => /^ {2}(--[a-z0-9-]+)/.exec(line)?.[1])
      .filter((name) => name !== undefined),
  );
  return flags.filter((flag) => known.has(flag.replace(/=.*$/, '')));
}
