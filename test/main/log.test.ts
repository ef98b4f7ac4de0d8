/**
 * The log stays bounded whatever a device or the network does (issue 18, item 7): a device
 * answering the wrong command wrote 26,478 lines (4.6 MB) in a minute before. Runs of the same
 * line are written once with a count, and a log file is moved aside by size while running. And a
 * log line never stops the agent (issue 33): a file that cannot be written sends its lines to stderr
 * and keeps them in memory, on a real full disk (a small tmpfs).
 */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLogger,
  LOG_ROTATE_BYTES,
  LoggedCondition,
  logFileOf,
  logFormat,
  RotatingFile,
  type Logger,
} from '../../main/log.js';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk.js';

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the log', () => {
  it('writes a run of identical lines once, then how many times it repeated, at its level', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pinbridge-log-')), 'agent.log');
    const logger = createLogger({ level: 'info', file });
    for (let i = 0; i < 10_000; i++)
      logger.warn({ port: '/dev/ttyACM0', code: 'ENOENT', durationMs: i % 7 }, 'PINPAD not available; retrying');
    logger.info({ port: '/dev/ttyACM0' }, 'PINPAD ready');

    const written = lines(file);
    expect(written.map((line) => line.msg)).toEqual([
      'PINPAD not available; retrying',
      'previous line repeated 9999 more times: PINPAD not available; retrying',
      'PINPAD ready',
    ]);
    expect(written[1]).toMatchObject({ level: 40, repeated: 9999 });
  });

  it('keeps lines that differ in what they say, and the same line from two sources', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pinbridge-log-')), 'agent.log');
    const logger = createLogger({ level: 'info', file });
    logger.warn({ port: 'A' }, 'PINPAD not available; retrying');
    logger.warn({ port: 'B' }, 'PINPAD not available; retrying');
    logger.child({ serial: 'PP-1' }).warn('link lost');
    logger.child({ serial: 'PP-2' }).warn('link lost');
    expect(lines(file)).toHaveLength(4);
  });

  it('moves a file aside by size while running, keeping one old file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pinbridge-log-')), 'agent.log');
    const logger = createLogger({ level: 'info', file, rotateBytes: 64 * 1024 });
    for (let i = 0; i < 5_000; i++) logger.info({ n: i }, 'a different line every time');
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(statSync(file).size).toBeLessThanOrEqual(64 * 1024);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(64 * 1024);
    // Nothing lost at the seam: the newest line is in the current file.
    expect(lines(file).at(-1)).toMatchObject({ n: 4_999 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('a condition in the log', () => {
  it('is written when it starts and when it ends, its repeats at debug, a change of reason as a new warning', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pinbridge-log-')), 'agent.log');
    let now = 0;
    const condition = new LoggedCondition(createLogger({ level: 'info', file }), () => now);
    expect(condition.ended({}, 'ports listed again')).toBe(false);
    expect(condition.holds('ENOENT', { err: 'spawn udevadm ENOENT' }, 'cannot list serial ports')).toBe(true);
    for (let i = 0; i < 100; i++)
      expect(condition.holds('ENOENT', { err: 'spawn udevadm ENOENT' }, 'cannot list serial ports')).toBe(false);
    expect(condition.holds('EACCES', { err: 'spawn udevadm EACCES' }, 'cannot list serial ports')).toBe(true);
    now = 90_000;
    expect(condition.active).toBe(true);
    expect(condition.ended({}, 'serial ports listed again')).toBe(true);
    expect(condition.active).toBe(false);

    expect(lines(file).map((line) => [line.level, line.msg])).toEqual([
      [40, 'cannot list serial ports'],
      [40, 'cannot list serial ports'],
      [30, 'serial ports listed again'],
    ]);
    expect(lines(file)[2]).toMatchObject({ lastedSeconds: 90, attempts: 102 });
  });
});

describe('the log on stderr', () => {
  it('is readable text on a terminal and JSON lines otherwise; PINBRIDGE_LOG_FORMAT=json|pretty forces either', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ PINBRIDGE_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ PINBRIDGE_LOG_FORMAT: 'PRETTY' }, false)).toBe('pretty');
    // Anything else is not a format: the terminal decides.
    expect(logFormat({ PINBRIDGE_LOG_FORMAT: 'yaml' }, false)).toBe('json');
  });

  it('creates its log folder private to the user, so the agent finds nothing to repair at its first start', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'pinbridge-log-private-')), 'logs');
    createLogger({ copyTo: join(dir, 'agent.log'), format: 'json', stderrLevel: 'fatal' }).info('hello');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, 'agent.log'), 'utf8')).toContain('"msg":"hello"');
  });
});

