/**
 * The preflight (scripts/preflight.mjs), run before `npm test` and `npm run bench` build anything: on a
 * machine without one of the system tools the specs drive it says in one line what is missing and how
 * to install it on Debian/Ubuntu and macOS, and stops them; where everything is installed it is silent.
 * PATH decides what the machine "has" here: a folder of links to the tools that exist, minus some.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const PREFLIGHT = fileURLToPath(new URL('../../scripts/preflight.mjs', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../../package.json', import.meta.url));

/** Where `command` is on this machine's PATH (the specs' machine has them all). */
function which(command: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  throw new Error(`${command} is not installed on this machine`);
}

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A PATH folder holding links to these of the machine's commands, and nothing else. */
function pathWith(commands: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-preflight-'));
  folders.push(dir);
  for (const command of commands) symlinkSync(which(command), join(dir, command));
  return dir;
}

/** Runs the preflight with node itself (not from PATH) and the given PATH. */
function preflight(args: readonly string[], path = process.env.PATH ?? '') {
  const run = spawnSync(process.execPath, [PREFLIGHT, ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: path },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the preflight of npm test and npm run bench', () => {
  it('passes silently on this machine, where every tool is installed', () => {
    for (const purpose of ['test', 'bench'])
      expect(preflight([purpose])).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('names socat alone, with its Debian and Homebrew install commands, when only socat is missing', () => {
    const run = preflight(['test'], pathWith(['certutil', 'makensis', 'openssl']));
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'preflight: missing socat — Debian/Ubuntu: sudo apt-get install socat; macOS: brew install socat\n',
    );
  });

  it('names every missing command in one line, with the Debian packages .ci/run installs and their Homebrew formulas', () => {
    const run = preflight(['test'], pathWith([]));
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n')).toEqual([
      'preflight: missing socat, certutil, makensis, openssl — ' +
        'Debian/Ubuntu: sudo apt-get install socat libnss3-tools nsis openssl; ' +
        'macOS: brew install socat nss makensis openssl@3',
      '',
    ]);
  });

  it('asks the benchmarks only for what they drive: socat (and Prometheus, which this machine has at /usr/bin)', () => {
    expect(preflight(['bench'], pathWith(['openssl']))).toEqual({
      status: 1,
      stdout: '',
      stderr: 'preflight: missing socat — Debian/Ubuntu: sudo apt-get install socat; macOS: brew install socat\n',
    });
    expect(preflight(['bench'], pathWith(['socat'])).status).toBe(0);
  });

  it('refuses to guess what it checks for', () => {
    for (const args of [[], ['lint']]) {
      const run = preflight(args);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe('usage: node scripts/preflight.mjs test|bench\n');
    }
  });

  it('runs first in npm test and npm run bench, before the build', () => {
    const { scripts } = JSON.parse(readFileSync(PACKAGE, 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.pretest).toMatch(/^node scripts\/preflight\.mjs test && npm run build$/);
    expect(scripts.bench).toMatch(/^node scripts\/preflight\.mjs bench && npm run build && /);
  });
});
