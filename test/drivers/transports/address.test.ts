import net from 'node:net';
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTransport,
  formatTransportAddress,
  openTransport,
  parseTransportAddress,
} from '../../../drivers/transports/address.js';
import { BleTransport, type NobleLike } from '../../../drivers/transports/ble.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import { TcpTransport } from '../../../drivers/transports/tcp.js';
import { TransportError } from '../../../drivers/transports/transport.js';
import { thrown } from '../../helpers/thrown.js';

describe('parseTransportAddress', () => {
  it.each([
    ['/dev/ttyACM0', '/dev/ttyACM0'],
    ['/dev/pts/3', '/dev/pts/3'],
    ['/dev/serial/by-id/usb-GERTEC_PPC930-if00', '/dev/serial/by-id/usb-GERTEC_PPC930-if00'],
    ['COM3', 'COM3'],
    ['com12', 'COM12'],
    ['\\\\.\\COM15', '\\\\.\\COM15'],
  ])('reads %s as a serial port', (text, path) => {
    expect(parseTransportAddress(text)).toEqual({ kind: 'serial', path });
  });

  it.each([
    ['tcp://10.0.0.5:4000', '10.0.0.5', 4000],
    ['tcp://pinpad.local:1', 'pinpad.local', 1],
    ['tcp://[::1]:65535', '::1', 65535],
    ['tcp://[fe80::1:2]:4000/', 'fe80::1:2', 4000],
  ])('reads %s as TCP', (text, host, port) => {
    expect(parseTransportAddress(text)).toEqual({ kind: 'tcp', host, port });
  });

  it('reads ble:<id> as BLE', () => {
    expect(parseTransportAddress('ble:c0ffee000001')).toEqual({ kind: 'ble', id: 'c0ffee000001' });
    expect(parseTransportAddress('ble:C0:FF:EE:00:00:01')).toEqual({ kind: 'ble', id: 'C0:FF:EE:00:00:01' });
  });

  it.each([
    '',
    'ttyACM0',
    'COM0',
    'COM',
    'tcp://10.0.0.5',
    'tcp://10.0.0.5:0',
    'tcp://10.0.0.5:65536',
    'tcp://10.0.0.5:99999',
    'tcp://::1:4000',
    'tcp://[not-ipv6]:4000',
    'tcp://host:4000/path',
    'udp://10.0.0.5:4000',
    'ble:',
    'ble:has space',
    'http://pinpad',
  ])('rejects %j with INVALID_PORT and a sentence showing the accepted forms', (text) => {
    let caught: unknown;
    try {
      parseTransportAddress(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TransportError);
    expect(caught).toMatchObject({ code: 'INVALID_PORT' });
    expect((caught as Error).message).toMatch(/\/dev\/ttyACM0.*COM3.*tcp:\/\/host:port.*ble:<device id>/);
  });

  it('formats parsed addresses back to the same text', () => {
    for (const text of ['/dev/ttyACM0', 'COM3', 'tcp://10.0.0.5:4000', 'tcp://[::1]:4000', 'ble:c0ffee000001']) {
      expect(formatTransportAddress(parseTransportAddress(text))).toBe(text);
    }
  });
});

describe('createTransport', () => {
  it('builds an unopened transport of the right kind', () => {
    const serial = createTransport('/dev/ttyACM0', { serial: { baudRate: 9600 } });
    expect(serial).toBeInstanceOf(SerialTransport);
    expect(serial).toMatchObject({ kind: 'serial', address: '/dev/ttyACM0', isOpen: false });
    expect((serial as SerialTransport).settings.baudRate).toBe(9600);

    const tcp = createTransport('tcp://[::1]:4000');
    expect(tcp).toBeInstanceOf(TcpTransport);
    expect(tcp).toMatchObject({ kind: 'tcp', address: 'tcp://[::1]:4000', isOpen: false });
  });

  it('loads noble only for BLE addresses, through the injected loader', () => {
    let loads = 0;
    const noble = new EventEmitter() as unknown as NobleLike;
    const createNoble = (): NobleLike => {
      loads++;
      return noble;
    };
    createTransport('COM3', { createNoble });
    expect(loads).toBe(0);
    const ble = createTransport('ble:c0ffee000001', { createNoble });
    expect(loads).toBe(1);
    expect(ble).toBeInstanceOf(BleTransport);
    expect(ble).toMatchObject({ kind: 'ble', address: 'ble:c0ffee000001' });
  });

  it('surfaces BLE_UNAVAILABLE from the noble loader', () => {
    const createNoble = (): NobleLike => {
      throw new TransportError('BLE_UNAVAILABLE', 'Bluetooth LE is not available on this machine.');
    };
    expect(thrown(() => createTransport('ble:x', { createNoble }))).toMatchObject({ code: 'BLE_UNAVAILABLE' });
  });

  it('throws INVALID_PORT for an unknown address', () => {
    expect(thrown(() => createTransport('printer:1'))).toMatchObject({ code: 'INVALID_PORT' });
  });
});

describe('openTransport', () => {
  let server: net.Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('returns an open transport', async () => {
    const sockets: net.Socket[] = [];
    server = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as net.AddressInfo;
    const t = await openTransport(`tcp://127.0.0.1:${port}`, { tcp: { reconnect: false } });
    expect(t.isOpen).toBe(true);
    await t.close();
    sockets.forEach((s) => s.destroy());
  });

  it('rejects with the transport error when the port does not exist', async () => {
    await expect(openTransport('/dev/pinbridge-missing')).rejects.toMatchObject({ code: 'PORT_NOT_FOUND' });
  });
});
