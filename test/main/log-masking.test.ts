/**
 * The log's last resort: card data that reaches a log line anyway — in the message, a field, a
 * child logger's bindings, an error, a number, a key, written in any of the corpus's disguises —
 * is masked as the line is written (first 6 / last 4, or removed whole when encoded or a track),
 * and the line stays JSON. Lines without card data are written untouched. The log is left in the
 * test run's artifacts, so the final scan reads it too.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENCODED_REMOVED, TRACK_REMOVED } from '../../drivers/card-number.js';
import { createLogger, maskCardDataInLine } from '../../main/log.js';
import { artifactsDir, compacted } from '../helpers/card-data-scan.js';
import { CORPUS_PANS, DISGUISED } from '../fixtures/card-data-corpus.js';

const PAN = CORPUS_PANS.elo5;

const logFile = (): string => join(mkdtempSync(join(artifactsDir(), 'log-card-data-')), 'agent.log');
const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('card data that reaches a log line', () => {
  it('is masked wherever it is in the line, and the line stays JSON', () => {
    const file = logFile();
    const logger = createLogger({ level: 'info', file });
    logger.child({ reference: `ref_${PAN}` }).warn(
      {
        note: PAN.replace(/(\d{4})(?=\d)/g, '$1.'),
        amount: Number(PAN),
        encoded: Buffer.from(PAN).toString('base64'),
        [PAN]: 'a key',
        track: `;${PAN}=28121010000?`,
        err: new Error(`failed for ${PAN}`),
      },
      `sale ${PAN} refused`,
    );
    logger.flush();
    const [line] = lines(file);
    expect(line).toMatchObject({
      reference: 'ref_509069******0016',
      note: '5090.69**.****.0016',
      amount: '509069******0016',
      encoded: ENCODED_REMOVED,
      '509069******0016': 'a key',
      track: TRACK_REMOVED,
      err: { message: 'failed for 509069******0016' },
      msg: 'sale 509069******0016 refused',
    });
    expect(compacted(readFileSync(file, 'utf8'))).not.toContain(PAN);
  });

  it('is masked in every disguise of the corpus', () => {
    const file = logFile();
    const logger = createLogger({ level: 'info', file });
    for (const entry of DISGUISED) logger.info({ fields: entry.fields }, entry.label);
    logger.flush();
    const written = readFileSync(file, 'utf8');
    expect(lines(file)).toHaveLength(DISGUISED.length);
    for (const entry of DISGUISED) {
      // A number split between fields is whole only when the fields are read together.
      if (Object.keys(entry.fields).length > 1) continue;
      expect(compacted(written).includes(entry.pan), entry.label).toBe(false);
    }
  });

  it('leaves every other line as pino wrote it', () => {
    const line = `{"level":30,"time":1764150000008,"pid":1234,"id":"550e8400-e29b-41d4-a716-446655440000","msg":"sale 123"}\n`;
    expect(maskCardDataInLine(line)).toBe(line);
  });

  it('reads a tab or line break escaped in JSON as the separator it is', () => {
    const line = `${JSON.stringify({ msg: PAN.replace(/(\d{4})(?=\d)/g, '$1\t') })}\n`;
    expect(maskCardDataInLine(line)).toBe(`${JSON.stringify({ msg: '5090\t69**\t****\t0016' })}\n`);
  });
});
