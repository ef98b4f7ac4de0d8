/**
 * What every byte transport promises the ABECS link layer above it (drivers/transports/transport.ts),
 * checked on each of them against a far end of its own kind: a serial port over a real socat
 * pseudo-terminal pair, TCP over loopback, BLE through noble's binding interface, and the
 * in-memory link the simulator uses. Closed until opened; bytes both ways in order; one `close`
 * event, expected or not; a write after the link is gone rejects with NOT_OPEN; and a write in
 * flight when the link closes settles — it never leaves the link layer waiting.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPtyPair } from '../../../drivers/simulator/socat.js';
import { BleTransport } from '../../../drivers/transports/ble.js';
import { createMemoryLink } from '../../../drivers/transports/memory.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import { TcpTransport } from '../../../drivers/transports/tcp.js';
import type { ByteTransport, TransportCloseInfo } from '../../../drivers/transports/transport.js';
import { PINPAD, setup as nobleDouble } from '../../helpers/noble-double.js';

/** A transport and the far end it talks to. */
interface Rig {
  readonly transport: ByteTransport;
  /** The far end sends these bytes to the transport. */
  readonly send: (bytes: Buffer) => Promise<void>;
  /** What the far end has received so far. */
  readonly received: () => Buffer;
  /** The far end goes away: the cable pulled, the peer gone, the link lost. */
  readonly hangUp: () => Promise<void>;
  readonly dispose: () => Promise<void>;
}

const RIGS: Record<string, () => Promise<Rig>> = {
  async serial() {
    const pty = await createPtyPair();
    const far = new SerialTransport(pty.a);
    await far.open();
    const got: Buffer[] = [];
    far.on('data', (chunk) => got.push(chunk));
    const transport = new SerialTransport(pty.b);
    return {
      transport,
      send: (bytes) => far.write(bytes),
      received: () => Buffer.concat(got),
      // socat killed: both pseudo-terminals go, as a USB PINPAD does when its cable is pulled.
      hangUp: () => {
        pty.process.kill('SIGKILL');
        return Promise.resolve();
      },
      dispose: async () => {
        await transport.close();
        await far.close();
        await pty.close();
      },
    };
  },
  async tcp() {
    const server = createServer();
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const transport = new TcpTransport({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      reconnect: false,
    });
    const got: Buffer[] = [];
    let peer: Socket | undefined;
    void accepted.then((socket) => {
      peer = socket;
      socket.on('data', (chunk) => got.push(chunk));
      socket.on('error', () => undefined);
    });
    const far = async (): Promise<Socket> => peer ?? (await accepted);
    return {
      transport,
      send: async (bytes) => void (await far()).write(bytes),
      received: () => Buffer.concat(got),
      hangUp: async () => void (await far()).destroy(),
      dispose: async () => {
        await transport.close();
        peer?.destroy();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  },
  ble() {
    const { bindings, noble } = nobleDouble();
    const transport = new BleTransport({ noble, peripheralId: PINPAD.id, scanTimeoutMs: 2_000 });
    return Promise.resolve({
      transport,
      send: (bytes) => Promise.resolve(bindings.sendNotification(PINPAD.id, bytes)),
      received: () => Buffer.concat(bindings.writes.map((write) => write.data)),
      hangUp: () => Promise.resolve(bindings.dropLink(PINPAD.id)),
      dispose: () => transport.close(),
    });
  },
  async memory() {
    const link = createMemoryLink({ name: 'contract' });
    await link.device.open();
    const got: Buffer[] = [];
    link.device.on('data', (chunk) => got.push(chunk));
    return {
      transport: link.host,
      send: (bytes) => link.device.write(bytes),
      received: () => Buffer.concat(got),
      hangUp: () => Promise.resolve(link.unplug()),
      dispose: async () => {
        await link.host.close();
        await link.device.close();
      },
    };
  },
};

/** The `close` events a transport emits from now on. */
function closes(transport: ByteTransport): TransportCloseInfo[] {
  const seen: TransportCloseInfo[] = [];
  transport.on('close', (info) => seen.push(info));
  return seen;
}

/** Resolves once `check` holds, polling; fails naming `what` after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How a promise ended: resolved, rejected with a code, or still pending after `ms`. */
async function settled(promise: Promise<unknown>, ms: number): Promise<string> {
  return Promise.race([
    promise.then(
      () => 'resolved',
      (error: unknown) => `rejected ${(error as { code?: string }).code ?? String(error)}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);
}

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

describe.each(Object.keys(RIGS))('the %s transport', (kind) => {
  const open = async (): Promise<Rig> => {
    rig = await RIGS[kind]!();
    return rig;
  };

  it('is closed until opened: a write then rejects with NOT_OPEN', async () => {
    const { transport } = await open();
    expect(transport.isOpen).toBe(false);
    await expect(transport.write(Buffer.from([0x06]))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });

  it("opens once ('open' once), and carries bytes both ways, each way in order", async () => {
    const { transport, send, received } = await open();
    let opened = 0;
    transport.on('open', () => opened++);
    const got: Buffer[] = [];
    transport.on('data', (chunk) => got.push(chunk));
    await transport.open();
    expect(transport.isOpen).toBe(true);
    expect(opened).toBe(1);

    await transport.write(Buffer.from('\x16OPN000'));
    await transport.write(Buffer.from('\x17\x12\x34'));
    await until(() => received().length >= 10, 'the far end never got the bytes written');
    expect(received()).toEqual(Buffer.from('\x16OPN000\x17\x12\x34'));

    for (const part of ['\x06', '\x16OPN', '000\x17\xab\xcd']) await send(Buffer.from(part, 'latin1'));
    await until(() => Buffer.concat(got).length >= 11, 'the transport never got the bytes sent');
    expect(Buffer.concat(got)).toEqual(Buffer.from('\x06\x16OPN000\x17\xab\xcd', 'latin1'));
  });

  it('closes once when asked (expected: true); closing again does nothing; a write after rejects with NOT_OPEN', async () => {
    const { transport } = await open();
    await transport.open();
    const seen = closes(transport);
    await transport.close();
    await transport.close();
    await until(() => seen.length > 0, 'no close event');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([expect.objectContaining({ expected: true })]);
    expect(transport.isOpen).toBe(false);
    await expect(transport.write(Buffer.from([0x15]))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });

  it('closes once when the far end goes away (expected: false); a write after rejects with NOT_OPEN', async () => {
    const { transport, hangUp } = await open();
    await transport.open();
    const seen = closes(transport);
    await hangUp();
    await until(() => seen.length > 0, 'no close event after the far end went away');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([expect.objectContaining({ expected: false })]);
    expect(transport.isOpen).toBe(false);
    await expect(transport.write(Buffer.from([0x15]))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });

  it('settles a write in flight when the link is closed under it: resolved, or rejected with NOT_OPEN or DISCONNECTED — never left waiting', async () => {
    const { transport } = await open();
    await transport.open();
    const write = transport.write(Buffer.alloc(64 * 1024, 0x55));
    const closing = transport.close();
    expect(await settled(write, 5_000)).toMatch(/^(resolved|rejected (NOT_OPEN|DISCONNECTED))$/);
    expect(await settled(closing, 5_000)).toBe('resolved');
  });
});
