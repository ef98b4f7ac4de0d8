/** The byte transports under the ABECS link layer: interface, implementations, addresses, discovery. */
export * from './transport.js';
export * from './memory.js';
export * from './pacer.js';
export * from './serial.js';
export * from './tcp.js';
export * from './ble.js';
export * from './address.js';
export * from './usb-ids.js';
export * from './device-events.js';
export * from './discovery.js';
