/**
 * teeLogLines: a copy of the agent's log lines, from a level up, for telemetry (the OTLP log
 * exporter) — after the masking, so a card number in a message reaches the copy masked; a copy
 * that throws loses its line, never the log's; removed, it gets nothing more. A logger writing a
 * single stream cannot be teed, and says so by returning nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../drivers/simulator/index.js';
import { createLogger, teeLogLines } from '../../main/log.js';
import { artifactsDir } from '../helpers/card-data-scan.js';

const agentLogger = () => {
  const file = join(mkdtempSync(join(artifactsDir(), 'log-tee-')), 'agent.log');
  return { file, logger: createLogger({ level: 'info', copyTo: file, stderrLevel: 'fatal' }) };
};

describe('teeLogLines', () => {
  it('copies the lines from the level up, masked, until removed', () => {
    const { logger } = agentLogger();
    const lines: string[] = [];
    const remove = teeLogLines(logger, 'warn', { write: (line) => lines.push(line) });
    expect(remove).toBeTypeOf('function');
    const pan = TEST_CARDS.mastercardCredit.pan;
    logger.info({}, 'not copied');
    logger.warn({ attempt: 1 }, `card ${pan} refused`);
    logger.child({ module: 'disk' }).error({}, 'disk full');
    remove!();
    logger.error({}, 'after the removal');
    expect(lines.map((line) => JSON.parse(line) as { msg: string; level: number })).toEqual([
      expect.objectContaining({ level: 40, msg: `card ${pan.slice(0, 6)}******${pan.slice(-4)} refused`, attempt: 1 }),
      expect.objectContaining({ level: 50, msg: 'disk full', module: 'disk' }),
    ]);
  });

  it('takes error alone when asked', () => {
    const { logger } = agentLogger();
    const lines: string[] = [];
    teeLogLines(logger, 'error', { write: (line) => lines.push(line) });
    logger.warn({}, 'a warning');
    logger.error({}, 'an error');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['an error']);
  });

  it("keeps the log's own lines when the copy throws", () => {
    const { logger, file } = agentLogger();
    teeLogLines(logger, 'warn', {
      write: () => {
        throw new Error('telemetry bug');
      },
    });
    logger.warn({}, 'still in the file');
    logger.info({}, 'and the next line too');
    expect(readFileSync(file, 'utf8')).toMatch(/still in the file[\s\S]*and the next line too/);
  });

  it('cannot tee a logger writing one stream', () => {
    const file = join(mkdtempSync(join(artifactsDir(), 'log-tee-')), 'only.log');
    expect(teeLogLines(createLogger({ file }), 'warn', { write: () => undefined })).toBeUndefined();
  });
});
