import { describe, expect, it } from 'vitest';
import { createMemoryLink } from '../../../drivers/transports/memory.js';
import { LinePacer } from '../../../drivers/transports/pacer.js';
import { TransportError } from '../../../drivers/transports/transport.js';

const received = (t: { on(e: 'data', l: (c: Buffer) => void): unknown }): Buffer[] => {
  const chunks: Buffer[] = [];
  t.on('data', (c) => chunks.push(c));
  return chunks;
};

describe('in-memory link', () => {
  it('carries bytes both ways once both ends are open', async () => {
    const link = createMemoryLink();
    await link.host.open();
    await link.device.open();
    const atDevice = received(link.device);
    const atHost = received(link.host);
    await link.host.write(Buffer.from([1, 2, 3]));
    await link.device.write(Buffer.from([4]));
    await new Promise((r) => setImmediate(r));
    expect(Buffer.concat(atDevice)).toEqual(Buffer.from([1, 2, 3]));
    expect(Buffer.concat(atHost)).toEqual(Buffer.from([4]));
  });

  it('refuses writes when not open', async () => {
    const link = createMemoryLink();
    await expect(link.host.write(Buffer.from([1]))).rejects.toBeInstanceOf(TransportError);
  });

  it('drops both ends on unplug, reporting an unexpected close, and can be replugged', async () => {
    const link = createMemoryLink();
    await link.host.open();
    await link.device.open();
    const closes: boolean[] = [];
    link.host.on('close', (info) => closes.push(info.expected));
    link.unplug();
    expect(closes).toEqual([false]);
    expect(link.host.isOpen).toBe(false);
    await expect(link.host.open()).rejects.toMatchObject({ code: 'DISCONNECTED' });
    link.replug();
    await link.host.open();
    expect(link.host.isOpen).toBe(true);
  });

  it('paces bytes like a serial line when a baud rate is set', async () => {
    const link = createMemoryLink({ baud: 96_000 }); // 9 600 bytes/s: 480 bytes take 50 ms on the wire
    await link.host.open();
    await link.device.open();
    const atDevice = received(link.device);
    const started = performance.now();
    await link.host.write(Buffer.alloc(480, 0x41));
    // A lower bound only: the line cannot be faster than its baud rate.
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(Buffer.concat(atDevice).length).toBe(480);
    expect(atDevice.length).toBeGreaterThan(1);
  });
});

describe('LinePacer', () => {
  it('computes the wire time of 8N1 bytes', () => {
    expect(new LinePacer(19_200).wireTimeMs(1920)).toBeCloseTo(1000);
  });

  it('refuses a non-positive baud rate', () => {
    expect(() => new LinePacer(0)).toThrow(RangeError);
  });
});
