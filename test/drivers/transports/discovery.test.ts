/**
 * Discovery: serial ports described as PINPAD candidates, configured network PINPADs, and the
 * hot-plug watcher. The watcher lists the ports at start, when the device events say something
 * changed, and when asked — never on a timer unless polling was asked for or the events are not
 * available (issue 19: polling every 750 ms spawned udevadm 75 times a minute at idle). Its device
 * directory is a real temp folder standing for /dev, with files and a socat pty link coming and
 * going in it; time is faked where the point is what does not happen in an hour.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPtyPair, type PtyPair } from '../../../drivers/simulator/socat.js';
import {
  SERIAL_DEVICE_NAME,
  watchDeviceDirectory,
  type DeviceEvents,
} from '../../../drivers/transports/device-events.js';
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

const GERTEC: PortInfo = {
  path: '/dev/ttyACM0',
  vendorId: '1753',
  productId: 'c902',
  manufacturer: 'GERTEC',
  serialNumber: 'A1',
};
const INGENICO: PortInfo = { path: '/dev/ttyACM1', vendorId: '0B00', productId: '0060', manufacturer: undefined };
const FTDI: PortInfo = { path: '/dev/ttyUSB0', vendorId: '0403', productId: '6001', manufacturer: 'FTDI' };
const BUILTIN: PortInfo = { path: '/dev/ttyS0' };

/** A list function whose answer the test changes, counting calls. */
function fakeList(initial: PortInfo[]): {
  list: () => Promise<PortInfo[]>;
  set(ports: PortInfo[]): void;
  calls(): number;
} {
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
    const list = vi.fn(() =>
      Promise.resolve([BUILTIN, FTDI, GERTEC, INGENICO, { path: 'COM7', manufacturer: 'Verifone' }]),
    );
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
    await expect(listSerialPinpads({ list: () => Promise.reject(new Error('udev gone')) })).rejects.toThrow(
      'udev gone',
    );
  });
});

describe('configuredTcpPinpads', () => {
  it('turns host:port entries into tcp:// addresses', () => {
    expect(
      configuredTcpPinpads([
        '10.0.0.5:4000',
        'tcp://pinpad.local:4001',
        '[fe80::1]:4002',
        { host: '::1', port: 4003, name: 'Caixa 2' },
      ]),
    ).toEqual([
      { address: 'tcp://10.0.0.5:4000', transport: 'tcp', host: '10.0.0.5', port: 4000, name: undefined },
      { address: 'tcp://pinpad.local:4001', transport: 'tcp', host: 'pinpad.local', port: 4001, name: undefined },
      { address: 'tcp://[fe80::1]:4002', transport: 'tcp', host: 'fe80::1', port: 4002, name: undefined },
      { address: 'tcp://[::1]:4003', transport: 'tcp', host: '::1', port: 4003, name: 'Caixa 2' },
    ]);
  });

  it('rejects entries without a valid port', () => {
    expect(thrown(() => configuredTcpPinpads(['10.0.0.5']))).toMatchObject({ code: 'INVALID_PORT' });
    expect(thrown(() => configuredTcpPinpads([{ host: '10.0.0.5', port: 70000 }]))).toMatchObject({
      code: 'INVALID_PORT',
    });
  });
});

