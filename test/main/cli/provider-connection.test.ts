/**
 * A store's connection to a real provider, from the command line: `pinbridge pay` against a
 * `pinbridge sandbox` that requires a client certificate (mutual TLS, as GoPag) or takes the key
 * as HTTP Basic (as Zoop), and `pinbridge doctor` reading the certificate. Real processes, real
 * TLS handshakes, certificates made by openssl.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runMain, serve, stopServers } from '../../helpers/cli.js';
import { createTestPki, type TestPki } from '../../helpers/test-pki.js';

interface Ready {
  url: string;
  marketplace_id: string;
  seller_id: string;
  token: string;
}

let pki: TestPki;
let home: string;
beforeAll(() => {
  pki = createTestPki();
});
afterAll(() => pki.remove());
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-provider-'));
});
afterEach(async () => {
  await stopServers();
  rmSync(home, { recursive: true, force: true });
});

type Result = Awaited<ReturnType<typeof runMain>>;

const pinbridge = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> =>
  runMain(args, { HOME: home, PINBRIDGE_LOG_LEVEL: 'silent', ...env });

const apiFlags = (ready: Ready): string[] => [
  '--api',
  ready.url,
  '--token',
  ready.token,
  '--marketplace',
  ready.marketplace_id,
  '--seller',
  ready.seller_id,
];

const payFlags = (reference: string): string[] => [
  'pay',
  '--port',
  'sim',
  '--amount',
  '1990',
  '--type',
  'credit',
  '--installments',
  '1',
  '--reference',
  reference,
  '--json',
];

const outcome = (result: Result): Record<string, unknown> =>
  JSON.parse(result.stdout.trim()) as Record<string, unknown>;

async function mtlsSandbox(): Promise<Ready> {
  const sandbox = await serve([
    'sandbox',
    '--port',
    '0',
    '--tls-cert',
    pki.server.cert,
    '--tls-key',
    pki.server.key,
    '--tls-ca',
    pki.caCert,
  ]);
  return sandbox.ready as unknown as Ready;
}

describe('pinbridge pay against a provider that requires a client certificate', () => {
  it('fails clearly without one: nothing charged, the provider’s reason in the result', async () => {
    const ready = await mtlsSandbox();
    expect(ready.url).toMatch(/^https:\/\//);
    const result = await pinbridge([...payFlags('mtls-none'), ...apiFlags(ready), '--ca', pki.caCert]);
    expect(result.code).toBe(1);
    expect(outcome(result), result.stdout).toMatchObject({
      status: 'failed',
      problem: {
        code: 'API_ACCESS_DENIED',
        message: expect.stringContaining('A client certificate is required') as unknown,
      },
    });
  });

  it('succeeds with the certificate for its marketplace, as PEM files or as a PKCS#12 file and its passphrase', async () => {
    const ready = await mtlsSandbox();
    const store = pki.client('loja', ready.marketplace_id);
    const pem = await pinbridge([
      ...payFlags('mtls-pem'),
      ...apiFlags(ready),
      '--cert',
      store.cert,
      '--key',
      store.key,
      '--ca',
      pki.caCert,
    ]);
    expect(pem.code).toBe(0);
    expect(outcome(pem)).toMatchObject({ status: 'approved', reference_id: 'mtls-pem' });
    const pfx = await pinbridge([...payFlags('mtls-pfx'), ...apiFlags(ready), '--pfx', store.pfx, '--ca', pki.caCert], {
      PINBRIDGE_CERT_PASSPHRASE: store.pfxPassphrase,
    });
    expect(pfx.code).toBe(0);
    expect(outcome(pfx)).toMatchObject({ status: 'approved' });
    // The passphrase as the window keeps it headless: a private file beside the API token.
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(join(home, '.pinbridge', 'cert-passphrase'), `${store.pfxPassphrase}\n`, { mode: 0o600 });
    try {
      const stored = await pinbridge([
        ...payFlags('mtls-pfx-stored'),
        ...apiFlags(ready),
        '--pfx',
        store.pfx,
        '--ca',
        pki.caCert,
      ]);
      expect(stored.code, stored.stderr).toBe(0);
      expect(outcome(stored)).toMatchObject({ status: 'approved' });
    } finally {
      rmSync(join(home, '.pinbridge', 'cert-passphrase'));
    }
  });

  it('stops before any payment when the certificate cannot be used, saying why', async () => {
    const ready = await mtlsSandbox();
    const store = pki.client('loja-senha', ready.marketplace_id);
    const result = await pinbridge(
      [...payFlags('mtls-pass'), ...apiFlags(ready), '--pfx', store.pfx, '--ca', pki.caCert],
      { PINBRIDGE_CERT_PASSPHRASE: 'errada' },
    );
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: {
        code: 'PFX_PASSPHRASE',
        message: expect.stringMatching(/^The passphrase of the PKCS#12 file .*loja-senha\.pfx is wrong/) as unknown,
      },
    });
    const human = await pinbridge([
      ...payFlags('mtls-pass').filter((flag) => flag !== '--json'),
      ...apiFlags(ready),
      '--pfx',
      store.pfx,
      '--ca',
      pki.caCert,
    ]);
    expect(human.code).toBe(2);
    expect(human.stderr).toMatch(
      /^pinbridge: The passphrase of the PKCS#12 file .*loja-senha\.pfx is missing \(enter it in the Pinbridge window, or set PINBRIDGE_CERT_PASSPHRASE\)/,
    );
  });

  it('refuses certificate flags that do not go together, before anything runs', async () => {
    const ready = await mtlsSandbox();
    for (const flags of [
      ['--cert', 'a.pem'],
      ['--pfx', 'a.pfx', '--cert', 'a.pem', '--key', 'a.key'],
      ['--auth-scheme', 'digest'],
    ]) {
      const result = await pinbridge([...payFlags('flags'), ...apiFlags(ready), ...flags]);
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^pinbridge: /);
    }
    const alone = await pinbridge([...payFlags('flags'), '--cert', 'a.pem', '--key', 'a.key']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/go with --api/);
  });

  it('pinbridge doctor reads the certificate: its serial against the marketplace, its days to expiry', async () => {
    const ready = await mtlsSandbox();
    const store = pki.client('loja-doctor', ready.marketplace_id);
    const result = await pinbridge([
      'doctor',
      ...apiFlags(ready),
      '--cert',
      store.cert,
      '--key',
      store.key,
      '--ca',
      pki.caCert,
      '--json',
    ]);
    const report = JSON.parse(result.stdout) as {
      checks: Array<{ id: string; status: string; details: Record<string, unknown>; pt: { summary: string } }>;
    };
    const check = (id: string) => report.checks.find((c) => c.id === id)!;
    expect(check('payments-api').status).toBe('ok');
    // The test CA issues certificates for two days: close to expiry, so a warning with the date.
    // A serial is an integer, shown as its bytes in hex: an id that starts with a zero byte ("00",
    // one sandbox in 256) has it dropped, one that starts with "0c" keeps its "0C". The doctor shows
    // the serial as the certificate holds it.
    expect(check('client-certificate')).toMatchObject({
      status: 'warn',
      details: { serial_number: ready.marketplace_id.toUpperCase().replace(/^(00)+/, ''), days_to_expiry: 1 },
    });
    expect(check('client-certificate').pt.summary).toMatch(
      /^O certificado do cliente \(série [0-9A-F]+\) vence em 1 dia\(s\)/,
    );

    const other = pki.client('loja-errada', 'ABCDEF');
    const wrong = await pinbridge([
      'doctor',
      ...apiFlags(ready),
      '--cert',
      other.cert,
      '--key',
      other.key,
      '--ca',
      pki.caCert,
      '--json',
    ]);
    const wrongReport = JSON.parse(wrong.stdout) as typeof report;
    const byId = (id: string) => wrongReport.checks.find((c) => c.id === id)!;
    // The certificate is to blame, not the token: both checks fail naming it.
    expect(byId('payments-api')).toMatchObject({
      status: 'fail',
      details: { http_status: 403, problem: 'certificate' },
    });
    expect(byId('client-certificate')).toMatchObject({
      status: 'fail',
      details: { serial_number: 'ABCDEF', marketplace_id: ready.marketplace_id },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain(`serial ABCDEF ≠ marketplace ${ready.marketplace_id}`);
  });
});

describe('pinbridge pay against a provider that takes the key as HTTP Basic (Zoop)', () => {
  it('pays with --auth-scheme basic, and is refused with the contract’s Bearer', async () => {
    // Each `pay --port sim` starts a new simulated PINPAD, whose DUKPT counters start again.
    const sandbox = await serve(['sandbox', '--port', '0', '--auth', 'basic']);
    const ready = sandbox.ready as unknown as Ready;
    const basic = await pinbridge([...payFlags('basic-1'), ...apiFlags(ready), '--auth-scheme', 'basic']);
    expect(basic.code).toBe(0);
    expect(outcome(basic)).toMatchObject({ status: 'approved' });
    const bearer = await pinbridge([...payFlags('basic-2'), ...apiFlags(ready)]);
    expect(bearer.code).toBe(1);
    expect(outcome(bearer)).toMatchObject({ status: 'failed', problem: { code: 'API_ACCESS_DENIED' } });
  });
});

describe('the API token kept off the command line (other local users can read it there)', () => {
  it('pays with the token from PINBRIDGE_API_TOKEN or the private token file, and says where to put it when there is none', async () => {
    // Each `pay --port sim` starts a new simulated PINPAD, whose DUKPT counters start again.
    const sandbox = await serve(['sandbox', '--port', '0']);
    const ready = sandbox.ready as unknown as Ready;
    const withoutToken = apiFlags(ready).filter(
      (flag, index, all) => flag !== '--token' && all[index - 1] !== '--token',
    );
    expect(withoutToken).not.toContain(ready.token);

    const fromEnv = await pinbridge([...payFlags('token-env'), ...withoutToken], { PINBRIDGE_API_TOKEN: ready.token });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(outcome(fromEnv)).toMatchObject({ status: 'approved' });

    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(join(home, '.pinbridge', 'api-token'), `${ready.token}\n`, { mode: 0o600 });
    try {
      const fromFile = await pinbridge([...payFlags('token-file'), ...withoutToken]);
      expect(fromFile.code, fromFile.stderr).toBe(0);
      expect(outcome(fromFile)).toMatchObject({ status: 'approved' });
    } finally {
      rmSync(join(home, '.pinbridge', 'api-token'));
    }

    const none = await pinbridge([...payFlags('token-none'), ...withoutToken]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--api needs the API token: set PINBRIDGE_API_TOKEN, or keep it in');
  });
});
