/**
 * `pinbridge pos cert`: a technician makes the wss:// certificate in one command, gets the
 * settings line to paste and the trust steps for this machine, and the agent started with those
 * settings serves wss:// with it.
 */
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, runMain, stopServers } from '../../helpers/cli.js';
import { checkedCall, openSocket, RpcClient } from '../pos/pos-rig.js';

interface CertOutput {
  ca_file: string;
  cert_file: string;
  key_file: string;
  names: string[];
  not_after: string;
  ca_fingerprint_sha256: string;
  settings: { pos: { tls: { cert_file: string; key_file: string } } };
  trust: Record<string, string[]>;
}

afterEach(async () => {
  await stopServers();
});

function freshHome(): string {
  return mkdtempSync(join(tmpdir(), 'pinbridge-pos-cli-'));
}

describe('pinbridge pos cert', () => {
  it('writes the CA, the certificate and a key only its owner can read into ~/.pinbridge/tls', async () => {
    const home = freshHome();
    const result = await runMain(['pos', 'cert', '--json'], { HOME: home });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as CertOutput;
    const dir = join(home, '.pinbridge', 'tls');
    expect(out).toMatchObject({
      ca_file: join(dir, 'pinbridge-local-ca.pem'),
      cert_file: join(dir, 'localhost.pem'),
      key_file: join(dir, 'localhost-key.pem'),
      names: ['localhost', '127.0.0.1', '::1'],
      settings: { pos: { tls: { cert_file: join(dir, 'localhost.pem'), key_file: join(dir, 'localhost-key.pem') } } },
    });
    expect(statSync(out.key_file).mode & 0o777).toBe(0o600);
    expect(readFileSync(out.key_file, 'utf8')).toContain('BEGIN PRIVATE KEY');
    const ca = new X509Certificate(readFileSync(out.ca_file));
    expect(ca.ca).toBe(true);
    expect(ca.fingerprint256).toBe(out.ca_fingerprint_sha256);
    expect(new X509Certificate(readFileSync(out.cert_file)).checkIssued(ca)).toBe(true);
    expect(out.trust.linux!.join('\n')).toContain(`update-ca-certificates`);
    expect(out.trust.windows!.join('\n')).toContain(`certutil -user -addstore Root "${out.ca_file}"`);
  });

  it('tells a person where the files are, what to paste into the settings and how to trust the CA here', async () => {
    const home = freshHome();
    const result = await runMain(['pos', 'cert', '--dir', join(home, 'certs'), '--days', '30'], { HOME: home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(join(home, 'certs', 'localhost.pem'));
    expect(result.stdout).toContain(`{"pos":{"tls":{"cert_file":"${join(home, 'certs', 'localhost.pem')}"`);
    expect(result.stdout).toContain('its private key was discarded after signing');
    expect(result.stdout).toMatch(/fingerprint SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}/);
    expect(result.stdout).toContain('update-ca-certificates'); // this machine is Linux
  });

  it('refuses to replace existing files without --force, and a validity browsers would refuse (exit 2)', async () => {
    const home = freshHome();
    expect((await runMain(['pos', 'cert'], { HOME: home })).code).toBe(0);
    const caBefore = readFileSync(join(home, '.pinbridge', 'tls', 'pinbridge-local-ca.pem'), 'utf8');
    const again = await runMain(['pos', 'cert'], { HOME: home });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists; pass --force');
    expect(readFileSync(join(home, '.pinbridge', 'tls', 'pinbridge-local-ca.pem'), 'utf8')).toBe(caBefore);
    expect((await runMain(['pos', 'cert', '--force'], { HOME: home })).code).toBe(0);
    expect(readFileSync(join(home, '.pinbridge', 'tls', 'pinbridge-local-ca.pem'), 'utf8')).not.toBe(caBefore);
    const tooLong = await runMain(['pos', 'cert', '--days', '900', '--json'], { HOME: freshHome() });
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain('--days must be at most 825');
    expect((JSON.parse(tooLong.stdout) as { error: { code: string } }).error.code).toBe('USAGE');
  });

  it('gives an agent that, started with the printed settings, serves wss:// only', async () => {
    const home = freshHome();
    const made = JSON.parse((await runMain(['pos', 'cert', '--json'], { HOME: home })).stdout) as CertOutput;
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(join(home, '.pinbridge', 'settings.json'), JSON.stringify(made.settings));
    const agent = await serve(['start', '--pos-port', '0'], { HOME: home });
    const pos = agent.ready.pos as { ws: string; demo: string };
    expect(pos.ws).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/pos$/);
    expect(pos.demo).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/demo\/$/);
    const client = new RpcClient(await openSocket(pos.ws, {}, readFileSync(made.ca_file, 'utf8')));
    expect(await checkedCall(client, 'agent.info')).toMatchObject({ name: 'Pinbridge', mode: 'training' });
    await client.close();
    expect(await agent.stop()).toBe(0);
  });
});
