/**
 * The sources of device events the hot-plug watcher lists the ports on: the device directory
 * (a real temp folder standing for /dev), USB hot-plug (an emitter shaped like the `usb`
 * package's `usb` object), and the first of several that starts.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  firstWorking,
  platformDeviceEvents,
  SERIAL_DEVICE_NAME,
  usbDeviceEvents,
  watchDeviceDirectory,
  type DeviceEvents,
  type UsbHotplug,
} from '../../../drivers/transports/device-events.js';

/** node-usb's `usb` object as far as the watcher uses it: attach/detach, and unref. */
class FakeUsb extends EventEmitter implements UsbHotplug {
  unrefs = 0;
  unrefHotplugEvents(): void {
    this.unrefs++;
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('serial device names', () => {
  it('are the ones serialport lists on Linux: USB CDC-ACM and USB-serial, UARTs and Bluetooth SPP, not consoles or disks', () => {
    for (const name of ['ttyACM0', 'ttyUSB1', 'ttyS0', 'ttyAMA0', 'ttyWCH0', 'ttyXRUSB0', 'rfcomm0'])
      expect(name).toMatch(SERIAL_DEVICE_NAME);
    for (const name of ['tty', 'tty1', 'sda1', 'null', 'pts', 'ttyprintk'])
      expect(name).not.toMatch(SERIAL_DEVICE_NAME);
  });
});

describe('the device directory', () => {
  it('says "changed" when a serial device node is created or removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-dev-'));
    dirs.push(dir);
    const source = watchDeviceDirectory({ dir });
    let changes = 0;
    await source.start(
      () => changes++,
      () => undefined,
    );
    try {
      writeFileSync(join(dir, 'rfcomm0'), '');
      await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 5_000 });
    } finally {
      source.stop();
    }
  });

  it('cannot start on a directory that is not there', async () => {
    const source = watchDeviceDirectory({ dir: join(tmpdir(), 'pinbridge-no-such-dev') });
    await expect(
      source.start(
        () => undefined,
        () => undefined,
      ),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('USB hot-plug', () => {
  it('says "changed" on attach and detach, unrefs its events, and takes its listeners away on stop', async () => {
    const usb = new FakeUsb();
    const source = usbDeviceEvents({ load: () => Promise.resolve(usb) });
    expect(source.kind).toBe('usb');
    let changes = 0;
    await source.start(
      () => changes++,
      () => undefined,
    );
    usb.emit('attach', { deviceDescriptor: { idVendor: 0x1753 } });
    usb.emit('detach', { deviceDescriptor: { idVendor: 0x1753 } });
    expect(changes).toBe(2);
    expect(usb.unrefs).toBe(1);
    source.stop();
    expect(usb.listenerCount('attach') + usb.listenerCount('detach')).toBe(0);
    usb.emit('attach', {});
    expect(changes).toBe(2);
  });

  it('cannot start when the usb package does not load', async () => {
    const source = usbDeviceEvents({ load: () => Promise.reject(new Error('No native build was found')) });
    await expect(
      source.start(
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow('No native build was found');
  });
});

describe('the first source that works', () => {
  it('falls through to the next source, says which one runs, and stops that one', async () => {
    const usb = new FakeUsb();
    const source = firstWorking([
      watchDeviceDirectory({ dir: join(tmpdir(), 'pinbridge-no-such-dev') }),
      usbDeviceEvents({ load: () => Promise.resolve(usb) }),
    ]);
    expect(source.kind).toBe('dev');
    await source.start(
      () => undefined,
      () => undefined,
    );
    expect(source.kind).toBe('usb');
    expect(usb.listenerCount('attach')).toBe(1);
    source.stop();
    expect(usb.listenerCount('attach')).toBe(0);
  });

  it('fails with the last reason when none starts', async () => {
    const broken = (message: string): DeviceEvents => ({
      kind: 'usb',
      start: () => Promise.reject(new Error(message)),
      stop: () => undefined,
    });
    await expect(
      firstWorking([broken('first'), broken('second')]).start(
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow('second');
  });

  it('is /dev (then USB) on Linux and USB hot-plug elsewhere', () => {
    expect(platformDeviceEvents('linux').kind).toBe('dev');
    expect(platformDeviceEvents('win32').kind).toBe('usb');
    expect(platformDeviceEvents('darwin').kind).toBe('usb');
  });
});
