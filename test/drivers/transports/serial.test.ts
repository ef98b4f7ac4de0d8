import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SerialPortStream } from '@serialport/stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ABECS_SERIAL_SETTINGS,
  SerialTransport,
  mapSerialOpenError,
  type SerialPortOpenOptions,
} from '../../../drivers/transports/serial.js';
import type { TransportCloseInfo } from '../../../drivers/transports/transport.js';
import { createPtyPair, type PtyPair } from '../../../drivers/simulator/socat.js';
import { MockBinding } from '../../helpers/serial-mock.js';

const run = promisify(execFile);

/** Collects `data` events until `length` bytes arrived. */
function receive(transport: SerialTransport, length: number, timeoutMs = 10_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const timer = setTimeout(() => {
      transport.off('data', onData);
      reject(new Error(`received only ${total} of ${length} bytes`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= length) {
        clearTimeout(timer);
        transport.off('data', onData);
        resolve(Buffer.concat(chunks));
      }
    };
    transport.on('data', onData);
  });
}

function nextClose(transport: SerialTransport): Promise<TransportCloseInfo> {
  return new Promise((resolve) => transport.once('close', resolve));
}

describe('SerialTransport over real ptys (socat)', () => {
  let pty: PtyPair;
  const opened: SerialTransport[] = [];

  beforeEach(async () => {
    pty = await createPtyPair();
  });

  afterEach(async () => {
    for (const t of opened.splice(0)) await t.close();
    await pty.close();
  });

  async function openEnd(path: string): Promise<SerialTransport> {
    const t = new SerialTransport(path);
    opened.push(t);
    await t.open();
    return t;
  }

  it('moves bytes both ways, including all 256 byte values', async () => {
    const host = await openEnd(pty.a);
    const device = await openEnd(pty.b);
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

    const atDevice = receive(device, 256);
    await host.write(everyByte);
    expect(await atDevice).toEqual(everyByte);

    const reply = Buffer.from([0x16, 0x13, 0x17, 0x00, 0xff, 0x06]);
    const atHost = receive(host, reply.length);
    await device.write(reply);
    expect(await atHost).toEqual(reply);
  });

  it('opens at 19200 8N1 without flow control by default, as the OS reports', async () => {
    const host = await openEnd(pty.a);
    expect(host.settings).toEqual(ABECS_SERIAL_SETTINGS);
    expect(host.settings).toMatchObject({ baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1, rtscts: false });
    const { stdout } = await run('stty', ['-F', pty.a, '-a']);
    expect(stdout).toMatch(/speed 19200 baud/);
    expect(stdout).toMatch(/(^|\s)cs8(\s|$)/);
    expect(stdout).toMatch(/-parenb/);
    expect(stdout).toMatch(/-cstopb/);
    expect(stdout).toMatch(/-crtscts/);
  });

  it('applies non-default line settings when asked', async () => {
    // Linux ptys force CS8 and clear PARENB, so speed, stop bits and the parity sense are checked.
    const t = new SerialTransport(pty.a, { baudRate: 115200, parity: 'odd', stopBits: 2 });
    opened.push(t);
    await t.open();
    const { stdout } = await run('stty', ['-F', pty.a, '-a']);
    expect(stdout).toMatch(/speed 115200 baud/);
    expect(stdout).toMatch(/(^|\s)parodd(\s|$)/);
    expect(stdout).toMatch(/(^|\s)cstopb(\s|$)/);
  });

  it('emits open, and close with expected: true on close(); close() is idempotent', async () => {
    const t = new SerialTransport(pty.a);
    let opens = 0;
    t.on('open', () => opens++);
    await t.open();
    expect(opens).toBe(1);
    expect(t.isOpen).toBe(true);
    const closed = nextClose(t);
    await t.close();
    expect(await closed).toEqual({ expected: true });
    expect(t.isOpen).toBe(false);
    await t.close();
    await expect(t.write(Buffer.from([1]))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });

  it('reports an unplug (socat killed) as close with expected: false', async () => {
    const host = await openEnd(pty.a);
    const closed = nextClose(host);
    pty.process.kill('SIGKILL');
    const info = await closed;
    expect(info.expected).toBe(false);
    expect(info.error).toMatchObject({ code: 'DISCONNECTED' });
    expect(info.error?.message).toContain(pty.a);
    expect(host.isOpen).toBe(false);
  });

  it('refuses a second open while open', async () => {
    const host = await openEnd(pty.a);
    await expect(host.open()).rejects.toMatchObject({ code: 'ALREADY_OPEN' });
  });
});

describe('SerialTransport open errors', () => {
  it('maps a missing device to PORT_NOT_FOUND with a sentence naming the port', async () => {
    const t = new SerialTransport('/dev/pinbridge-no-such-port');
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PORT_NOT_FOUND' });
    expect((error as Error).message).toContain('/dev/pinbridge-no-such-port');
    expect(t.isOpen).toBe(false);
  });

  it('classifies OS errors by errno or message', () => {
    const cases: [Error, string][] = [
      [Object.assign(new Error('Permission denied, cannot open /dev/ttyS9'), { code: 'EACCES' }), 'PERMISSION_DENIED'],
      [new Error('Error Resource temporarily unavailable Cannot lock port'), 'PORT_BUSY'],
      [Object.assign(new Error('busy'), { code: 'EBUSY' }), 'PORT_BUSY'],
      [new Error('Error: No such file or directory, cannot open /dev/ttyACM7'), 'PORT_NOT_FOUND'],
      [new Error('Input/output error'), 'IO_ERROR'],
    ];
    for (const [error, code] of cases) {
      const mapped = mapSerialOpenError('/dev/ttyX', error);
      expect(mapped.code).toBe(code);
      expect(mapped.message).toContain('/dev/ttyX');
      expect(mapped.cause).toBe(error);
    }
  });
});

/** A port stream over serialport's mock binding (the ports MockBinding.createPort made). */
type MockPort = SerialPortStream<typeof MockBinding>;
const mockPort = (options: SerialPortOpenOptions): MockPort =>
  new SerialPortStream({ binding: MockBinding, ...options });

describe('SerialTransport with an injected port (serialport mock binding)', () => {
  beforeEach(() => {
    MockBinding.reset();
    MockBinding.createPort('/dev/mock0', { echo: false, record: true });
  });

  function mockTransport(extra: { baudRate?: number } = {}): {
    t: SerialTransport;
    seen: SerialPortOpenOptions[];
    ports: MockPort[];
  } {
    const seen: SerialPortOpenOptions[] = [];
    const ports: MockPort[] = [];
    const t = new SerialTransport('/dev/mock0', {
      ...extra,
      portFactory: (options) => {
        seen.push(options);
        const port = mockPort(options);
        ports.push(port);
        return port;
      },
    });
    return { t, seen, ports };
  }

  it('passes the line settings to the port and never lets it auto-open', async () => {
    const { t, seen } = mockTransport({ baudRate: 9600 });
    await t.open();
    expect(seen).toEqual([
      { path: '/dev/mock0', autoOpen: false, baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1, rtscts: false },
    ]);
    await t.close();
  });

  it('resolves write() once the bytes reached the port', async () => {
    const { t, ports } = mockTransport();
    await t.open();
    await t.write(Buffer.from('OPN000'));
    const recording = ports[0]?.port?.recording;
    expect(recording?.toString()).toBe('OPN000');
    await t.close();
  });

  it('emits data the device sends', async () => {
    const { t, ports } = mockTransport();
    await t.open();
    const got = receive(t, 3);
    ports[0]?.port?.emitData(Buffer.from([0x06, 0x15, 0x18]));
    expect(await got).toEqual(Buffer.from([0x06, 0x15, 0x18]));
    await t.close();
  });

  it('maps the mock binding error for an unknown path to PORT_NOT_FOUND', async () => {
    const t = new SerialTransport('/dev/mock-missing', { portFactory: mockPort });
    await expect(t.open()).rejects.toMatchObject({ code: 'PORT_NOT_FOUND' });
  });
});
