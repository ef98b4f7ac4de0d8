/**
 * The installed app as the `pinbridge` command (main/app/cli-dispatch.ts): started with a
 * subcommand, the Electron app runs the CLI — no window, no tray — and exits with its code; started
 * without one, it is the desktop app. The entry point is loaded here with the Electron test double
 * standing in for the `electron` module, as the packaged app is started from a terminal.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLI_COMMANDS, cliInvocation, runCliInApp } from '../../../main/app/cli-dispatch.js';
import { buildProgram } from '../../../main/cli/main.js';
import { VERSION } from '../../../main/version.js';
import { electronDouble, FakeTray, FakeWindow } from './electron-double.js';

const savedArgv = process.argv;

/** What is written to `stream` from now on (the write's callback still runs: the CLI waits for it). */
function captureWrites(stream: NodeJS.WriteStream): string[] {
  const written: string[] = [];
  vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    written.push(String(chunk));
    const callback = rest.find((item) => typeof item === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  });
  return written;
}

afterEach(() => {
  process.argv = savedArgv;
  vi.doUnmock('electron');
  vi.resetModules();
  vi.restoreAllMocks();
});

describe('which words make the app a command', () => {
  it('knows every subcommand of `pinbridge`, and only those', () => {
    const program = buildProgram({ stdout: () => {}, stderr: () => {}, env: {}, signal: new AbortController().signal });
    expect([...CLI_COMMANDS].sort()).toEqual(program.commands.map((command) => command.name()).sort());
  });

  it('runs a subcommand, --help or --version as the CLI', () => {
    expect(cliInvocation(['doctor', '--json'])).toEqual(['doctor', '--json']);
    expect(cliInvocation(['pinpad', 'list'])).toEqual(['pinpad', 'list']);
    expect(cliInvocation(['--version'])).toEqual(['--version']);
    expect(cliInvocation(['-h'])).toEqual(['-h']);
  });

  it('is the desktop app without a subcommand: a menu entry, --training, --autostart, the Finder', () => {
    expect(cliInvocation([])).toBeUndefined();
    expect(cliInvocation(['--training'])).toBeUndefined();
    expect(cliInvocation(['--autostart'])).toBeUndefined();
    expect(cliInvocation(['-psn_0_1234567'])).toBeUndefined();
    expect(cliInvocation(['-psn_0_1234567', 'doctor'])).toEqual(['doctor']);
  });
});

describe('runCliInApp', () => {
  it("exits the app with the command's exit code, after hiding the Dock icon", async () => {
    const exits: number[] = [];
    let dockHidden = false;
    const app = { exit: (code = 0) => void exits.push(code), dock: { hide: () => void (dockHidden = true) } };
    await expect(runCliInApp(app, ['pay'], () => Promise.resolve(2))).resolves.toBe(2);
    expect(exits).toEqual([2]);
    expect(dockHidden).toBe(true);
  });

  it('turns a crash of the command into one line and exit code 1', async () => {
    const exits: number[] = [];
    const written = captureWrites(process.stderr);
    await runCliInApp({ exit: (code = 0) => void exits.push(code) }, ['doctor'], () =>
      Promise.reject(new Error('boom')),
    );
    expect(exits).toEqual([1]);
    expect(written.join('')).toBe('pinbridge: boom\n');
  });
});

describe('the packaged app started from a terminal', () => {
  /** Loads the entry point with `argv` after the executable, the double as `electron`. */
  async function startApp(argv: string[]): Promise<{ exitCodes: number[]; stdout: string }> {
    const double = electronDouble();
    const exitCodes = double.app.exitCodes;
    const electron = {
      ...double.electron,
      app: { ...double.electron.app, isPackaged: true, dock: undefined, commandLine: { appendSwitch: () => {} } },
      dialog: { showErrorBox: () => {} },
    };
    vi.doMock('electron', () => ({ default: electron }));
    const out = captureWrites(process.stdout);
    process.argv = ['/opt/Pinbridge/pinbridge', ...argv];
    await import('../../../main/app/electron-main.js');
    await vi.waitFor(() => expect(exitCodes).toHaveLength(1), { timeout: 15_000 });
    return { exitCodes, stdout: out.join('') };
  }

  it('`pinbridge --version` prints the version and exits 0, opening no window', async () => {
    const { exitCodes, stdout } = await startApp(['--version']);
    expect(stdout.trim()).toBe(VERSION);
    expect(exitCodes).toEqual([0]);
    expect(FakeWindow.all).toEqual([]);
    expect(FakeTray.all).toEqual([]);
  });

  it('`pinbridge pinpad list --tcp … --json` runs the subcommand and prints its JSON', async () => {
    const { exitCodes, stdout } = await startApp(['pinpad', 'list', '--tcp', '127.0.0.1:4000', '--json']);
    expect(exitCodes).toEqual([0]);
    expect(JSON.parse(stdout)).toContainEqual(
      expect.objectContaining({ port: 'tcp://127.0.0.1:4000', transport: 'tcp' }),
    );
    expect(FakeWindow.all).toEqual([]);
  });

  it("a bad subcommand option exits 2 with the CLI's one-line usage error", async () => {
    const errors = captureWrites(process.stderr);
    const { exitCodes } = await startApp(['doctor', '--no-such-option']);
    expect(exitCodes).toEqual([2]);
    expect(errors.join('')).toMatch(/^pinbridge: unknown option '--no-such-option'/);
  });
});