describe('HotplugWatcher polling (intervalMs: the behaviour before issue 19, and the fallback)', () => {
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

/** A device event source the test fires by hand. */
function manualEvents(): DeviceEvents & { fire(): void; fail(error: Error): void; started: number; stopped: number } {
  let changed: (() => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  const source = {
    kind: 'dev' as const,
    started: 0,
    stopped: 0,
    start(onChanged: () => void, onFailed: (error: Error) => void): Promise<void> {
      source.started++;
      changed = onChanged;
      failed = onFailed;
      return Promise.resolve();
    },
    stop(): void {
      source.stopped++;
      changed = undefined;
    },
    fire: () => changed?.(),
    fail: (error: Error) => failed?.(error),
  };
  return source;
}

/** The serial ports of a folder standing for /dev, as serialport's list would give them. */
function listDirectory(dir: string): { list: () => Promise<PortInfo[]>; calls(): number } {
  let calls = 0;
  return {
    list: () => {
      calls++;
      return Promise.resolve(
        readdirSync(dir)
          .filter((name) => SERIAL_DEVICE_NAME.test(name))
          .sort()
          .map((name) => ({ path: join(dir, name) })),
      );
    },
    calls: () => calls,
  };
}

/** Resolves once `name` is created or removed in `dir`, seen by a watch of the test's own. */
function renamed(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const own = watch(dir, (eventType, entry) => {
      if (eventType === 'rename' && entry === name) {
        own.close();
        resolve();
      }
    });
  });
}

describe('HotplugWatcher driven by device events', () => {
  const dirs: string[] = [];
  const watchers: HotplugWatcher[] = [];
  let pty: PtyPair | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    for (const watcher of watchers.splice(0)) watcher.stop();
    await pty?.close();
    pty = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function devDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-dev-'));
    dirs.push(dir);
    return dir;
  }
  function watcherOf(options: ConstructorParameters<typeof HotplugWatcher>[0]): HotplugWatcher {
    const watcher = new HotplugWatcher(options);
    watchers.push(watcher);
    return watcher;
  }

  it('lists the ports once at start and never again in an hour where nothing is plugged or pulled', async () => {
    vi.useFakeTimers();
    const dir = devDir();
    writeFileSync(join(dir, 'ttyS0'), '');
    const ports = listDirectory(dir);
    const watcher = watcherOf({ list: ports.list, events: watchDeviceDirectory({ dir }) });
    await watcher.start();
    expect(watcher.mode).toBe('dev');
    expect(watcher.ports.map((port) => port.address)).toEqual([join(dir, 'ttyS0')]);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(ports.calls()).toBe(1);
    expect(watcher.listingCount).toBe(1);
  });

  it('reports a serial device node appearing and disappearing in the device directory, listing only then', async () => {
    const dir = devDir();
    const ports = listDirectory(dir);
    const watcher = watcherOf({ list: ports.list, events: watchDeviceDirectory({ dir }), settleMs: 10, recheckMs: [] });
    const events = collect(watcher);
    await watcher.start();
    expect(ports.calls()).toBe(1);

    writeFileSync(join(dir, 'ttyACM0'), '');
    await vi.waitFor(() => expect(events.attached.map((port) => port.address)).toEqual([join(dir, 'ttyACM0')]), {
      timeout: 5_000,
    });
    expect(ports.calls()).toBe(2);

    unlinkSync(join(dir, 'ttyACM0'));
    await vi.waitFor(() => expect(events.detached.map((port) => port.address)).toEqual([join(dir, 'ttyACM0')]), {
      timeout: 5_000,
    });
    expect(ports.calls()).toBe(3);
  });

  it('does not list when a port is written to or a device that is no serial port comes and goes', async () => {
    const dir = devDir();
    writeFileSync(join(dir, 'ttyACM0'), '');
    const ports = listDirectory(dir);
    // No settling: a listing the events caused would start on the next timer.
    const watcher = watcherOf({ list: ports.list, events: watchDeviceDirectory({ dir }), settleMs: 0, recheckMs: [] });
    await watcher.start();

    const seen = renamed(dir, 'sda1');
    appendFileSync(join(dir, 'ttyACM0'), 'bytes of a PINPAD exchange');
    writeFileSync(join(dir, 'sda1'), '');
    await seen;
    // Any timer the events had set (0 ms) runs before this one.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ports.calls()).toBe(1);
  });

  it('a pty linked into the device directory by socat is a device plugged in; socat exiting pulls it', async () => {
    const dir = devDir();
    const ports = listDirectory(dir);
    const watcher = watcherOf({ list: ports.list, events: watchDeviceDirectory({ dir }), settleMs: 10, recheckMs: [] });
    const events = collect(watcher);
    await watcher.start();

    pty = await createPtyPair({ linkB: join(dir, 'ttyACM3') });
    await vi.waitFor(() => expect(events.attached.map((port) => port.address)).toEqual([join(dir, 'ttyACM3')]), {
      timeout: 5_000,
    });
    await pty.close();
    await vi.waitFor(() => expect(events.detached.map((port) => port.address)).toEqual([join(dir, 'ttyACM3')]), {
      timeout: 5_000,
    });
  });

  it('lists once per burst of events after it settles, then again after each recheck delay, then stops', async () => {
    vi.useFakeTimers();
    const events = manualEvents();
    const ports = fakeList([BUILTIN]);
    const watcher = watcherOf({ list: ports.list, events, settleMs: 300, recheckMs: [1_000, 5_000] });
    const seen = collect(watcher);
    await watcher.start();
    expect(ports.calls()).toBe(1);

    // The node appears (udev has not described it yet), then udev changes it: one burst.
    events.fire();
    events.fire();
    ports.set([BUILTIN, { path: '/dev/ttyACM0' }]);
    await vi.advanceTimersByTimeAsync(299);
    expect(ports.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ports.calls()).toBe(2);
    expect(seen.attached.map((port) => port.address)).toEqual(['/dev/ttyACM0']);

    // udev's description arrives late: the recheck sees the PINPAD it is.
    ports.set([BUILTIN, GERTEC]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ports.calls()).toBe(3);
    expect(seen.attached.at(-1)).toMatchObject({ address: '/dev/ttyACM0', maker: 'Gertec' });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(ports.calls()).toBe(4);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(ports.calls()).toBe(4);
  });

  it('lists on request (refresh), never two listings at once, one more when asked during one', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let calls = 0;
    let release: (() => void) | undefined;
    const list = async (): Promise<PortInfo[]> => {
      calls++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (calls === 2) await new Promise<void>((resolve) => (release = resolve));
      inFlight--;
      return calls >= 2 ? [GERTEC] : [];
    };
    const watcher = watcherOf({ list, events: manualEvents() });
    const events = collect(watcher);
    await watcher.start();
    const first = watcher.refresh();
    const second = watcher.refresh();
    const third = watcher.refresh();
    await vi.waitFor(() => expect(release).toBeDefined());
    release!();
    await Promise.all([first, second, third]);
    expect(calls).toBe(3);
    expect(maxInFlight).toBe(1);
    expect(events.attached.map((port) => port.address)).toEqual(['/dev/ttyACM0']);
  });

  it('falls back to listing every 30 s, said once, when the device events cannot start', async () => {
    vi.useFakeTimers();
    const ports = fakeList([]);
    const broken: DeviceEvents = {
      kind: 'usb',
      start: () => Promise.reject(new Error('libusb could not be initialised')),
      stop: () => undefined,
    };
    const watcher = watcherOf({ list: ports.list, events: broken });
    const fallbacks: [string, number][] = [];
    watcher.on('fallback', (error, pollMs) => fallbacks.push([error.message, pollMs]));
    await watcher.start();
    expect(watcher.mode).toBe('poll');
    expect(fallbacks).toEqual([['libusb could not be initialised', 30_000]]);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(ports.calls()).toBe(1 + 120);
    expect(fallbacks).toHaveLength(1);
  });

  it('falls back to the slow poll when the device events stop working, and stops everything on stop()', async () => {
    vi.useFakeTimers();
    const events = manualEvents();
    const ports = fakeList([]);
    const watcher = watcherOf({ list: ports.list, events, fallbackPollMs: 10_000 });
    const fallbacks: string[] = [];
    watcher.on('fallback', (error) => fallbacks.push(error.message));
    await watcher.start();
    events.fail(new Error('inotify watch lost'));
    expect(fallbacks).toEqual(['inotify watch lost']);
    expect(events.stopped).toBe(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(ports.calls()).toBe(4);
    watcher.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ports.calls()).toBe(4);
  });

  it('reports a failed listing (only to a listener), tries again at the next device event, and says when one works (listed)', async () => {
    vi.useFakeTimers();
    const events = manualEvents();
    let failing = true;
    let calls = 0;
    const list = (): Promise<PortInfo[]> => {
      calls++;
      return failing ? Promise.reject(new Error('spawn udevadm ENOENT')) : Promise.resolve([GERTEC]);
    };
    const watcher = watcherOf({ list, events, settleMs: 0, recheckMs: [] });
    const errors: string[] = [];
    watcher.on('error', (error) => errors.push(error.message));
    const listed: string[][] = [];
    watcher.on('listed', (ports) => listed.push(ports.map((port) => port.address)));
    const seen = collect(watcher);
    await watcher.start();
    expect(errors).toEqual(['spawn udevadm ENOENT']);
    expect(listed).toEqual([]);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(calls).toBe(1);
    failing = false;
    events.fire();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    // The first listing that works is the baseline, and is said (the agent logs the listing works again).
    expect(watcher.ports.map((port) => port.address)).toEqual(['/dev/ttyACM0']);
    expect(listed).toEqual([['/dev/ttyACM0']]);
    expect(seen.attached).toEqual([]);
  });
});
