/**
 * The payments-api check against the real sandbox over HTTP on 127.0.0.1 — with its token, a
 * wrong one, another marketplace — and against a port nobody listens on and a server that never
 * answers. The token must never show up in what the check returns.
 */
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPaymentsApi, type PaymentsApiTarget } from '../../../main/doctor/payments-api.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { createTestPki, readPem, type TestPki } from '../../helpers/test-pki.js';

let sandbox: RunningSandbox;
let target: PaymentsApiTarget;

beforeAll(async () => {
  sandbox = await startSandbox();
  target = {
    baseUrl: sandbox.url,
    token: sandbox.token,
    marketplaceId: sandbox.marketplaceId,
    sellerId: sandbox.sellerId,
  };
});
afterAll(async () => {
  await sandbox.close();
});

async function closedTcpPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the payments-api check', () => {
  it('is ok when the API accepts the token, and never shows the token', async () => {
    const result = await checkPaymentsApi({ api: target, timeoutMs: 5000 });
    expect(result).toMatchObject({
      id: 'payments-api',
      status: 'ok',
      details: { mode: 'live', url: sandbox.url, marketplace_id: sandbox.marketplaceId },
    });
    expect(result.summary).toContain('accepted the token');
    expect(result.pt).toEqual({
      summary: `A API de pagamentos em ${sandbox.url} aceitou o token (marketplace ${sandbox.marketplaceId}, vendedor ${sandbox.sellerId})`,
    });
    expect(JSON.stringify(result)).not.toContain(sandbox.token);
  });

  it('fails with a credentials fix on a wrong token (401), and never shows it', async () => {
    const wrong = 'sbx_wrong_token_0123456789abcdef';
    const result = await checkPaymentsApi({ api: { ...target, token: wrong }, timeoutMs: 5000 });
    expect(result).toMatchObject({ status: 'fail', details: { problem: 'credentials', http_status: 401 } });
    expect(result.summary).toBe(
      `The payments API at ${sandbox.url} refused the credentials (401: Invalid access token)`,
    );
    expect(result.fix).toContain('--token');
    // Which scheme the key went in, and what else a provider may want: the other scheme, a certificate.
    expect(result.fix).toContain('--auth-scheme basic');
    expect(result.fix).toContain('--cert/--key or --pfx');
    expect(result.pt).toEqual({
      summary: `A API de pagamentos em ${sandbox.url} recusou as credenciais (401: Invalid access token)`,
      fix: 'Obtenha uma chave de API válida no painel do provedor de pagamentos e informe-a com --token; ela é enviada como token Bearer — um provedor que use o outro esquema precisa de --auth-scheme basic. Um provedor que exige certificado do cliente (TLS mútuo) precisa de --cert/--key ou --pfx.',
    });
    expect(JSON.stringify(result)).not.toContain(wrong);
  });

  it("fails with an ids fix when the marketplace is not the token's (404)", async () => {
    const result = await checkPaymentsApi({
      api: { ...target, marketplaceId: 'e0c5c7e3b3a14d6f9a9a2b7c1d0e4f56' },
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({ status: 'fail', details: { problem: 'ids', http_status: 404 } });
    expect(result.fix).toContain('--marketplace and --seller');
    expect(result.pt.fix).toBe(
      'Confira --marketplace e --seller no painel do provedor de pagamentos (o token precisa ser desse marketplace).',
    );
  });

  it('fails with a network fix when nothing answers on the address', async () => {
    const url = `http://127.0.0.1:${await closedTcpPort()}`;
    const result = await checkPaymentsApi({ api: { ...target, baseUrl: url }, timeoutMs: 5000 });
    expect(result).toMatchObject({ status: 'fail', details: { problem: 'network', http_status: null } });
    expect(result.summary).toContain('cannot be reached');
    expect(result.fix).toContain(`curl -sS -o /dev/null -w '%{http_code}\\n' ${url}`);
    expect(result.pt.summary).toMatch(new RegExp(`^Não foi possível alcançar a API de pagamentos em ${url}: `));
    expect(result.pt.fix).toBe(
      `Verifique o endereço (--api ${url}), a conexão deste computador com a internet e qualquer firewall ou proxy no caminho: \`curl -sS -o /dev/null -w '%{http_code}\\n' ${url}\` precisa mostrar um código de status.`,
    );
    expect(JSON.stringify(result)).not.toContain(sandbox.token);
  });

  it('fails with a network fix when the API does not answer in time', async () => {
    const server: Server = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      const result = await checkPaymentsApi({ api: { ...target, baseUrl: url }, timeoutMs: 300 });
      expect(result).toMatchObject({ status: 'fail', details: { problem: 'timeout' } });
      expect(result.summary).toContain('did not answer within 300 ms');
      expect(result.pt.summary).toBe(`A API de pagamentos em ${url} não respondeu em 300 ms`);
      expect(result.fix).toContain('firewall');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('tells a 403 (credentials) from a 500 (the service) on an API that answers with them', async () => {
    let status = 403;
    const server: Server = createServer((_request, response) => {
      response
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { status_code: status, type: 'error', message: 'no' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const api = { ...target, baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` };
      const forbidden = await checkPaymentsApi({ api, timeoutMs: 5000 });
      expect(forbidden).toMatchObject({ status: 'fail', details: { problem: 'credentials', http_status: 403 } });
      expect(forbidden.fix).toContain(`issued for marketplace ${target.marketplaceId}`);
      status = 500;
      const failing = await checkPaymentsApi({ api, timeoutMs: 5000 });
      expect(failing).toMatchObject({ status: 'fail', details: { problem: 'service', http_status: 500 } });
      expect(failing.pt.summary).toMatch(
        /^A API de pagamentos em http:\/\/127\.0\.0\.1:\d+ está com falha \(HTTP 500\): /,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('is skipped in training mode, saying the embedded sandbox is used', async () => {
    const result = await checkPaymentsApi({ api: undefined, timeoutMs: 5000 });
    expect(result).toMatchObject({ status: 'skip', details: { mode: 'training' } });
    expect(result.summary).toContain('embedded sandbox');
    expect(result.pt).toEqual({
      summary:
        'Modo de treinamento (sem --api): o sandbox embutido responde às chamadas de pagamento, não há API para alcançar',
    });
  });
});

describe('the payments-api check against a provider that requires a client certificate (mutual TLS, GoPag)', () => {
  let pki: TestPki;
  let mtls: RunningSandbox;
  let api: PaymentsApiTarget;
  beforeAll(async () => {
    pki = createTestPki();
    mtls = await startSandbox({
      tls: { cert: readPem(pki.server.cert), key: readPem(pki.server.key), ca: readPem(pki.caCert) },
    });
    api = { baseUrl: mtls.url, token: mtls.token, marketplaceId: mtls.marketplaceId, sellerId: mtls.sellerId };
  });
  afterAll(async () => {
    await mtls.close();
    pki.remove();
  });

  it('blames the certificate, not the token, for a 403 when its serial number is not the marketplace id', async () => {
    const wrong = pki.client('outra-loja', 'ABCDEF0123');
    const result = await checkPaymentsApi({
      api: { ...api, certificate: { cert: wrong.cert, key: wrong.key, ca: pki.caCert } },
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({ status: 'fail', details: { problem: 'certificate', http_status: 403 } });
    expect(result.summary).toMatch(
      new RegExp(
        `^The payments API at ${mtls.url} refused the call \\(403: Client certificate serial number 0*ABCDEF0123 does not match marketplace_id ${mtls.marketplaceId}\\) because of the client certificate, not the token: serial 0*ABCDEF0123 ≠ marketplace ${mtls.marketplaceId}$`,
      ),
    );
    expect(result.fix).toContain(`Use the ICP-Brasil certificate issued for marketplace ${mtls.marketplaceId}`);
    expect(result.fix).not.toMatch(/Get a valid API key/);
    expect(result.pt.summary).toContain('por causa do certificado do cliente, não do token');
  });

  it('blames the certificate for a 401 too while its serial is wrong, and says the token comes after', async () => {
    const wrong = pki.client('outra-loja-401', 'ABCDEF0124');
    const result = await checkPaymentsApi({
      api: {
        ...api,
        token: 'sbx_wrong_token_0123456789abcdef',
        certificate: { cert: wrong.cert, key: wrong.key, ca: pki.caCert },
      },
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({ status: 'fail', details: { problem: 'certificate', http_status: 401 } });
    expect(result.fix).toContain(
      'Only if the provider still refuses with the right certificate is the token (--token) to blame.',
    );
  });

  it('blames the token when the certificate is the marketplace’s', async () => {
    const store = pki.client('loja', mtls.marketplaceId);
    const certificate = { cert: store.cert, key: store.key, ca: pki.caCert };
    const result = await checkPaymentsApi({
      api: { ...api, token: 'sbx_wrong_token_0123456789abcdef', certificate },
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({ status: 'fail', details: { problem: 'credentials', http_status: 401 } });
    expect(result.fix).toContain('see the client-certificate check');
    expect(await checkPaymentsApi({ api: { ...api, certificate }, timeoutMs: 5000 })).toMatchObject({ status: 'ok' });
  });
});
