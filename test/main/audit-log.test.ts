/**
 * The audit trail keeps security events where noise cannot reach them: its own file, a budget of
 * lines per kind, and failed writes held in memory rather than thrown.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AUDIT_KINDS,
  AuditLog,
  BURST_LINES,
  LINES_PER_HOUR,
  retentionHours,
  type AuditLine,
} from '../../main/audit-log.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-audit-'));
  dirs.push(dir);
  return dir;
};
const linesOf = (path: string): AuditLine[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditLine);

describe('AuditLog', () => {
  it('writes each event as a JSON line with its time, in a file only its user reads', () => {
    const path = join(tempDir(), 'logs', 'audit.log');
    const audit = new AuditLog(path, { now: () => Date.parse('2026-11-28T12:00:00Z') });
    audit.record({ kind: 'pairing.approved', client: 'cli_0123456789abcdef', name: 'Caixa 1' });
    audit.close();
    expect(linesOf(path)).toEqual([
      { time: '2026-11-28T12:00:00.000Z', kind: 'pairing.approved', client: 'cli_0123456789abcdef', name: 'Caixa 1' },
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('writes a burst of one kind, then only counts it, and says how many were held back once the budget has room', () => {
    let now = Date.parse('2026-11-28T12:00:00Z');
    const path = join(tempDir(), 'audit.log');
    const audit = new AuditLog(path, { now: () => now });
    for (let n = 0; n < 1000; n++) audit.record({ kind: 'pairing.requested', n });
    expect(linesOf(path)).toHaveLength(BURST_LINES);
    now += 3_600_000 / LINES_PER_HOUR + 1;
    audit.record({ kind: 'pairing.requested', n: 1000 });
    expect(linesOf(path).slice(BURST_LINES)).toEqual([
      expect.objectContaining({ kind: 'audit.suppressed', of: 'pairing.requested', count: 1000 - BURST_LINES }),
      expect.objectContaining({ kind: 'pairing.requested', n: 1000 }),
    ]);
    // Another kind has its own budget: the flood did not touch it.
    audit.record({ kind: 'supervisor.locked' });
    audit.close();
    expect(linesOf(path).at(-1)).toEqual(expect.objectContaining({ kind: 'supervisor.locked' }));
  });

  it('keeps an event older than retentionHours() on disk while every kind floods at once', () => {
    const start = Date.parse('2026-11-28T00:00:00Z');
    let now = start;
    const dir = tempDir();
    const audit = new AuditLog(join(dir, 'audit.log'), { now: () => now });
    audit.record({ kind: 'supervisor.locked', marker: 'the line that must stay' });
    const hours = Math.floor(retentionHours());
    expect(hours).toBeGreaterThanOrEqual(24);
    for (let minute = 0; minute < hours * 60; minute += 5) {
      now = start + minute * 60_000;
      // Each kind tried far past its budget, with fields as long as a line may hold.
      for (const kind of AUDIT_KINDS) for (let n = 0; n < 50; n++) audit.record({ kind, pad: 'x'.repeat(500), n });
    }
    audit.close();
    const text = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('');
    expect(text).toContain('the line that must stay');
  });

  it('never keeps more than its files, rotated oldest out', () => {
    const dir = tempDir();
    const audit = new AuditLog(join(dir, 'audit.log'), { rotateBytes: 1000, keepFiles: 3, burstLines: 1e9 });
    for (let n = 0; n < 500; n++) audit.record({ kind: 'client.blocked', n });
    audit.close();
    expect(readdirSync(dir).sort()).toEqual(['audit.log', 'audit.log.1', 'audit.log.2']);
    expect(linesOf(join(dir, 'audit.log')).at(-1)).toEqual(expect.objectContaining({ n: 499 }));
  });

  it('does not throw when the file cannot be written: lines wait in memory and are written late once it can', () => {
    const dir = tempDir();
    // The logs folder is a file: every open fails (as root too, unlike a read-only mode).
    writeFileSync(join(dir, 'logs'), 'not a folder');
    const path = join(dir, 'logs', 'audit.log');
    const audit = new AuditLog(path);
    expect(() => audit.record({ kind: 'disk.full', free: 0 })).not.toThrow();
    expect(audit.failure).toMatch(/^E[A-Z]+$/);
    expect(audit.recent).toEqual([expect.objectContaining({ kind: 'disk.full' })]);
    rmSync(join(dir, 'logs'));
    audit.record({ kind: 'disk.recovered' });
    audit.close();
    expect(audit.failure).toBeUndefined();
    expect(linesOf(path)).toEqual([
      expect.objectContaining({ kind: 'disk.full', late: true }),
      expect.not.objectContaining({ late: true }),
    ]);
  });

  it('cuts long fields so that one line stays within its size', () => {
    const path = join(tempDir(), 'audit.log');
    const audit = new AuditLog(path);
    audit.record({ kind: 'program.blocked', process: 'p'.repeat(10_000) });
    audit.close();
    const [line] = linesOf(path);
    expect(String(line?.process).length).toBeLessThanOrEqual(80);
  });
});
