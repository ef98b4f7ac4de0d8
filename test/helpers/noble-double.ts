/**
 * noble driven by fake bindings (the interface noble's hci-socket/mac/win bindings implement): one
 * radio with some advertising peripherals; those with the Nordic UART service expose RX (write)
 * and TX (notify). There is no Bluetooth hardware here, so BLE is tested through noble itself.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import {
  NORDIC_UART_NOTIFY_UUID,
  NORDIC_UART_SERVICE_UUID,
  NORDIC_UART_WRITE_UUID,
  normalizeBleUuid,
  type NobleLike,
} from '../../drivers/transports/ble.js';

const require = createRequire(import.meta.url);
/** noble's core, driven by the bindings we hand it (the native ones are not built here). */
const Noble = require('@stoprocent/noble/lib/noble.js') as new (bindings: EventEmitter) => NobleLike;

export const NUS = normalizeBleUuid(NORDIC_UART_SERVICE_UUID);
export const RX = normalizeBleUuid(NORDIC_UART_WRITE_UUID);
export const TX = normalizeBleUuid(NORDIC_UART_NOTIFY_UUID);

export interface FakePeripheral {
  id: string;
  address: string;
  name: string;
  rssi: number;
  services: string[];
  /** MTU the link negotiates (reported through `onMtu`), if any. */
  mtu?: number;
}

export interface RecordedWrite {
  readonly data: Buffer;
  readonly withoutResponse: boolean;
}

export class FakeBindings extends EventEmitter {
  state = 'poweredOn';
  readonly peripherals: FakePeripheral[] = [];
  readonly writes: RecordedWrite[] = [];
  readonly connected = new Set<string>();
  subscribed = false;

  stopped = false;

  start(): void {
    setImmediate(() => this.emit('stateChange', this.state));
  }
  stop(): void {
    this.stopped = true;
  }
  setScanParameters(): void {}
  startScanning(serviceUuids: string[] = []): void {
    setImmediate(() => {
      this.emit('scanStart', false);
      for (const p of this.peripherals) {
        if (serviceUuids.length > 0 && !p.services.some((s) => serviceUuids.includes(s))) continue;
        this.emit(
          'discover',
          p.id,
          p.address,
          'public',
          true,
          { localName: p.name, serviceUuids: p.services },
          p.rssi,
          true,
        );
      }
    });
  }
  stopScanning(): void {
    setImmediate(() => this.emit('scanStop'));
  }
  connect(id: string): void {
    setImmediate(() => {
      this.connected.add(id);
      this.emit('connect', id, null);
      const mtu = this.peripherals.find((p) => p.id === id)?.mtu;
      if (mtu) this.emit('onMtu', id, mtu);
    });
  }
  disconnect(id: string): void {
    setImmediate(() => {
      this.connected.delete(id);
      this.emit('disconnect', id, 'local');
    });
  }
  discoverServices(id: string, uuids: string[]): void {
    const p = this.peripherals.find((x) => x.id === id);
    const found = (p?.services ?? []).filter((s) => uuids.length === 0 || uuids.includes(s));
    setImmediate(() => this.emit('servicesDiscover', id, found));
  }
  discoverCharacteristics(id: string, serviceUuid: string, uuids: string[]): void {
    const all =
      serviceUuid === NUS
        ? [
            { uuid: RX, properties: ['write', 'writeWithoutResponse'] },
            { uuid: TX, properties: ['notify'] },
          ]
        : [];
    const found = all.filter((c) => uuids.length === 0 || uuids.includes(c.uuid));
    setImmediate(() => this.emit('characteristicsDiscover', id, serviceUuid, found));
  }
  write(id: string, serviceUuid: string, characteristicUuid: string, data: Buffer, withoutResponse: boolean): void {
    this.writes.push({ data: Buffer.from(data), withoutResponse });
    setImmediate(() => this.emit('write', id, serviceUuid, characteristicUuid));
  }
  notify(id: string, serviceUuid: string, characteristicUuid: string, enable: boolean): void {
    this.subscribed = enable;
    setImmediate(() => this.emit('notify', id, serviceUuid, characteristicUuid, enable));
  }

  // Test controls.
  sendNotification(id: string, data: Buffer): void {
    this.emit('read', id, NUS, TX, data, true);
  }
  dropLink(id: string): void {
    this.connected.delete(id);
    this.emit('disconnect', id, 0x08);
  }
}

export const PINPAD: FakePeripheral = {
  id: 'c0ffee000001',
  address: 'c0:ff:ee:00:00:01',
  name: 'PINPAD-BLE',
  rssi: -60,
  services: [NUS],
};

export function setup(
  peripherals: FakePeripheral[] = [{ ...PINPAD }],
  state = 'poweredOn',
): { bindings: FakeBindings; noble: NobleLike } {
  const bindings = new FakeBindings();
  bindings.state = state;
  bindings.peripherals.push(...peripherals);
  return { bindings, noble: new Noble(bindings) };
}
