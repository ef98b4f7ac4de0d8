/**
 * How V8 runs the agent, which stays up all day doing little: `npm start` headless passes these
 * to Node (scripts/start.mjs), the desktop app to Electron's V8 (js-flags,
 * main/app/electron-main.ts), and the start-up and idle benchmarks run the agent with them.
 *
 * Young-generation semi-spaces of 4 MB instead of up to 16 keep the idle agent's memory lower for
 * scavenges it can afford: 104–108 MB against 115–134 with Node's defaults 25 s after the ready
 * line, once its first requests have run (2 s after it, 92 against 93). What else was measured
 * (issue 35), and why it is not
 * here — each saves memory at idle and costs sales under load, which a flag must not
 * (docs/architecture.md, "V8 flags"): `--max-semi-space-size=1` (−5 MB; 8 to 32 PINPADs at
 * once pay 11–19 % fewer payments a second), `--memory-saver-mode` (−6 MB; 13–23 % fewer at any
 * count), `--efficiency-mode` (−7 MB; 14–24 % fewer from 4 PINPADs); all three (92 → 79 MB, 2 s
 * after the ready line) 17–42 % fewer, and a POS round trip's ratio to a bare WebSocket server's
 * 1.27 instead of 1.18. A single sale takes as long with any of them.
 */
export const AGENT_V8_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