describe('a log file that cannot be written (issue 33)', () => {
  let disk: SmallDisk | undefined;
  afterEach(() => {
    disk?.unmount();
    disk = undefined;
  });

  /** A logger on `file`, its lines that missed the file collected, on a clock the test moves. */
  function onFile(path: string): { logger: Logger; file: RotatingFile; fallen: string[]; clock: { now: number } } {
    const fallen: string[] = [];
    const clock = { now: 1_000_000 };
    const file = new RotatingFile(path, LOG_ROTATE_BYTES, {
      fallback: (line) => fallen.push(line),
      now: () => clock.now,
    });
    return { logger: pino({ base: null }, file), file, fallen, clock };
  }

  it('on a full disk never throws: lines go to stderr and stay in memory, and once there is room the file says what it missed and has every line whole', () => {
    disk = mountSmallDisk(1024 * 1024);
    const path = join(disk.dir, 'logs', 'agent.log');
    const { logger, file, fallen, clock } = onFile(path);
    const changes: (string | undefined)[] = [];
    file.onChange((failure) => changes.push(failure?.code));
    logger.info({ n: 0 }, 'before');
    disk.fill();
    // The file's last page still takes a few lines; then one is cut, then none fits.
    for (let n = 1; n <= 100; n++) expect(() => logger.info({ n, pad: 'x'.repeat(100) }, 'while full')).not.toThrow();
    expect(file.failure).toMatchObject({ code: 'ENOSPC' });
    expect(changes).toEqual(['ENOSPC']);
    expect(fallen.length).toBeGreaterThan(50);
    expect(fallen.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(
      Array.from({ length: fallen.length }, (_, i) => 101 - fallen.length + i),
    );
    expect(file.recent().at(-1)).toContain('"n":100');

    disk.free();
    // Not at once: after the back-off (or retryNow, when the agent sees room again).
    logger.info({ n: 101 }, 'still in memory');
    expect(fallen.at(-1)).toContain('"n":101');
    clock.now += 60_000;
    logger.info({ n: 102 }, 'after');
    expect(file.failure).toBeUndefined();
    expect(changes).toEqual(['ENOSPC', undefined]);
    const written = lines(path);
    expect(written[0]).toMatchObject({ n: 0 });
    const note = written.find((line) => String(line.msg).startsWith('the log file could not be written'));
    expect(note?.msg).toMatch(/\(ENOSPC\): \d+ lines kept in memory follow/);
    // Every line the file missed is in it now, in order, after the note.
    const numbers = written.map((line) => line.n).filter((n): n is number => typeof n === 'number');
    expect(numbers).toEqual(Array.from({ length: 103 }, (_, i) => i));
  });

  it('made where its folder cannot be (a file in the way), never throws either, and keeps the lines in memory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-log-blocked-'));
    writeFileSync(join(dir, 'logs'), 'not a folder');
    const { logger, file, fallen } = onFile(join(dir, 'logs', 'agent.log'));
    expect(file.failure?.code).toMatch(/^E(NOTDIR|EXIST)$/);
    logger.warn('nowhere to go');
    expect(fallen).toHaveLength(1);
    expect(file.recent()).toEqual([expect.stringContaining('"msg":"nowhere to go"')]);
  });

  it('is found behind the agent’s logger (file or copy), for the window and doctor; a logger on stderr alone has none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-log-of-'));
    const copied = createLogger({ copyTo: join(dir, 'a.log'), format: 'json', stderrLevel: 'fatal' });
    copied.child({ part: 'pos' }).info('seen');
    expect(logFileOf(copied)?.path).toBe(join(dir, 'a.log'));
    expect(logFileOf(copied)?.recent()).toEqual([expect.stringContaining('"msg":"seen"')]);
    expect(logFileOf(createLogger({ file: join(dir, 'b.log') }))?.path).toBe(join(dir, 'b.log'));
    expect(logFileOf(createLogger({ format: 'json' }))).toBeUndefined();
  });
});
