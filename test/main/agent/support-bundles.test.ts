/**
 * The agent's support bundles apart from the agent: ~/.pinbridge/support/ keeps the newest bundles
 * only; two asks while one is being made get the same bundle; a doctor that fails is said in the
 * bundle rather than stopping it; with no support.upload_url nothing can be sent, said in pt-BR;
 * the logs are the files named, never the folder they sit in.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SupportBundleRefusal, SupportBundles } from '../../../main/agent/support-bundles.js';
import { createLogger } from '../../../main/log.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { extractTarGz } from '../../helpers/tar-extract.js';

function bundles(home: string, options: { keep?: number; uploadUrl?: string; doctor?: () => Promise<unknown> } = {}) {
  let clock = Date.parse('2026-11-29T09:00:00Z');
  return new SupportBundles({
    dir: join(home, 'support'),
    home,
    settingsPath: join(home, 'settings.json'),
    logFiles: () => [join(home, 'agent.log')],
    doctor: options.doctor ?? (() => Promise.resolve({ ok: true, checks: [] })),
    uploadUrl: options.uploadUrl,
    logger: createLogger({ level: 'silent' }),
    ...(options.keep === undefined ? {} : { keep: options.keep }),
    now: () => new Date((clock += 1_000)),
  });
}

describe('support bundles of the agent', () => {
  it('keeps the newest bundles of the folder', async () => {
    const home = mkdtempSync(join(artifactsDir(), 'support-bundles-'));
    const maker = bundles(home, { keep: 3 });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await maker.make()).id);
    expect(readdirSync(join(home, 'support')).sort()).toEqual(ids.slice(-3));
    expect(ids.at(-1)).toBe('pinbridge-support-2026-11-29T09-00-05-000Z.tar.gz');
  });

  it('gives two asks made at once the same bundle', async () => {
    const home = mkdtempSync(join(artifactsDir(), 'support-bundles-'));
    const maker = bundles(home);
    const [a, b] = await Promise.all([maker.make(), maker.make()]);
    expect(a).toBe(b);
    expect(readdirSync(join(home, 'support'))).toHaveLength(1);
  });

  it('carries the log files named, not their folder, and a failed doctor as its error', async () => {
    const home = mkdtempSync(join(artifactsDir(), 'support-bundles-'));
    writeFileSync(join(home, 'agent.log'), '{"msg":"started"}\n');
    writeFileSync(join(home, 'other.txt'), 'not a log of the agent\n');
    const made = await bundles(home, { doctor: () => Promise.reject(new Error('no time for checks')) }).make();
    const { names, files } = extractTarGz(made.archive);
    expect(names).toContain('logs/agent.log');
    expect(names.some((name) => name.includes('other.txt'))).toBe(false);
    expect(JSON.parse(files.get('doctor.json')!.toString())).toEqual({ error: 'no time for checks' });
  });

  it('sends nothing without support.upload_url, and says so in pt-BR', async () => {
    const home = mkdtempSync(join(artifactsDir(), 'support-bundles-'));
    const maker = bundles(home);
    const made = await maker.make();
    expect(made.upload_to).toBeNull();
    const error = await maker.send(made.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SupportBundleRefusal);
    expect(error).toMatchObject({
      reason: 'NO_UPLOAD_URL',
      cashierMessage:
        'Não há endereço de envio ao suporte nas configurações (support.upload_url): baixe o pacote e envie de outro jeito.',
    });
  });
});
