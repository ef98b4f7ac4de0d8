/**
 * The log export a technician asks for: the last lines of the agent's log, a cut first line
 * dropped, and anything card-like masked once more (first 6 / last 4; track data removed) — a
 * Luhn-valid number only, so NSUs, amounts and ids pass untouched. The lines a log file missed on
 * a full disk (kept in memory) come after the file's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportLogs, maskCardData } from '../../../main/agent/log-export.js';
import { createLogger } from '../../../main/log.js';

describe('maskCardData', () => {
  it('masks Luhn-valid card numbers to first 6 / last 4 and removes track data', () => {
    const { text, masked } = maskCardData(
      'pan 4111111111111111 and ;4111111111111111=25121010000000000000? and %B4111111111111111^DOE/JOHN^2512101?',
    );
    expect(text).toBe('pan 411111******1111 and [track removed] and [track removed]');
    expect(masked).toBe(3);
  });

  it('leaves numbers that are not card numbers alone', () => {
    // 1763712345679 is a log line's time and passes Luhn: a time, not a card (cards start with 2 to 6).
    const line =
      '{"time":1763712345679,"nsu":"000123456","amount":1234,"transaction":"1234567890123","cnpj":"11222333000181"}';
    expect(maskCardData(line)).toEqual({ text: line, masked: 0 });
  });
});

describe('exportLogs', () => {
  it('gives the last lines of the file, masked, and nothing for a missing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-logs-'));
    const file = join(dir, 'pinbridge.log');
    writeFileSync(file, ['{"msg":"one"}', '{"msg":"two","pan":"5555555555554444"}', '{"msg":"three"}', ''].join('\n'));
    expect(exportLogs(file, 2)).toEqual({
      file,
      text: '{"msg":"two","pan":"555555******4444"}\n{"msg":"three"}\n',
      lines: 2,
      masked: 1,
    });
    expect(exportLogs(join(dir, 'none.log'))).toEqual({ file: join(dir, 'none.log'), text: '', lines: 0, masked: 0 });
  });

  it('adds after the file the lines it missed (kept in memory while the disk was full), masked the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-logs-'));
    const file = join(dir, 'pinbridge.log');
    writeFileSync(file, '{"msg":"written"}\n');
    const missed = ['{"msg":"in memory"}\n', '{"msg":"card","note":"4111111111111111"}\n'];
    expect(exportLogs(file, 10, missed)).toEqual({
      file,
      text: '{"msg":"written"}\n{"msg":"in memory"}\n{"msg":"card","note":"411111******1111"}\n',
      lines: 3,
      masked: 1,
    });
    // A file that cannot be read at all still gives what memory holds.
    expect(exportLogs(join(dir, 'none.log'), 10, missed).lines).toBe(2);
  });

  it("reads what the agent's logger copies to its file", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pinbridge-logs-')), 'logs', 'pinbridge.log');
    const logger = createLogger({ level: 'info', copyTo: file });
    logger.info({ pinpad: 'PBSIM-1' }, 'PINPAD ready');
    logger.info({ pan: '4111111111111111' }, 'a field the redaction catches');
    logger.flush();
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('"msg":"PINPAD ready"');
    expect(written).not.toContain('4111111111111111');
    expect(exportLogs(file).lines).toBe(2);
  });
});
