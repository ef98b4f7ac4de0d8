/**
 * Mutual TLS and the two ways a key may be sent, proven over real TLS handshakes between the
 * real client and the sandbox: the GoPag front of this API family requires a client certificate
 * whose serial number is the marketplace id (401/403 otherwise) on top of its Bearer token, while
 * the Zoop API underneath takes the key as HTTP Basic user name.
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  loadClientTls,
  PaymentsClient,
  PermissionError,
  type AuthScheme,
  type ClientTls,
  type PaymentsApiError,
} from '../../../main/api/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { createTestPki, readPem, type TestPki } from '../../helpers/test-pki.js';
import { rejection } from '../../helpers/thrown.js';

let pki: TestPki;
let stranger: TestPki;
let sandbox: RunningSandbox;

beforeAll(async () => {
  pki = createTestPki();
  stranger = createTestPki('Someone Else CA');
  sandbox = await startSandbox({
    tls: { cert: readPem(pki.server.cert), key: readPem(pki.server.key), ca: readPem(pki.caCert) },
  });
});
afterAll(async () => {
  await sandbox.close();
  pki.remove();
  stranger.remove();
});

function client(
  url: string,
  token: string,
  marketplaceId: string,
  options: { tls?: ClientTls; authScheme?: AuthScheme } = {},
): PaymentsClient {
  return new PaymentsClient({ baseUrl: url, token, marketplaceId, maxRetries: 0, timeoutMs: 5_000, ...options });
}

const failure = (promise: Promise<unknown>): Promise<PaymentsApiError> => rejection<PaymentsApiError>(promise);

const listTransactions = (c: PaymentsClient): Promise<unknown> => c.transactions.list({ limit: 1 });

describe('a sandbox that requires a client certificate (pinbridge sandbox --tls-ca)', () => {
  it('serves HTTPS', () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a call without a client certificate: 401 saying a certificate is required', async () => {
    const error = await failure(
      listTransactions(
        client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls: loadClientTls({ ca: pki.caCert })! }),
      ),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.detail).toBe('A client certificate is required (mutual TLS)');
    // The transactions family answers in shape A, with the contract's type of a 401.
    expect(error.raw).toEqual({
      status: 401,
      type: 'unauthorized',
      detail: 'A client certificate is required (mutual TLS)',
      trace_id: expect.stringMatching(/^[0-9a-f]{6}$/) as unknown,
    });
  });

  it('refuses a certificate another CA issued: 401', async () => {
    const other = stranger.client('loja-estranha', sandbox.marketplaceId);
    const tls = loadClientTls({ cert: other.cert, key: other.key, ca: pki.caCert })!;
    const error = await failure(listTransactions(client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls })));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.detail).toMatch(/^Client certificate not accepted/);
  });

  it('refuses a certificate whose serial number is not the marketplace id: 403, naming both', async () => {
    const wrong = pki.client('outra-loja', 'ABCDEF0123');
    const tls = loadClientTls({ cert: wrong.cert, key: wrong.key, ca: pki.caCert })!;
    const error = await failure(listTransactions(client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls })));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.status).toBe(403);
    expect(error.detail).toContain(sandbox.marketplaceId);
    expect(error.raw).toEqual({
      status: 403,
      detail: `Client certificate serial number ${/serial number (\S+)/.exec(error.detail)?.[1] ?? ''} does not match marketplace_id ${sandbox.marketplaceId}`,
      trace_id: expect.stringMatching(/^[0-9a-f]{6}$/) as unknown,
    });
    expect(error.detail).toMatch(/serial number 0*ABCDEF0123 /i);
  });

  it('answers the bank accounts family’s 403 in its shape B', async () => {
    const wrong = pki.client('outra-loja-b', 'ABCDEF0124');
    const tls = loadClientTls({ cert: wrong.cert, key: wrong.key, ca: pki.caCert })!;
    const error = await failure(
      client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls }).bankAccounts.retrieve('a'.repeat(32)),
    );
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.raw).toEqual({ status_code: 403, type: 'unauthorized', message: error.detail });
    expect(error.detail).toMatch(new RegExp(`does not match marketplace_id ${sandbox.marketplaceId}$`));
  });

  it('takes a certificate for the marketplace, given as PEM files or as a PKCS#12 file (legacy RC2-40 too) with its passphrase', async () => {
    const store = pki.client('loja', sandbox.marketplaceId);
    const pem = loadClientTls({ cert: store.cert, key: store.key, ca: pki.caCert })!;
    await expect(
      listTransactions(client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls: pem })),
    ).resolves.toMatchObject({ items: [] });
    const pfx = loadClientTls({ pfx: store.pfx, passphrase: store.pfxPassphrase, ca: pki.caCert })!;
    await expect(
      listTransactions(client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls: pfx })),
    ).resolves.toMatchObject({ items: [] });
    const legacy = loadClientTls({ pfx: store.legacyPfx, passphrase: store.pfxPassphrase, ca: pki.caCert })!;
    await expect(
      listTransactions(client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls: legacy })),
    ).resolves.toMatchObject({ items: [] });
  });

  describe('before routing, as a provider’s TLS front does', () => {
    /** A bare HTTPS request, no key: what the sandbox says before any route is chosen. */
    const raw = async (
      method: 'GET' | 'POST',
      path: string,
      tls: ClientTls,
    ): Promise<{ status: number; body: { status?: number; detail?: string } }> => {
      const dispatcher = new Agent({ connect: { ...tls } });
      try {
        const response = await request(`${sandbox.url}${path}`, {
          method,
          dispatcher,
          ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
        });
        return { status: response.statusCode, body: (await response.body.json()) as { status?: number } };
      } finally {
        await dispatcher.close();
      }
    };

    it.each([
      ['an unknown route', 'GET', '/v1/no-such-thing'],
      ['a path outside the API', 'GET', '/favicon.ico'],
      ['the sandbox helpers, which need no key', 'POST', '/v1/sandbox/marketplaces'],
      ['a public document link', 'GET', `/boletos/${'a'.repeat(32)}.pdf`],
    ] as const)(
      'refuses %s without a client certificate: 401, not what the route would say',
      async (_, method, path) => {
        const noCertificate = loadClientTls({ ca: pki.caCert })!;
        expect(await raw(method, path, noCertificate)).toEqual({
          status: 401,
          body: expect.objectContaining({ detail: 'A client certificate is required (mutual TLS)' }) as unknown,
        });
      },
    );

    it('refuses a certificate another CA issued on an unknown route too: 401', async () => {
      const other = stranger.client('estranha-404', sandbox.marketplaceId);
      const answer = await raw(
        'GET',
        '/v1/no-such-thing',
        loadClientTls({ cert: other.cert, key: other.key, ca: pki.caCert })!,
      );
      expect(answer.status).toBe(401);
      expect(answer.body.detail).toMatch(/^Client certificate not accepted/);
    });

    it('routes once the certificate is the CA’s: an unknown route is then 404', async () => {
      const store = pki.client('loja-404', sandbox.marketplaceId);
      const answer = await raw(
        'GET',
        '/v1/no-such-thing',
        loadClientTls({ cert: store.cert, key: store.key, ca: pki.caCert })!,
      );
      expect(answer).toMatchObject({ status: 404, body: { detail: 'Route not found: GET /v1/no-such-thing' } });
    });
  });

  it('is not reached by a client that does not trust its server certificate: a connection error that says why', async () => {
    const store = pki.client('loja-sem-ca', sandbox.marketplaceId);
    const tls = loadClientTls({ cert: store.cert, key: store.key })!;
    const error = await failure(listTransactions(client(sandbox.url, sandbox.token, sandbox.marketplaceId, { tls })));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/certificate/i);
  });
});

