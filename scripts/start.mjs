// `npm start`: Pinbridge's desktop app when the Electron runtime is installed on this machine;
// otherwise the very same agent headless (`pinbridge start`), saying so. With nothing
// configured either one runs in training mode: embedded sandbox, simulated PINPAD, receipts on
// screen. Arguments after `npm start --` go to either (same words as `pinbridge start`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The V8 flags of the long-lived agent (main/agent/node-flags.ts says why), from the compiled
 * agent, those this Node's V8 knows (Node refuses to start with one it does not); none where the
 * agent is not built yet (the bin then says to build it).
 */
async function agentV8Flags() {
  let flags;
  try {
    flags = await import(pathToFileURL(join(root, 'dist', 'main', 'agent', 'node-flags.js')).href);
  } catch {
    return [];
  }
  const v8Options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout ?? '';
  return flags.knownV8Flags(flags.AGENT_V8_FLAGS, v8Options);
}
const args = process.argv.slice(2);

/**
 * The Electron binary's path, or undefined where the runtime was never downloaded. Found the way
 * the electron package's index.js finds it (path.txt under dist/, or ELECTRON_OVERRIDE_DIST_PATH),
 * without requiring that module: where the binary is missing, `require('electron')` starts a
 * download from the internet and prints "Downloading Electron binary..." and, offline, a fetch
 * error before anything of ours could say why.
 */
function electronBinary() {
  let packageDir;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return undefined; // installed without dev dependencies
  }
  const pathFile = join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override
    ? join(override, executable || 'electron')
    : executable
      ? join(packageDir, 'dist', executable)
      : undefined;
  return binary !== undefined && existsSync(binary) ? binary : undefined;
}

const electron = electronBinary();
let child;
// Installed before the child is started: a stop that comes as soon as the child has said it is
// ready (its output is ours) must reach it, not end this process alone and leave the child
// holding our output open.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => (child === undefined ? process.exit(1) : child.kill(signal)));
if (electron !== undefined) {
  child = spawn(electron, [root, ...args], { stdio: 'inherit' });
} else {
  process.stderr.write(
    'pinbridge: the Electron runtime is not installed on this machine (it is downloaded by `npm install` where the internet allows; ' +
      'ELECTRON_SKIP_BINARY_DOWNLOAD skips it), so Pinbridge runs headless: open the "ui" address of the ready line in a browser.\n',
  );
  // The agent stays up all day doing little: V8 tuned for it (npm run bench measures it).
  const v8Flags = await agentV8Flags();
  child = spawn(process.execPath, [...v8Flags, join(root, 'bin', 'pinbridge.js'), 'start', '--headless', ...args], {
    stdio: 'inherit',
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
