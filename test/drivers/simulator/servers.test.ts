import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gixCommand } from '../../../drivers/abecs/commands/gix.js';
import { opnCommand } from '../../../drivers/abecs/commands/opn.js';
import { decodeResponsePacket, encodeCommandPacket } from '../../../drivers/abecs/envelope.js';
import { HostLink } from '../../../drivers/abecs/link.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  startPtySimulator,
  startTcpSimulator,
  SocketTransport,
} from '../../../drivers/simulator/index.js';
import type { ByteTransport } from '../../../drivers/transports/transport.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** OPN then GIX (serial number and spec version) through a real host link. */
async function roundTrip(transport: ByteTransport): Promise<{ serial: string | undefined; spec: string | undefined }> {
  const host = new HostLink(transport);
  cleanups.push(() => host.dispose());
  const opn = decodeResponsePacket(await host.exchange(encodeCommandPacket(opnCommand.encodeRequest({}))));
  expect(opn).toMatchObject({ id: 'OPN', status: 0 });
  const gix = decodeResponsePacket(await host.exchange(encodeCommandPacket(gixCommand.encodeRequest({}))));
  const info = gixCommand.decodeResponse(gix);
  return { serial: info.serialNumber, spec: info.specVersion };
}

function socketTransport(port: number): Promise<{ socket: Socket; transport: SocketTransport }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () =>
      resolve({ socket, transport: new SocketTransport(socket) }),
    );
    socket.once('error', reject);
  });
}

describe('simulator servers', () => {
  it('serves the simulator over an in-memory link', async () => {
    const sim = new PinpadSimulator({ serialNumber: 'MEM0001' });
    const server = await startMemorySimulator(sim);
    cleanups.push(() => server.close());
    await server.link.host.open();
    expect(await roundTrip(server.link.host)).toEqual({ serial: 'MEM0001', spec: '2.20' });
  });

  it('serves the simulator on a pseudo terminal made by socat', async () => {
    const sim = new PinpadSimulator({ serialNumber: 'PTY0001' });
    const pty = await startPtySimulator(sim);
    cleanups.push(() => pty.close());
    expect(pty.path).toMatch(/^\/dev\/pts\//);
    const transport = new SerialTransport(pty.path);
    await transport.open();
    cleanups.push(() => transport.close());
    expect(await roundTrip(transport)).toEqual({ serial: 'PTY0001', spec: '2.20' });
  });

  it('says clearly when socat is missing', async () => {
    const sim = new PinpadSimulator();
    await expect(startPtySimulator(sim, { socatPath: '/nonexistent/socat' })).rejects.toMatchObject({
      code: 'SOCAT_NOT_FOUND',
    });
  });

  it('serves one TCP client on 127.0.0.1 and closes a second connection', async () => {
    const sim = new PinpadSimulator({ serialNumber: 'TCP0001' });
    const server = await startTcpSimulator(sim, { host: '127.0.0.1', port: 0 });
    cleanups.push(() => server.close());
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);

    const first = await socketTransport(server.port);
    cleanups.push(() => first.transport.close());
    expect(await roundTrip(first.transport)).toEqual({ serial: 'TCP0001', spec: '2.20' });

    const second = await socketTransport(server.port);
    await new Promise<void>((resolve) => second.socket.once('close', () => resolve()));
    expect(second.socket.destroyed).toBe(true);

    // The first client is still served.
    expect(await roundTrip(first.transport)).toEqual({ serial: 'TCP0001', spec: '2.20' });
  });
});
