import { autoDetect, type BindingPortInterface, type OpenOptions } from '@serialport/bindings-cpp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HangupError, hangupAwareBinding } from '../../../drivers/transports/hangup-aware-binding.js';
import { createPtyPair, type PtyPair } from '../../../drivers/simulator/socat.js';
import { MockBinding } from '../../helpers/serial-mock.js';

const LINE: OpenOptions = { path: '', baudRate: 19200 };

describe('hangupAwareBinding over real ptys (socat)', () => {
  let pty: PtyPair;
  const ports: BindingPortInterface[] = [];
  const binding = hangupAwareBinding(autoDetect());

  beforeEach(async () => {
    pty = await createPtyPair();
  });

  afterEach(async () => {
    for (const port of ports.splice(0)) if (port.isOpen) await port.close();
    await pty.close();
  });

  async function open(path: string): Promise<BindingPortInterface> {
    const port = await binding.open({ ...LINE, path });
    ports.push(port);
    return port;
  }

  it('waits for bytes that have not arrived yet and reads them', async () => {
    const host = await open(pty.a);
    const device = await open(pty.b);
    const buffer = Buffer.alloc(16);
    const reading = host.read(buffer, 0, buffer.length);
    await device.write(Buffer.from([0x16, 0x06]));
    const { bytesRead } = await reading;
    expect(buffer.subarray(0, bytesRead)).toEqual(Buffer.from([0x16, 0x06]).subarray(0, bytesRead));
    expect(bytesRead).toBeGreaterThan(0);
  });

  it('rejects a waiting read with a disconnect when the other end hangs up (the cable pulled)', async () => {
    const host = await open(pty.a);
    const reading = host.read(Buffer.alloc(16), 0, 16);
    pty.process.kill('SIGKILL');
    const error = await reading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HangupError);
    expect(error).toMatchObject({ disconnect: true, canceled: false });
  });

  it('rejects every later read as well, instead of reading 0 bytes for ever', async () => {
    const host = await open(pty.a);
    pty.process.kill('SIGKILL');
    await pty.close();
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(host.read(Buffer.alloc(8), 0, 8)).rejects.toBeInstanceOf(HangupError);
    }
  });

  it('cancels a read on a closed port, as serialport expects', async () => {
    const host = await open(pty.a);
    await host.close();
    await expect(host.read(Buffer.alloc(8), 0, 8)).rejects.toMatchObject({ canceled: true });
  });

  it('passes the rest through: the line settings the OS reports and the port list', async () => {
    const host = await open(pty.a);
    expect(host.openOptions).toMatchObject({ path: pty.a, baudRate: 19200 });
    expect(await host.getBaudRate()).toEqual({ baudRate: 19200 });
    expect(Array.isArray(await binding.list())).toBe(true);
  });
});

describe('hangupAwareBinding on a port without a file descriptor (as on Windows)', () => {
  afterEach(() => MockBinding.reset());

  it("keeps the wrapped binding's own read and write", async () => {
    MockBinding.createPort('/dev/ROBOT', { echo: true, record: true });
    const binding = hangupAwareBinding(MockBinding);
    const port = await binding.open({ ...LINE, path: '/dev/ROBOT' });
    await port.write(Buffer.from('ping'));
    const buffer = Buffer.alloc(4);
    const { bytesRead } = await port.read(buffer, 0, 4);
    expect(buffer.subarray(0, bytesRead).toString()).toBe('ping'.slice(0, bytesRead));
    await port.close();
    expect(port.isOpen).toBe(false);
  });
});
