/**
 * `npm start` (scripts/start.mjs): the desktop app when Electron's runtime is installed, else the
 * same agent headless in training mode, saying why — the newcomer's first command either way.
 */
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { serveScript, stopServers } from '../helpers/cli.js';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await stopServers();
  while (stops.length > 0) await stops.pop()!();
});

/**
 * A checkout as on a machine that installed with ELECTRON_SKIP_BINARY_DOWNLOAD: the real
 * package.json, launcher, bin/ and dist/, and the electron package's own files (index.js, which
 * downloads a missing runtime when required, and install.js) with no runtime beside them. Its
 * `path.txt` is written when given: the runtime was installed once and its folder is gone.
 */
function checkoutWithoutRuntime(pathTxt?: string): string {
  const checkout = mkdtempSync(join(tmpdir(), 'pinbridge-no-electron-'));
  mkdirSync(join(checkout, 'scripts'));
  copyFileSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
  copyFileSync(START, join(checkout, 'scripts', 'start.mjs'));
  symlinkSync(join(ROOT, 'bin'), join(checkout, 'bin'));
  symlinkSync(join(ROOT, 'dist'), join(checkout, 'dist'));
  const electron = join(checkout, 'node_modules', 'electron');
  mkdirSync(electron, { recursive: true });
  const installed = join(ROOT, 'node_modules', 'electron');
  for (const file of readdirSync(installed))
    if (file !== 'dist' && file !== 'path.txt' && file !== 'node_modules')
      copyFileSync(join(installed, file), join(electron, file));
  if (pathTxt !== undefined) writeFileSync(join(electron, 'path.txt'), pathTxt);
  return checkout;
}

interface NpmStart {
  readonly ready: Record<string, unknown>;
  /** Everything npm and the agent printed before the ready line. */
  readonly stdoutBefore: string;
  readonly stderr: () => string;
}

/** `npm start -- <args>` in `cwd`, as a newcomer types it; resolves at the agent's ready line. */
async function npmStart(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<NpmStart> {
  const child = spawn('npm', ['start', '--', ...args], { cwd, env: { ...process.env, ...env }, detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  // npm, then the launcher, then the agent: the whole group stops at the end.
  stops.push(async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  });
  let stdoutBefore = '';
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as Record<string, unknown>);
      else stdoutBefore += `${line}\n`;
    });
    void exited.then(() => reject(new Error(`npm start exited before it was ready: ${stderr}`)));
  });
  return { ready, stdoutBefore, stderr: () => stderr };
}

/** What a newcomer must not meet on the way to the one sentence: a download, a network error, a stack. */
const ALARMING = /Downloading|fetch failed|TypeError|Error:|^\s+at /m;
const HEADLESS_SENTENCE =
  'pinbridge: the Electron runtime is not installed on this machine (it is downloaded by `npm install` where the internet allows; ' +
  'ELECTRON_SKIP_BINARY_DOWNLOAD skips it), so Pinbridge runs headless: open the "ui" address of the ready line in a browser.';

describe('npm start', () => {
  it('on a checkout installed without the Electron runtime, says one sentence and runs headless, with no download attempt, network error or stack trace before it', async () => {
    const started = await npmStart(checkoutWithoutRuntime(), ['--pos-port', '0'], {
      HOME: mkdtempSync(join(tmpdir(), 'pinbridge-npm-start-')),
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
    });
    expect(started.ready).toMatchObject({ status: 'ready', mode: 'training' });
    const stderr = started.stderr();
    expect(stderr.startsWith(`${HEADLESS_SENTENCE}\n`), stderr).toBe(true);
    expect(stderr.split(HEADLESS_SENTENCE)).toHaveLength(2);
    expect(`${started.stdoutBefore}${stderr}`).not.toMatch(ALARMING);
    // npm's own two lines ("> pinbridge@… start", "> node scripts/start.mjs …") and nothing else.
    expect(
      started.stdoutBefore
        .trim()
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('> ')),
    ).toEqual([]);
  }, 60_000);

  it('does the same where the runtime was installed once and its folder is gone (electron would download it again)', async () => {
    const started = await npmStart(checkoutWithoutRuntime('electron'), ['--pos-port', '0'], {
      HOME: mkdtempSync(join(tmpdir(), 'pinbridge-npm-start-')),
    });
    expect(started.ready).toMatchObject({ status: 'ready', mode: 'training' });
    expect(started.stderr().startsWith(`${HEADLESS_SENTENCE}\n`)).toBe(true);
    expect(`${started.stdoutBefore}${started.stderr()}`).not.toMatch(ALARMING);
  }, 60_000);

  it('runs the agent headless in training mode where the Electron runtime is missing, and says so', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pinbridge-npm-start-'));
    // An empty override folder: no Electron binary there, as on a machine that skipped the download.
    const agent = await serveScript(START, ['--pos-port', '0'], {
      HOME: home,
      ELECTRON_OVERRIDE_DIST_PATH: mkdtempSync(join(tmpdir(), 'no-electron-')),
    });
    expect(agent.ready).toMatchObject({ status: 'ready', mode: 'training' });
    expect(agent.ready.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#key=[A-Za-z0-9_-]{43}$/);
    expect(agent.stderr()).toContain('the Electron runtime is not installed on this machine');
    expect(await agent.stop()).toBe(0);
  });

  it('starts the desktop app with the project folder where the runtime is there', async () => {
    // A stand-in for Electron's binary that tells what it was started with.
    const dist = mkdtempSync(join(tmpdir(), 'fake-electron-'));
    const binary = join(dist, 'electron');
    // exec: the signal that stops it reaches the sleeping process itself, not a shell waiting on it.
    writeFileSync(binary, '#!/bin/sh\nprintf \'{"status":"ready","electron_args":"%s"}\\n\' "$*"\nexec sleep 30\n');
    chmodSync(binary, 0o755);
    const app = await serveScript(START, ['--training'], { ELECTRON_OVERRIDE_DIST_PATH: dist });
    expect(app.ready.electron_args).toBe(`${ROOT.replace(/\/$/, '')} --training`);
    await app.stop();
  });
});
