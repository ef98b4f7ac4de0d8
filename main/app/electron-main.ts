/**
 * The desktop app's entry point (package.json "main"): hands the real Electron module to the
 * shell. Everything else is plain Node (main/agent), the same agent `pinbridge start` runs.
 * Started with a subcommand (`pinbridge doctor`), the app is the `pinbridge` command instead
 * (cli-dispatch.ts).
 */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import electron from 'electron';
import { logFilePath } from '../paths.js';
import { createLogger } from '../log.js';
import { guardProcess } from '../agent/fault-guard.js';
import { AGENT_V8_FLAGS } from '../agent/node-flags.js';
import { cliInvocation, runCliInApp } from './cli-dispatch.js';
import type { ShellElectron } from './electron-api.js';
import { Shell } from './shell.js';

const argv = process.argv.slice(electron.app.isPackaged ? 1 : 2);
const cliArgs = cliInvocation(argv);
if (cliArgs === undefined) {
  startDesktopApp();
} else {
  // The CLI is loaded only for a command: the desktop app does not pay for it.
  void runCliInApp(electron.app, cliArgs, async (args) => (await import('../cli/main.js')).main(args));
}

function startDesktopApp(): void {
  // A long-running, mostly idle agent: V8 tuned for it (node-flags.ts, as scripts/start.mjs runs
  // it headless). Must be set before the app is ready.
  electron.app.commandLine.appendSwitch('js-flags', AGENT_V8_FLAGS.join(' '));

  // The real module must have everything the shell uses (a compile-time check).
  const api: ShellElectron = electron;
  const logFile = logFilePath(homedir());
  const logger = createLogger({ level: process.env.PINBRIDGE_LOG_LEVEL ?? 'info', copyTo: logFile });
  // No uncaught error ends the app (issue 33): a disk fault goes to the agent's disk watch, anything
  // else is logged as fatal (main/agent/fault-guard.ts says why it keeps running).
  let shell: Shell | undefined;
  guardProcess({ logger, onDiskFault: (error) => shell?.agent.disk.report(error) });

  Shell.run(api, {
    argv,
    env: process.env,
    home: homedir(),
    platform: process.platform,
    preload: join(dirname(fileURLToPath(import.meta.url)), 'preload.cjs'),
    logger,
    logFile,
    relaunchArgs: process.argv.slice(1),
    ...(process.env.APPIMAGE
      ? { exec: process.env.APPIMAGE }
      : process.platform === 'linux'
        ? { exec: process.execPath }
        : {}),
  }).then(
    (running) => {
      shell = running;
    },
    (error: unknown) => {
      logger.fatal({ err: error instanceof Error ? error.message : String(error) }, 'Pinbridge could not start');
      electron.dialog.showErrorBox('Pinbridge não iniciou', error instanceof Error ? error.message : String(error));
      electron.app.exit(1);
    },
  );
}
