/**
 * `npm start` (scripts/start.mjs): the desktop app when Electron's runtime is installed, else the
 * same agent headless in training mode, saying why — the newcomer's first command either way.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { serveScript, stopServers } from '../helpers/cli.js';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

afterEach(async () => {
  await stopServers();
});

describe('npm start', () => {
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