describe('how the key is sent', () => {
  const sandboxes: RunningSandbox[] = [];
  afterAll(async () => {
    for (const s of sandboxes) await s.close();
  });
  const started = async (authScheme: 'bearer' | 'basic' | 'any'): Promise<RunningSandbox> => {
    const s = await startSandbox({ settings: { authScheme } });
    sandboxes.push(s);
    return s;
  };

  it('the contract’s Bearer only, by default: a Zoop-style Basic key is 401 with the scheme it wants', async () => {
    const s = await started('bearer');
    await expect(listTransactions(client(s.url, s.token, s.marketplaceId))).resolves.toBeDefined();
    const error = await failure(listTransactions(client(s.url, s.token, s.marketplaceId, { authScheme: 'basic' })));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.detail).toBe('Authorization header must be "Bearer <token>"');
  });

  it('HTTP Basic with the key as the user name, when the sandbox is set for it (Zoop)', async () => {
    const s = await started('basic');
    await expect(
      listTransactions(client(s.url, s.token, s.marketplaceId, { authScheme: 'basic' })),
    ).resolves.toBeDefined();
    const error = await failure(listTransactions(client(s.url, s.token, s.marketplaceId)));
    expect(error.detail).toBe('Authorization header must be "Basic base64(<key>:)"');
    const wrongKey = await failure(
      listTransactions(client(s.url, 'not-the-key', s.marketplaceId, { authScheme: 'basic' })),
    );
    expect(wrongKey.detail).toBe('Invalid access token');
  });

  it('either, when the sandbox accepts any', async () => {
    const s = await started('any');
    await expect(
      listTransactions(client(s.url, s.token, s.marketplaceId, { authScheme: 'basic' })),
    ).resolves.toBeDefined();
    await expect(
      listTransactions(client(s.url, s.token, s.marketplaceId, { authScheme: 'bearer' })),
    ).resolves.toBeDefined();
  });
});
