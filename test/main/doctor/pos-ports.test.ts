/**
 * The pos-ports check on real loopback ports: one nobody listens on, one held by a fake Pinbridge
 * (a `ws` server answering agent.info as the agent does), and ones held by other programs — a TCP
 * service that greets with a banner, one that never says anything, a web server, and a WebSocket
 * server that is not Pinbridge.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { checkPosPorts, probePosPort } from '../../../main/doctor/pos-ports.js';
import { createLocalCertificate } from '../../../main/pos/tls/local-certificate.js';
import { freedPort } from '../../helpers/closed-port.js';

const SETTINGS = '/store/settings.json';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function portOf(server: net.Server | HttpServer): number {
  return (server.address() as net.AddressInfo).port;
}

async function listening<T extends net.Server | HttpServer>(server: T): Promise<T> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return server;
}

/** A TCP service on the port: `banner` is written on connect (undefined: silent). */
async function tcpService(banner?: string): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (banner !== undefined) socket.write(banner);
  });
  await listening(server);
  cleanups.push(() => Promise.resolve(sockets.forEach((s) => s.destroy())));
  return portOf(server);
}

/** A WebSocket server on /pos answering agent.info with `name` (over TLS with `tls`). */
async function wsAgent(name: string, tls?: { cert: string; key: string }): Promise<number> {
  const http = await listening(tls ? createHttpsServer(tls) : createHttpServer());
  const wss = new WebSocketServer({ server: http, path: '/pos' });
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  wss.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const request = JSON.parse(data.toString()) as { id: number; method: string };
      if (request.method !== 'agent.info') return;
      socket.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: request.id,
          result: {
            name,
            version: '0.1.0',
            protocol: 1,
            mode: 'training',
            authenticated: false,
            methods: [],
            events: [],
          },
        }),
      );
    });
  });
  return portOf(http);
}

describe('probePosPort', () => {
  it('tells a free port, a running Pinbridge and other programs apart', async () => {
    expect(await probePosPort(await freedPort(), { timeoutMs: 1000 })).toEqual({ state: 'free' });
    expect(await probePosPort(await wsAgent('Pinbridge'), { timeoutMs: 1000 })).toEqual({
      state: 'pinbridge',
      version: '0.1.0',
      mode: 'training',
      secure: false,
    });
    expect(await probePosPort(await wsAgent('QZ Tray'), { timeoutMs: 1000 })).toMatchObject({
      state: 'other',
      reason: expect.stringContaining('"QZ Tray"') as unknown,
    });
    expect(await probePosPort(await tcpService('SSH-2.0-OpenSSH_9.6\r\n'), { timeoutMs: 1000 })).toMatchObject({
      state: 'other',
    });
    expect(await probePosPort(await tcpService(), { timeoutMs: 300 })).toMatchObject({ state: 'other' });
    const web = await listening(createHttpServer((_request, response) => response.writeHead(404).end('not here')));
    expect(await probePosPort(portOf(web), { timeoutMs: 1000 })).toMatchObject({
      state: 'other',
      reason: expect.stringContaining('HTTP 404') as unknown,
    });
  });

  it('finds an agent serving wss:// (settings pos.tls), whose certificate Node does not trust', async () => {
    const { cert, key } = await createLocalCertificate({ days: 1 });
    const port = await wsAgent('Pinbridge', { cert, key });
    expect(await probePosPort(port, { timeoutMs: 2000, tls: true })).toEqual({
      state: 'pinbridge',
      version: '0.1.0',
      mode: 'training',
      secure: true,
    });
    // Asked in plain ws://, a TLS server does not answer as the POS API.
    expect(await probePosPort(port, { timeoutMs: 1000 })).toMatchObject({ state: 'other' });
  });
});

describe('the pos-ports check', () => {
  it('is ok when the ports are free, saying where `pinbridge start` will listen', async () => {
    const ports = [await freedPort(), await freedPort()];
    const result = await checkPosPorts({ ports, settingsPath: SETTINGS, timeoutMs: 1000 });
    expect(result).toMatchObject({
      id: 'pos-ports',
      status: 'ok',
      details: {
        source: 'settings',
        ports: [
          { port: ports[0], state: 'free' },
          { port: ports[1], state: 'free' },
        ],
      },
    });
    expect(result.summary).toContain(`\`pinbridge start\` will listen on port ${ports[0]}`);
    expect(result.pt).toEqual({
      summary: `O \`pinbridge start\` vai escutar na porta ${ports[0]}: ${ports[0]} livre, ${ports[1]} livre`,
    });
  });

  it('is ok when a running Pinbridge holds a port', async () => {
    const agent = await wsAgent('Pinbridge');
    const result = await checkPosPorts({ ports: [agent, await freedPort()], settingsPath: SETTINGS, timeoutMs: 1000 });
    expect(result.status).toBe('ok');
    expect(result.summary).toContain(`Pinbridge is running on port ${agent}`);
    expect(result.fix).toBeUndefined();
    expect(result.pt.summary).toMatch(
      new RegExp(
        `^O Pinbridge está em execução na porta ${agent}: ${agent} Pinbridge 0\\.1\\.0 \\(treinamento\\), \\d+ livre$`,
      ),
    );
    expect(result.pt.fix).toBeUndefined();
  });

  it('fails when another program holds a port, naming the pos.ports setting and how to find the program', async () => {
    const taken = await tcpService('220 ftp ready\r\n');
    const result = await checkPosPorts({
      ports: [taken, await freedPort()],
      settingsPath: SETTINGS,
      timeoutMs: 1000,
      platform: 'linux',
    });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain(`${taken} used by another program`);
    expect(result.fix).toContain(`sudo ss -ltnp 'sport = :${taken}'`);
    expect(result.fix).toContain('`pos.ports`');
    expect(result.fix).toContain(SETTINGS);
    expect(result.fix).toMatch(/"ports": \[\d+, \d+, \d+\]/);
    expect(result.pt.summary).toMatch(
      new RegExp(
        `^Uma porta da API do PDV está ocupada por outro programa: ${taken} usada por outro programa, \\d+ livre$`,
      ),
    );
    // The same command and setting, with the same suggested ports.
    const setting = /`"pos": \{ "ports": \[\d+, \d+, \d+\] \}`/.exec(result.fix ?? '')?.[0];
    expect(setting).toBeDefined();
    expect(result.pt.fix).toBe(
      `Descubra o programa na porta ${taken} com \`sudo ss -ltnp 'sport = :${taken}'\` e feche-o, ou mude o Pinbridge para portas livres com ${setting} (configuração \`pos.ports\`) em ${SETTINGS} e informe as mesmas portas ao PDV.`,
    );
  });

  it('names the Windows command to find the program on Windows', async () => {
    const taken = await tcpService();
    const result = await checkPosPorts({ ports: [taken], settingsPath: SETTINGS, timeoutMs: 300, platform: 'win32' });
    expect(result.status).toBe('fail');
    expect(result.fix).toContain(`netstat -ano | findstr :${taken}`);
  });

  it('checks the default ports when the settings name none', async () => {
    const result = await checkPosPorts({ settingsPath: SETTINGS, timeoutMs: 1000 });
    expect(result.details).toMatchObject({
      source: 'default',
      ports: [{ port: 17301 }, { port: 17302 }, { port: 17303 }],
    });
  });
});
