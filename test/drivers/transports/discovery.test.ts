import { describe, expect, it, vi } from 'vitest';
import {
  HotplugWatcher,
  configuredTcpPinpads,
  describeSerialPort,
  listSerialPinpads,
  type PortInfo,
  type SerialPinpadInfo,
} from '../../../drivers/transports/discovery.js';
import { lookupUsbId, makerFromText, PINPAD_USB_IDS } from '../../../drivers/transports/usb-ids.js';
import { thrown } from '../../helpers/thrown.js';


const GERTEC: PortInfo = { path: '/dev/ttyACM0', vendorId: '1753', productId: 'c902', manufacturer: 'GERTEC', serialNumber: 'A1' };
const INGENICO: PortInfo = { path: '/dev/ttyACM1', vendorId: '0B00', productId: '0060', manufacturer: undefined };
const FTDI: PortInfo = { path: '/dev/ttyUSB0', vendorId: '0403', productId: '6001', manufacturer: 'FTDI' };
const BUILTIN: PortInfo = { path: '/dev/ttyS0' };

describe('USB id table', () => {
  it('holds lower-case 4-digit hex ids and a maker for every entry', () => {
    for (const entry of PINPAD_USB_IDS) {
      expect(entry.vendorId).toMatch(/^[0-9a-f]{4}$/);
      if (entry.productId !== undefined) expect(entry.productId).toMatch(/^[0-9a-f]{4}$/);
      expect(entry.maker.length).toBeGreaterThan(0);
    }
  });

  it('prefers the product entry, falls back to the vendor entry, ignores case and 0x', () => {
    expect(lookupUsbId('1753', 'C902')).toMatchObject({ maker: 'Gertec', model: 'PPC930' });
    expect(lookupUsbId('0x1753', '9999')).toMatchObject({ maker: 'Gertec' });
    expect(lookupUsbId('0x1753', '9999')?.model).toBeUndefined();
    expect(lookupUsbId('0403', '6001')).toBeUndefined();
    expect(lookupUsbId(undefined, undefined)).toBeUndefined();
    // A generic vendor id only matches its listed product.
    expect(lookupUsbId('1234', '0101')).toMatchObject({ maker: 'PAX' });
    expect(lookupUsbId('1234', '5678')).toBeUndefined();
  });

  it('recognises makers in manufacturer strings', () => {
    expect(makerFromText('Ingenico Group')).toBe('Ingenico');
    expect(makerFromText('VeriFone Inc')).toBe('Verifone');
    expect(makerFromText('PAX Technology')).toBe('PAX');
    expect(makerFromText('Paxton')).toBeUndefined();
    expect(makerFromText('FTDI')).toBeUndefined();
  });
});

describe('listSerialPinpads', () => {
  it('describes each port, guessing the maker from USB ids or the manufacturer string', async () => {
    const list = vi.fn(() => Promise.resolve([BUILTIN, FTDI, GERTEC, INGENICO, { path: 'COM7', manufacturer: 'Verifone' }]));
    const found = await listSerialPinpads({ list });
    expect(list).toHaveBeenCalledOnce();
    expect(found.map((p) => [p.address, p.maker, p.likelyPinpad])).toEqual([
      ['/dev/ttyACM0', 'Gertec', true],
      ['/dev/ttyACM1', 'Ingenico', true],
      ['COM7', 'Verifone', true],
      ['/dev/ttyS0', undefined, false],
      ['/dev/ttyUSB0', undefined, false],
    ]);
    expect(found[0]).toEqual({
      address: '/dev/ttyACM0',
      transport: 'serial',
      vendorId: '1753',
      productId: 'c902',
      manufacturer: 'GERTEC',
      serialNumber: 'A1',
      maker: 'Gertec',
      model: 'PPC930',
      likelyPinpad: true,
    });
    expect(found[1]).toMatchObject({ vendorId: '0b00', model: 'iPP3xx/iPP4xx' });
  });

  it('passes list failures through', async () => {
    await expect(listSerialPinpads({ list: () => Promise.reject(new Error('udev gone')) })).rejects.toThrow('udev gone');
  });
});

describe('configuredTcpPinpads', () => {
  it('turns host:port entries into tcp:// addresses', () => {
    expect(
      configuredTcpPinpads(['10.0.0.5:4000', 'tcp://pinpad.local:4001', '[fe80::1]:4002', { host: '::1', port: 4003, name: 'Caixa 2' }]),
    ).toEqual([
      { address: 'tcp://10.0.0.5:4000', transport: 'tcp', host: '10.0.0.5', port: 4000, name: undefined },
      { address: 'tcp://pinpad.local:4001', transport: 'tcp', host: 'pinpad.local', port: 4001, name: undefined },
      { address: 'tcp://[fe80::1]:4002', transport: 'tcp', host: 'fe80::1', port: 4002, name: undefined },
      { address: 'tcp://[::1]:4003', transport: 'tcp', host: '::1', port: 4003, name: 'Caixa 2' },
    ]);
  });

  it('rejects entries without a valid port', () => {
    expect(thrown(() => configuredTcpPinpads(['10.0.0.5']))).toMatchObject({ code: 'INVALID_PORT' });
    expect(thrown(() => configuredTcpPinpads([{ host: '10.0.0.5', port: 70000 }]))).toMatchObject({ code: 'INVALID_PORT' });
  });
});

