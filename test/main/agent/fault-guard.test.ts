/**
 * The process guard (issue 33): an exception nobody caught or a rejection nobody heard becomes a
 * logged fault, never an exit — a disk fault reported to the agent's disk watch, anything else
 * logged as fatal. In a real Node process too (the built module, as `pinbridge start` loads it).
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { guardProcess } from '../../../main/agent/fault-guard.js';
import { PACKAGE_ROOT } from '../../../main/version.js';

interface Line {
  readonly level: 'error' | 'fatal';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

function recorder(): {
  lines: Line[];
  logger: { error: (f: object, m: string) => void; fatal: (f: object, m: string) => void };
} {
  const lines: Line[] = [];
  return {
    lines,
    logger: {
      error: (fields, message) =>
        void lines.push({ level: 'error', fields: fields as Record<string, unknown>, message }),
      fatal: (fields, message) =>
        void lines.push({ level: 'fatal', fields: fields as Record<string, unknown>, message }),
    },
  };
}

const enospc = (): Error =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });

describe('the process guard', () => {
  it('logs a disk fault nobody handled and hands it to the disk watch; logs anything else as fatal; counts both', () => {
    const process = new EventEmitter();
    const { lines, logger } = recorder();
    const reported: unknown[] = [];
    const guard = guardProcess({ logger, onDiskFault: (error) => reported.push(error), process });

    const full = enospc();
    process.emit('uncaughtException', full, 'uncaughtException');
    // A store's own error, SQLite's code underneath: a disk fault too.
    const sqlite = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    process.emit('unhandledRejection', new Error('journal write failed', { cause: sqlite }));
    process.emit(
      'uncaughtException',
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'uncaughtException',
    );

    expect(reported).toEqual([full, expect.objectContaining({ message: 'journal write failed' })]);
    expect(lines.map((line) => [line.level, line.fields.fault ?? null, line.message])).toEqual([
      ['error', 'ENOSPC', 'a write the disk refused was not handled; Pinbridge keeps running'],
      ['error', 'SQLITE_FULL', 'a write the disk refused was not handled; Pinbridge keeps running'],
      ['fatal', null, 'an error nobody handled (a bug); Pinbridge keeps running'],
    ]);
    expect(lines[2]!.fields.stack).toMatch(/TypeError/);
    expect(guard.faults).toEqual({ disk: 2, other: 1 });

    guard.uninstall();
    expect(process.listenerCount('uncaughtException')).toBe(0);
    expect(process.listenerCount('unhandledRejection')).toBe(0);
  });

  it('keeps a real Node process running through a thrown ENOSPC, a rejected SQLITE_FULL and a bug, to its own end', () => {
    const built = join(PACKAGE_ROOT, 'dist', 'main', 'agent', 'fault-guard.js');
    if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` first');
    const script = `
      import { guardProcess } from ${JSON.stringify(pathToFileURL(built).href)};
      const said = [];
      guardProcess({
        logger: { error: (_f, m) => said.push('error: ' + m), fatal: (_f, m) => said.push('fatal: ' + m) },
        onDiskFault: (error) => said.push('disk: ' + error.code),
      });
      setTimeout(() => { throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }); }, 5);
      setTimeout(() => void Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })), 10);
      setTimeout(() => { null.id; }, 15);
      setTimeout(() => { console.log(JSON.stringify(said)); }, 60);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout) as string[]).toEqual([
      'error: a write the disk refused was not handled; Pinbridge keeps running',
      'disk: ENOSPC',
      'error: a write the disk refused was not handled; Pinbridge keeps running',
      'disk: SQLITE_FULL',
      'fatal: an error nobody handled (a bug); Pinbridge keeps running',
    ]);
  });
});
