/**
 * Private by default: the agent's folder and every file in it — journal and its WAL, clients,
 * logs, the training sandbox — readable by its user only, both what a running agent creates and
 * what an older version or another tool left open (repaired at start, and said in the log).
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../../main/agent/agent.js';
import { makePrivate } from '../../../main/agent/private-files.js';
import { loadSettings } from '../../../main/settings/settings-file.js';
import { createLogger } from '../../../main/log.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { centavos } from '../../../main/core/money.js';

/** Every file and folder under `dir` whose mode lets another user in, as "path 0644". */
function openToOthers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .concat(dir)
    .filter((path) => !lstatSync(path).isSymbolicLink() && (lstatSync(path).mode & 0o077) !== 0)
    .map((path) => `${path} ${(lstatSync(path).mode & 0o777).toString(8)}`);
}

describe.skipIf(process.platform === 'win32')('the agent’s folder', () => {
  it('takes every permission of other users away, keeping the owner’s, and leaves what a link points to alone', () => {
    const dir = join(mkdtempSync(join(artifactsDir(), 'private-')), '.pinbridge');
    mkdirSync(join(dir, 'logs'), { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'journal.db'), 'x', { mode: 0o644 });
    writeFileSync(join(dir, 'logs', 'pinbridge.log'), 'x', { mode: 0o664 });
    writeFileSync(join(dir, 'tool.sh'), 'x', { mode: 0o755 });
    const outside = join(dir, '..', 'shared.txt');
    writeFileSync(outside, 'x', { mode: 0o644 });
    symlinkSync(outside, join(dir, 'link'));

    expect(makePrivate(dir).sort()).toEqual(
      [
        dir,
        join(dir, 'journal.db'),
        join(dir, 'logs'),
        join(dir, 'logs', 'pinbridge.log'),
        join(dir, 'tool.sh'),
      ].sort(),
    );
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(dir, 'journal.db')).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(dir, 'tool.sh')).mode & 0o777).toBe(0o700);
    expect(lstatSync(outside).mode & 0o777).toBe(0o644);
    expect(openToOthers(dir)).toEqual([]);
    // Nothing left to do the second time; a folder that does not exist yet is no error.
    expect(makePrivate(dir)).toEqual([]);
    expect(makePrivate(join(dir, 'missing'))).toEqual([]);
  });

  it('is private after an agent ran a sale in it: what it created, and what was left open before it started', async () => {
    const home = mkdtempSync(join(artifactsDir(), 'private-agent-'));
    const data = join(home, '.pinbridge');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    writeFileSync(join(data, 'old.log'), 'x', { mode: 0o644 });
    const logFile = join(data, 'logs', 'pinbridge.log');
    mkdirSync(join(data, 'logs'), { recursive: true });
    const logger = createLogger({ level: 'info', file: logFile });
    const agent = await Agent.start({
      settings: loadSettings(undefined, home),
      api: {},
      pinpadAddress: 'sim',
      home,
      posPorts: [0],
      logger,
      logFile,
    });
    try {
      await agent.ready;
      const outcome = await agent.stack.engine.start({
        referenceId: 'private-1',
        amount: centavos(1990),
        paymentType: 'credit',
        installments: 1,
        description: 'Venda',
      });
      expect(outcome.status).toBe('approved');
    } finally {
      await agent.stop();
    }
    const files = readdirSync(data, { recursive: true }).map(String);
    expect(files).toEqual(expect.arrayContaining(['clients.db', join('training', 'journal.db')]));
    expect(openToOthers(data)).toEqual([]);
  });
});
