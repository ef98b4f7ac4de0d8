/**
 * What tells the hot-plug watcher (discovery.ts) that serial devices may have come or gone, so it
 * lists the ports only then — not on a timer. Listing is not free: on Linux serialport's
 * `SerialPort.list()` spawns `udevadm info -e` each time, which polled every 750 ms cost about
 * 75 processes a minute at an idle checkout (issue 19).
 *
 * - Linux: the device directory (`/dev`) watched with `fs.watch` (inotify). The kernel creates and
 *   removes `/dev/ttyACM0`, `/dev/ttyUSB0`, `/dev/rfcomm0`… as devices come and go, so a created
 *   or removed entry of a serial-port name is the event. Only creations and removals count
 *   ('rename'): writes to a tty ('change') happen during every PINPAD exchange and must not cause
 *   a listing.
 * - Elsewhere (macOS, Windows), where no device directory can be watched (macOS's FSEvents does
 *   not cover devfs; Windows has none): the `usb` package's `attach`/`detach` (libusb hot-plug, or
 *   the OS's device notifications), loaded only when used; USB PINPADs are USB devices.
 * - When neither can start, the watcher falls back to listing on a slow timer (discovery.ts).
 *
 * An event source may say "changed" spuriously or early (a USB device is attached a moment before
 * its serial port exists): the watcher waits a little, lists, and lists again a few seconds later.
 */
import { watch, type FSWatcher } from 'node:fs';

export type DeviceEventsKind = 'dev' | 'usb';

export interface DeviceEvents {
  /** What the events come from, once started ('dev': a watched device directory, 'usb': USB hot-plug). */
  readonly kind: DeviceEventsKind;
  /**
   * Starts watching: `changed` when serial devices may have come or gone (it may also be called
   * when nothing relevant changed), `failed` if the source stops working later. Rejects (or
   * throws) when the source cannot work here; nothing is left running then.
   */
  start(changed: () => void, failed: (error: Error) => void): Promise<void>;
  /** Stops watching (idempotent). */
  stop(): void;
}

/**
 * Serial-port device names, as serialport's Linux listing recognises them (its
 * `checkPathOfDevice`): USB CDC-ACM (`ttyACM*`, most PINPADs), USB-serial adapters (`ttyUSB*`,
 * `ttyWCH*`, `ttyXRUSB*`), built-in and board UARTs (`ttyS*`, `ttyAMA*`, `ttyMFD*`, `ttyO*`) and
 * Bluetooth Classic SPP (`rfcomm*`).
 */
export const SERIAL_DEVICE_NAME = /^(tty(S|WCH|ACM|USB|AMA|MFD|O|XRUSB)|rfcomm)/;

export interface DeviceDirectoryOptions {
  /** The directory the kernel makes device nodes in (default `/dev`; tests give a temp folder). */
  readonly dir?: string;
  /** Which entry names are serial ports (default SERIAL_DEVICE_NAME). */
  readonly match?: RegExp;
}

/** Serial devices appearing in and disappearing from a device directory (Linux: `/dev`, by inotify). */
export function watchDeviceDirectory(options: DeviceDirectoryOptions = {}): DeviceEvents {
  const dir = options.dir ?? '/dev';
  const match = options.match ?? SERIAL_DEVICE_NAME;
  let watcher: FSWatcher | undefined;
  return {
    kind: 'dev',
    // async: a directory that cannot be watched rejects rather than throws.
    // eslint-disable-next-line @typescript-eslint/require-await
    async start(changed, failed) {
      if (watcher !== undefined) return;
      // Throws at once when the directory cannot be watched (missing, inotify limit reached).
      const started = watch(dir, { persistent: false }, (eventType, name) => {
        // A name Node could not report (rare overflow): something changed, possibly ours.
        if (eventType === 'rename' && (name === null || match.test(name))) changed();
      });
      started.on('error', (error) => {
        started.close();
        if (watcher === started) watcher = undefined;
        failed(error);
      });
      watcher = started;
    },
    stop() {
      watcher?.close();
      watcher = undefined;
    },
  };
}

/** The part of the `usb` package's `usb` object the watcher uses (tests give an EventEmitter). */
export interface UsbHotplug {
  on(event: 'attach' | 'detach', listener: (device: unknown) => void): unknown;
  off(event: 'attach' | 'detach', listener: (device: unknown) => void): unknown;
  /** Lets the process exit while hot-plug events are watched (node-usb ≥ 2). */
  unrefHotplugEvents?(): void;
}

export interface UsbDeviceEventsOptions {
  /** Loads the USB stack (default: the `usb` package, imported on first use). */
  readonly load?: () => Promise<UsbHotplug>;
}

/** Loads node-usb; rejects when its native part cannot load or libusb cannot start here. */
async function loadUsb(): Promise<UsbHotplug> {
  const module = await import('usb');
  const { usb } = module;
  if (usb.INIT_ERROR) throw new Error(`libusb could not be initialised (error ${usb.INIT_ERROR})`);
  return usb;
}

/** USB devices attached and detached (the `usb` package). */
export function usbDeviceEvents(options: UsbDeviceEventsOptions = {}): DeviceEvents {
  const load = options.load ?? loadUsb;
  let attached: { usb: UsbHotplug; listener: () => void } | undefined;
  return {
    kind: 'usb',
    async start(changed) {
      if (attached !== undefined) return;
      const usb = await load();
      const listener = (): void => changed();
      usb.on('attach', listener);
      usb.on('detach', listener);
      // The agent's own servers keep the process alive; hot-plug alone must not.
      usb.unrefHotplugEvents?.();
      attached = { usb, listener };
    },
    stop() {
      if (attached === undefined) return;
      const { usb, listener } = attached;
      attached = undefined;
      // node-usb stops its hot-plug machinery when the last listener goes.
      usb.off('attach', listener);
      usb.off('detach', listener);
    },
  };
}

/**
 * The first of `sources` that starts, tried in order; rejects with the last failure when none
 * does. `kind` is the one that started (the first before that).
 */
export function firstWorking(sources: readonly DeviceEvents[]): DeviceEvents {
  if (sources.length === 0) throw new RangeError('firstWorking needs at least one source');
  let current: DeviceEvents | undefined;
  return {
    get kind() {
      return (current ?? sources[0]!).kind;
    },
    async start(changed, failed) {
      if (current !== undefined) return;
      let last: unknown;
      for (const source of sources) {
        try {
          await source.start(changed, failed);
          current = source;
          return;
        } catch (error) {
          last = error;
        }
      }
      throw last instanceof Error ? last : new Error(String(last));
    },
    stop() {
      current?.stop();
      current = undefined;
    },
  };
}

/**
 * This platform's device events: on Linux the `/dev` directory (then USB hot-plug should inotify
 * be unavailable); elsewhere USB hot-plug.
 */
export function platformDeviceEvents(platform: NodeJS.Platform = process.platform): DeviceEvents {
  return platform === 'linux' ? firstWorking([watchDeviceDirectory(), usbDeviceEvents()]) : usbDeviceEvents();
}