describe('HotplugWatcher', () => {
  /** A list function whose answer the test changes, counting calls. */
  function fakeList(initial: PortInfo[]): { list: () => Promise<PortInfo[]>; set(ports: PortInfo[]): void; calls(): number } {
    let ports = initial;
    let calls = 0;
    return {
      list: () => {
        calls++;
        return Promise.resolve([...ports]);
      },
      set: (next) => (ports = next),
      calls: () => calls,
    };
  }

  function collect(watcher: HotplugWatcher): { attached: SerialPinpadInfo[]; detached: SerialPinpadInfo[] } {
    const events = { attached: [] as SerialPinpadInfo[], detached: [] as SerialPinpadInfo[] };
    watcher.on('attached', (p) => events.attached.push(p));
    watcher.on('detached', (p) => events.detached.push(p));
    return events;
  }

  it('defaults to a 750 ms poll so a plug or unplug shows within 2 s', () => {
    expect(new HotplugWatcher({ list: () => Promise.resolve([]) }).intervalMs).toBe(750);
  });

  it('takes the ports present at start as the baseline, then reports attach and detach', async () => {
    const ports = fakeList([BUILTIN]);
    const watcher = new HotplugWatcher({ list: ports.list, intervalMs: 5 });
    const events = collect(watcher);
    await watcher.start();
    expect(watcher.ports.map((p) => p.address)).toEqual(['/dev/ttyS0']);
    expect(events.attached).toEqual([]);

    ports.set([BUILTIN, GERTEC]);
    await vi.waitFor(() => expect(events.attached.map((p) => p.address)).toEqual(['/dev/ttyACM0']));
    expect(events.attached[0]).toMatchObject({ maker: 'Gertec', likelyPinpad: true });

    ports.set([BUILTIN]);
    await vi.waitFor(() => expect(events.detached.map((p) => p.address)).toEqual(['/dev/ttyACM0']));
    expect(events.attached).toHaveLength(1);
    watcher.stop();
  });

  it('reports the initial ports when emitInitial is set', async () => {
    const watcher = new HotplugWatcher({ list: fakeList([GERTEC]).list, intervalMs: 1000, emitInitial: true });
    const events = collect(watcher);
    await watcher.start();
    expect(events.attached.map((p) => p.address)).toEqual(['/dev/ttyACM0']);
    watcher.stop();
  });

  it('notices a different device replugged on the same path', async () => {
    const ports = fakeList([GERTEC]);
    const watcher = new HotplugWatcher({ list: ports.list, intervalMs: 5 });
    const events = collect(watcher);
    await watcher.start();
    ports.set([{ ...GERTEC, serialNumber: 'B2' }]);
    await vi.waitFor(() => expect(events.attached).toHaveLength(1));
    expect(events.detached.map((p) => p.serialNumber)).toEqual(['A1']);
    expect(events.attached.map((p) => p.serialNumber)).toEqual(['B2']);
    watcher.stop();
  });

  it('never runs two polls at once, even when listing is slower than the interval', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let calls = 0;
    const list = async (): Promise<PortInfo[]> => {
      calls++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return [];
    };
    const watcher = new HotplugWatcher({ list, intervalMs: 1 });
    await watcher.start();
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(4));
    watcher.stop();
    expect(maxInFlight).toBe(1);
  });

  it('emits error when listing fails and keeps polling', async () => {
    let calls = 0;
    const list = (): Promise<PortInfo[]> => {
      calls++;
      if (calls === 2) return Promise.reject(new Error('list failed'));
      return Promise.resolve(calls >= 3 ? [GERTEC] : []);
    };
    const watcher = new HotplugWatcher({ list, intervalMs: 5 });
    const errors: Error[] = [];
    watcher.on('error', (e) => errors.push(e));
    const events = collect(watcher);
    await watcher.start();
    await vi.waitFor(() => expect(events.attached).toHaveLength(1));
    expect(errors.map((e) => e.message)).toEqual(['list failed']);
    watcher.stop();
  });

  it('does not throw on list errors when nobody listens for error', async () => {
    const watcher = new HotplugWatcher({ list: () => Promise.reject(new Error('nope')), intervalMs: 5 });
    await expect(watcher.start()).resolves.toBeUndefined();
    watcher.stop();
  });

  it('stops polling and reporting after stop()', async () => {
    const ports = fakeList([]);
    const watcher = new HotplugWatcher({ list: ports.list, intervalMs: 5 });
    const events = collect(watcher);
    await watcher.start();
    watcher.stop();
    expect(watcher.isRunning).toBe(false);
    const callsAtStop = ports.calls();
    ports.set([GERTEC]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ports.calls()).toBe(callsAtStop);
    expect(events.attached).toEqual([]);
  });

  it('describes ports the same way as listSerialPinpads', () => {
    expect(describeSerialPort(FTDI)).toMatchObject({ address: '/dev/ttyUSB0', likelyPinpad: false, maker: undefined });
  });
});
