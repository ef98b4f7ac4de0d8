/**
 * The sandbox's close (the agent's stop in training, every spec's teardown) ends once its requests
 * are answered: a connection a client opened and never used, or left idle, does not hold it, and a
 * request still arriving gets its answer first.
 */
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { freshCpf } from '../../helpers/fresh-cpf.js';
import { createTestPki, readPem, type TestPki } from '../../helpers/test-pki.js';

/** Far longer than a close takes, far shorter than Node's 60 s wait for a request's headers. */
const HUNG_AFTER_MS = 5_000;

/** 'closed', or 'hung' when the close has not ended after HUNG_AFTER_MS. */
function closeOf(sandbox: RunningSandbox): Promise<'closed' | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    sandbox.close().then(() => 'closed' as const),
    new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), HUNG_AFTER_MS))),
  ]).finally(() => clearTimeout(timer));
}

let pki: TestPki;
beforeAll(() => {
  pki = createTestPki();
});
afterAll(() => pki.remove());

type Scheme = 'http' | 'https';

function sandboxOver(scheme: Scheme): Promise<RunningSandbox> {
  return startSandbox(
    scheme === 'http' ? {} : { tls: { cert: readPem(pki.server.cert), key: readPem(pki.server.key) } },
  );
}

/** A raw connection to the sandbox (TLS handshake done on https), and what came back on it until it ended. */
async function rawConnection(sandbox: RunningSandbox): Promise<{ socket: Socket; ended: Promise<string> }> {
  const { hostname, port, protocol } = new URL(sandbox.url);
  const socket =
    protocol === 'http:'
      ? connect({ host: hostname, port: Number(port) })
      : connectTls({ host: hostname, port: Number(port), ca: readPem(pki.caCert), servername: 'localhost' });
  await new Promise<void>((resolve, reject) =>
    socket.once(protocol === 'http:' ? 'connect' : 'secureConnect', resolve).once('error', reject),
  );
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, ended };
}

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  // A failed spec's sandbox: its connections go first, so this cannot hang too.
  await sandbox?.close();
  sandbox = undefined;
});

describe.each(['http', 'https'] as const)("the sandbox's close (%s)", (scheme) => {
  it('ends a connection that never carried a request, and an idle keep-alive one', async () => {
    sandbox = await sandboxOver(scheme);
    const unused = await rawConnection(sandbox);
    const idle = await rawConnection(sandbox);
    idle.socket.write(`GET /v1/health HTTP/1.1\r\nHost: sandbox\r\nConnection: keep-alive\r\n\r\n`);
    await expect.poll(() => idle.socket.bytesRead).toBeGreaterThan(0);

    expect(await closeOf(sandbox)).toBe('closed');
    expect(await unused.ended).toBe('');
    expect(await idle.ended).toMatch(/^HTTP\/1\.1 /);
  });

  it('answers a request still arriving before it ends its connection', async () => {
    sandbox = await sandboxOver(scheme);
    const body = JSON.stringify({
      first_name: 'Clara',
      last_name: 'Nunes',
      taxpayer_id: freshCpf(),
      email: 'clara@example.com',
    });
    const { socket, ended } = await rawConnection(sandbox);
    const arrived = new Promise((resolve) => sandbox!.app.server.once('request', resolve));
    // The headers, and half the body: the request is in flight when the close begins.
    socket.write(
      `POST /v1/marketplaces/${sandbox.marketplaceId}/buyers HTTP/1.1\r\nHost: sandbox\r\n` +
        `Authorization: Bearer ${sandbox.token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    await arrived;
    const closing = closeOf(sandbox);
    socket.write(body.slice(20));

    expect(await ended).toMatch(/^HTTP\/1\.1 201 /);
    expect(await closing).toBe('closed');
  });
});
