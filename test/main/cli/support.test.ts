/**
 * `pinbridge support bundle` in-process: one .tar.gz with the doctor's report, the recent logs, the
 * trace, the settings without secrets and the versions, each listed in manifest.json; a PAN and a
 * CPF planted in the logs come out masked and no secret of the settings is in any file; --upload
 * PUTs the very bytes written to support.upload_url (127.0.0.1 here) only once the person at the
 * keyboard said yes or --yes was given, and refuses with no terminal to ask on.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../../main/support/bundle.js';
import { runMain } from '../../helpers/cli.js';
import { extractTarGz } from '../../helpers/tar-extract.js';

const PAN = '5555555555554444';
const CPF = '123.456.789-09';
const SECRETS = ['bearer-secret-7f3a9c', 'header-secret-b81d2e'];

let home: string;
let settingsPath: string;
let tracePath: string;
let server: Server;
let received: { method: string; type: string | undefined; body: Buffer }[];

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-support-cli-'));
  const logs = join(home, '.pinbridge', 'logs');
  mkdirSync(logs, { recursive: true });
  writeFileSync(
    join(logs, 'pinbridge.log'),
    `${JSON.stringify({ level: 30, msg: 'started' })}\n${JSON.stringify({ level: 40, msg: `card ${PAN} for CPF ${CPF} and 98765432100` })}\n`,
  );
  writeFileSync(join(logs, 'audit.log'), `${JSON.stringify({ event: 'pairing' })}\n`);
  tracePath = join(home, 'session.trace.jsonl');
  writeFileSync(
    tracePath,
    `${JSON.stringify({ trace: 'pinbridge-abecs', pinpad: { model: 'PPC930', firmware: '1.08' } })}\n{"t":1}\n`,
  );
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method!, type: request.headers['content-type'], body: Buffer.concat(chunks) });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  settingsPath = join(home, 'settings.json');
  writeFileSync(
    settingsPath,
    JSON.stringify({
      telemetry: {
        enabled: false,
        endpoint: 'https://prometheus.example/api/v1/write',
        bearer_token: SECRETS[0],
        headers: { 'X-Api-Key': SECRETS[1] },
      },
      support: { upload_url: `http://127.0.0.1:${port}/bundles/checkout-1` },
    }),
  );
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  received = [];
});

function bundle(out: string, ...extra: string[]): string[] {
  return ['support', 'bundle', '--out', out, '--settings', settingsPath, '--timeout', '0.5', '--json', ...extra];
}

const env = (): NodeJS.ProcessEnv => ({ HOME: home });

describe('pinbridge support bundle', () => {
  it('writes one archive whose manifest lists every file with its size and SHA-256', async () => {
    const out = join(home, 'bundle.tar.gz');
    const result = await runMain(bundle(out, '--trace', tracePath), env());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { file: string; bytes: number; sha256: string; uploaded: null };
    const archive = readFileSync(out);
    expect(summary).toMatchObject({ file: out, bytes: archive.length, uploaded: null });
    expect(summary.sha256).toBe(createHash('sha256').update(archive).digest('hex'));

    const { names, files } = extractTarGz(archive);
    expect(names.sort()).toEqual(
      [
        'manifest.json',
        'doctor.json',
        'logs/pinbridge.log',
        'logs/audit.log',
        'pinpad-trace/session.trace.jsonl',
        'settings.json',
        'versions.json',
      ].sort(),
    );
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as Manifest;
    expect(manifest.files.map((file) => file.name).sort()).toEqual(names.filter((n) => n !== 'manifest.json').sort());
    for (const entry of manifest.files) {
      expect(files.get(entry.name)!.length).toBe(entry.size);
      expect(createHash('sha256').update(files.get(entry.name)!).digest('hex')).toBe(entry.sha256);
    }

    const doctor = JSON.parse(files.get('doctor.json')!.toString()) as { checks: { id: string }[]; ok: boolean };
    expect(doctor.checks.map((check) => check.id)).toContain('settings');
    const versions = JSON.parse(files.get('versions.json')!.toString()) as Record<string, unknown>;
    expect(versions).toMatchObject({ node: process.versions.node, pinpad: { model: 'PPC930', firmware: '1.08' } });
    expect(typeof versions.agent).toBe('string');
  });

  it('masks the PAN and the CPF planted in the logs and carries no secret of the settings', async () => {
    const out = join(home, 'masked.tar.gz');
    expect((await runMain(bundle(out), env())).code).toBe(0);
    const { files } = extractTarGz(readFileSync(out));
    const log = files.get('logs/pinbridge.log')!.toString();
    expect(log).toContain('555555******4444');
    expect(log).toContain('123.***.***-**');
    expect(log).toContain('987********');
    const settings = JSON.parse(files.get('settings.json')!.toString()) as {
      settings: { telemetry: Record<string, unknown> };
    };
    expect(settings.settings.telemetry).toMatchObject({ bearer_token: '(set)', headers: { 'X-Api-Key': '(set)' } });
    for (const [name, bytes] of files) {
      const text = bytes.toString();
      for (const value of [PAN, CPF, '12345678909', '98765432100', ...SECRETS])
        expect(text.includes(value), `${value} in ${name}`).toBe(false);
    }
  });

  it('refuses --upload without a terminal to ask on and without --yes, sending nothing', async () => {
    const out = join(home, 'refused.tar.gz');
    const result = await runMain(bundle(out, '--upload'), env());
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'UPLOAD_NOT_CONFIRMED' } });
    expect(result.stderr).toMatch(/no terminal to ask on: add --yes/);
    expect(received).toEqual([]);
  });

  it('sends nothing when the person at the keyboard answers no', async () => {
    const out = join(home, 'declined.tar.gz');
    const questions: string[] = [];
    const result = await runMain(bundle(out, '--upload'), env(), (question) => {
      questions.push(question);
      return Promise.resolve(false);
    });
    expect(result.code).toBe(2);
    expect(questions).toEqual([
      expect.stringMatching(/^Send .*declined\.tar\.gz \(\d+ bytes\) to http:\/\/127\.0\.0\.1:\d+\?$/),
    ]);
    expect(received).toEqual([]);
    expect(readFileSync(out).length).toBeGreaterThan(0);
  });

  it('PUTs the very bytes written once confirmed, or with --yes', async () => {
    const confirmed = join(home, 'confirmed.tar.gz');
    const result = await runMain(bundle(confirmed, '--upload'), env(), () => Promise.resolve(true));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uploaded: { status: 201 } });
    const withYes = join(home, 'yes.tar.gz');
    expect((await runMain(bundle(withYes, '--upload', '--yes'), env())).code).toBe(0);
    expect(received.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    expect(received[0]!.type).toBe('application/gzip');
    expect(received[0]!.body.equals(readFileSync(confirmed))).toBe(true);
    expect(received[1]!.body.equals(readFileSync(withYes))).toBe(true);
  });

  it('refuses --upload when the settings name no support.upload_url', async () => {
    const bare = join(home, 'bare-settings.json');
    writeFileSync(bare, '{}');
    const result = await runMain(
      ['support', 'bundle', '--out', join(home, 'x.tar.gz'), '--settings', bare, '--upload', '--yes', '--json'],
      env(),
    );
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'UPLOAD_URL_MISSING' } });
  });

  it('refuses a plain-http upload URL to another computer in the settings', async () => {
    const remote = join(home, 'remote-settings.json');
    writeFileSync(remote, JSON.stringify({ support: { upload_url: 'http://support.example/bundles' } }));
    const result = await runMain(
      ['support', 'bundle', '--out', join(home, 'y.tar.gz'), '--settings', remote, '--upload', '--yes', '--json'],
      env(),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('support.upload_url');
  });
});
