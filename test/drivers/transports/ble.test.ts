import type { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BleTransport, createNoble, scanBlePinpads, type NobleLike } from '../../../drivers/transports/ble.js';
import type { TransportCloseInfo } from '../../../drivers/transports/transport.js';
import { thrown } from '../../helpers/thrown.js';
import { NUS, PINPAD, setup, type FakeBindings, type FakePeripheral } from '../../helpers/noble-double.js';

describe('BleTransport', () => {
  it('connects, subscribes, and splits a 100-byte write into 20-byte writes in order (default MTU 23)', async () => {
    const { bindings, noble } = setup();
    const t = new BleTransport({ noble, peripheralId: PINPAD.id, scanTimeoutMs: 2000 });
    expect(t.address).toBe(`ble:${PINPAD.id}`);
    let opens = 0;
    t.on('open', () => opens++);
    await t.open();
    expect(opens).toBe(1);
    expect(t.isOpen).toBe(true);
    expect(bindings.subscribed).toBe(true);

    const payload = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    await t.write(payload);
    expect(bindings.writes.map((w) => w.data.length)).toEqual([20, 20, 20, 20, 20]);
    expect(Buffer.concat(bindings.writes.map((w) => w.data))).toEqual(payload);
    // The characteristic supports acknowledged writes, so they are used by default.
    expect(bindings.writes.every((w) => !w.withoutResponse)).toBe(true);
    await t.close();
  });

  it('keeps two concurrent writes in order without interleaving their chunks', async () => {
    const { bindings, noble } = setup();
    const t = new BleTransport({ noble, peripheralId: PINPAD.id });
    await t.open();
    const a = Buffer.alloc(45, 0xaa);
    const b = Buffer.alloc(25, 0xbb);
    await Promise.all([t.write(a), t.write(b)]);
    expect(Buffer.concat(bindings.writes.map((w) => w.data))).toEqual(Buffer.concat([a, b]));
    await t.close();
  });

  it('uses the MTU the peripheral negotiated', async () => {
    const { bindings, noble } = setup([{ ...PINPAD, mtu: 185 }]);
    const t = new BleTransport({ noble, peripheralId: PINPAD.id });
    await t.open();
    expect(t.chunkSize).toBe(182);
    await t.write(Buffer.alloc(400, 1));
    expect(bindings.writes.map((w) => w.data.length)).toEqual([182, 182, 36]);
    await t.close();
  });

  it('honours a configured MTU and writeWithoutResponse', async () => {
    const { bindings, noble } = setup();
    const t = new BleTransport({ noble, peripheralId: PINPAD.id, mtu: 53, writeWithoutResponse: true });
    await t.open();
    await t.write(Buffer.alloc(60, 2));
    expect(bindings.writes.map((w) => [w.data.length, w.withoutResponse])).toEqual([
      [50, true],
      [10, true],
    ]);
    await t.close();
  });

  it('finds the peripheral by Bluetooth address too', async () => {
    const { noble } = setup();
    const t = new BleTransport({ noble, peripheralId: 'C0-FF-EE-00-00-01' });
    await t.open();
    expect(t.isOpen).toBe(true);
    await t.close();
  });

  it('delivers notifications as data', async () => {
    const { bindings, noble } = setup();
    const t = new BleTransport({ noble, peripheralId: PINPAD.id });
    await t.open();
    const got: Buffer[] = [];
    t.on('data', (chunk) => got.push(chunk));
    bindings.sendNotification(PINPAD.id, Buffer.from([0x06]));
    bindings.sendNotification(PINPAD.id, Buffer.from([0x16, 0x4f, 0x50, 0x4e]));
    expect(Buffer.concat(got)).toEqual(Buffer.from([0x06, 0x16, 0x4f, 0x50, 0x4e]));
    await t.close();
  });

  it('reports a peripheral disconnect as close with expected: false and fails later writes', async () => {
    const { bindings, noble } = setup();
    const t = new BleTransport({ noble, peripheralId: PINPAD.id });
    await t.open();
    const closed = new Promise<TransportCloseInfo>((resolve) => t.once('close', resolve));
    bindings.dropLink(PINPAD.id);
    const info = await closed;
    expect(info.expected).toBe(false);
    expect(info.error).toMatchObject({ code: 'DISCONNECTED' });
    expect(t.isOpen).toBe(false);
    await expect(t.write(Buffer.from([1]))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });

  it('emits close with expected: true on close(); close() is idempotent', async () => {
    const { bindings, noble } = setup();
    const t = new BleTransport({ noble, peripheralId: PINPAD.id });
    await t.open();
    const events: TransportCloseInfo[] = [];
    t.on('close', (info) => events.push(info));
    await t.close();
    await t.close();
    expect(events).toEqual([{ expected: true }]);
    expect(bindings.connected.size).toBe(0);
  });

  it('stops a noble it owns when it closes or fails to open, and never one it was lent', async () => {
    const owned = setup();
    const t = new BleTransport({ noble: owned.noble, ownsNoble: true, peripheralId: PINPAD.id });
    await t.open();
    expect(owned.bindings.stopped).toBe(false);
    await t.close();
    expect(owned.bindings.stopped).toBe(true);

    const missing = setup([]);
    const lost = new BleTransport({
      noble: missing.noble,
      ownsNoble: true,
      peripheralId: PINPAD.id,
      scanTimeoutMs: 50,
    });
    await expect(lost.open()).rejects.toMatchObject({ code: 'BLE_DEVICE_NOT_FOUND' });
    expect(missing.bindings.stopped).toBe(true);

    const lent = setup();
    const borrowed = new BleTransport({ noble: lent.noble, peripheralId: PINPAD.id });
    await borrowed.open();
    await borrowed.close();
    expect(lent.bindings.stopped).toBe(false);
  });

  it('rejects with BLE_DEVICE_NOT_FOUND when the peripheral is not seen before the scan timeout', async () => {
    const { noble } = setup([]);
    const t = new BleTransport({ noble, peripheralId: 'aa:bb:cc:dd:ee:ff', scanTimeoutMs: 50 });
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BLE_DEVICE_NOT_FOUND' });
    expect((error as Error).message).toContain('aa:bb:cc:dd:ee:ff');
  });

  it('rejects with BLE_UNAVAILABLE when the adapter is powered off', async () => {
    const { noble } = setup([{ ...PINPAD }], 'poweredOff');
    const t = new BleTransport({ noble, peripheralId: PINPAD.id });
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BLE_UNAVAILABLE' });
    expect((error as Error).message).toContain('poweredOff');
  });

  it('rejects with BLE_SERVICE_NOT_FOUND and disconnects when the device lacks the service', async () => {
    const { bindings, noble } = setup([{ ...PINPAD, services: ['180f'] }]);
    const t = new BleTransport({ noble, peripheralId: PINPAD.id });
    await expect(t.open()).rejects.toMatchObject({ code: 'BLE_SERVICE_NOT_FOUND' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(bindings.connected.size).toBe(0);
    expect(t.isOpen).toBe(false);
  });

  it('rejects with BLE_SERVICE_NOT_FOUND when configured characteristics are missing', async () => {
    const { noble } = setup();
    const t = new BleTransport({
      noble,
      peripheralId: PINPAD.id,
      notifyCharacteristicUuid: '0000fff1-0000-1000-8000-00805f9b34fb',
    });
    await expect(t.open()).rejects.toMatchObject({ code: 'BLE_SERVICE_NOT_FOUND' });
  });
});

describe('scanBlePinpads', () => {
  const other: FakePeripheral = {
    id: 'feed00000002',
    address: 'fe:ed:00:00:00:02',
    name: 'Heart',
    rssi: -40,
    services: ['180d'],
  };
  const second: FakePeripheral = {
    id: 'c0ffee000003',
    address: 'c0:ff:ee:00:00:03',
    name: 'PINPAD-2',
    rssi: -50,
    services: [NUS],
  };

  it('lists devices advertising the UART service by default, strongest first', async () => {
    const { noble } = setup([{ ...PINPAD }, other, second]);
    const found = await scanBlePinpads({ noble, durationMs: 50 });
    expect(found).toEqual([
      { id: second.id, address: second.address, name: 'PINPAD-2', rssi: -50 },
      { id: PINPAD.id, address: PINPAD.address, name: 'PINPAD-BLE', rssi: -60 },
    ]);
  });

  it('lists every advertising device with serviceUuids: []', async () => {
    const { noble } = setup([{ ...PINPAD }, other]);
    const found = await scanBlePinpads({ noble, durationMs: 50, serviceUuids: [] });
    expect(found.map((d) => d.id)).toEqual([other.id, PINPAD.id]);
  });

  it('rejects with BLE_UNAVAILABLE when the adapter is off', async () => {
    const { noble } = setup([], 'unsupported');
    await expect(scanBlePinpads({ noble, durationMs: 10 })).rejects.toMatchObject({ code: 'BLE_UNAVAILABLE' });
  });
});

describe('createNoble', () => {
  it('turns a missing native binding into BLE_UNAVAILABLE with a clear sentence', () => {
    const load = (): never => {
      throw new Error('Cannot find module bluetooth_hci_socket.node');
    };
    expect(thrown(() => createNoble(load))).toMatchObject({ code: 'BLE_UNAVAILABLE' });
    expect(() => createNoble(load)).toThrow(/Bluetooth LE is not available.*bluetooth_hci_socket/);
  });

  it('rejects a module that is not noble', () => {
    expect(thrown(() => createNoble(() => ({})))).toMatchObject({ code: 'BLE_UNAVAILABLE' });
  });

  it('returns the loaded noble instance', () => {
    const { noble } = setup();
    expect(createNoble(() => noble)).toBe(noble);
  });

  it("makes a new instance per call through the module's withBindings", () => {
    const made: string[] = [];
    const module = {
      withBindings: (type: string): NobleLike => {
        made.push(type);
        return setup().noble;
      },
    };
    const first = createNoble(() => module);
    const second = createNoble(() => module);
    expect(first).not.toBe(second);
    expect(made).toEqual(['default', 'default']);
  });

  it("keeps noble's adapter warnings off the console and still reports the state", async () => {
    const { noble, bindings } = setup();
    // noble's HCI bindings print these on an unsupported adapter, from their onStateChange.
    const printed: unknown[][] = [];
    const log = console.log;
    console.log = (...args: unknown[]): void => void printed.push(args);
    try {
      Object.assign(bindings, {
        start(this: FakeBindings & { onStateChange(state: string): void }): void {
          setImmediate(() => this.onStateChange('unsupported'));
        },
        onStateChange(this: FakeBindings, state: string): void {
          console.log('noble warning: adapter does not support Bluetooth Low Energy (BLE, Bluetooth Smart).');
          console.log('               Try to run with environment variable:');
          console.log('kept: not noble');
          this.emit('stateChange', state);
        },
      });
      const quiet = createNoble(() => noble);
      (noble as unknown as EventEmitter).emit('warning', 'a noble warning');
      await expect(scanBlePinpads({ noble: quiet, durationMs: 10 })).rejects.toThrow(
        /^Bluetooth LE is not available: this computer has no Bluetooth LE adapter/,
      );
      expect(printed).toEqual([['kept: not noble']]);
    } finally {
      console.log = log;
    }
  });

  it('stops a noble it owns after a scan, failed or not', async () => {
    const ok = setup();
    await scanBlePinpads({ noble: ok.noble, ownsNoble: true, durationMs: 10 });
    expect(ok.bindings.stopped).toBe(true);
    const off = setup([], 'poweredOff');
    await expect(scanBlePinpads({ noble: off.noble, ownsNoble: true, durationMs: 10 })).rejects.toMatchObject({
      code: 'BLE_UNAVAILABLE',
    });
    expect(off.bindings.stopped).toBe(true);
    const shared = setup();
    await scanBlePinpads({ noble: shared.noble, durationMs: 10 });
    expect(shared.bindings.stopped).toBe(false);
  });
});
