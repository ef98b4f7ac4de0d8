/**
 * A pre-Abecs (BibComp) PINPAD: it answers ERR010 to the 2.x TLV commands. The Pinpad API must
 * then fall back to GIN for its identification and to GKY for keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ginCommand } from '../../../drivers/abecs/commands/gin.js';
import { gkyCommand } from '../../../drivers/abecs/commands/gky.js';
import { encodeResponsePacket } from '../../../drivers/abecs/envelope.js';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { DeviceLink } from '../../../drivers/simulator/device-link.js';
import { createMemoryLink } from '../../../drivers/transports/memory.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A tiny legacy PINPAD; returns the commands it received, in order. */
async function legacyPinpad(): Promise<{ pinpad: Pinpad; received: string[] }> {
  const link = createMemoryLink();
  await link.device.open();
  const device = new DeviceLink(link.device);
  const received: string[] = [];
  device.on('command', (pktdata) => {
    const id = pktdata.subarray(0, 3).toString('latin1');
    received.push(id);
    const answer = (() => {
      switch (id) {
        case 'OPN':
        case 'CLO':
          return encodeResponsePacket({ id, status: 0, blocks: [] });
        case 'GIN':
          return encodeResponsePacket(
            ginCommand.encodeResponse({
              kind: 'general',
              manufacturer: 'CYGNUS',
              model: 'PP X-1;10MB',
              contactless: true,
              firmware: '8065XA077X0060X',
              specVersion: '2.00',
              managerVersion: '001.03 130715',
              serialNumber: '001101010300000',
            }),
          );
        case 'GKY':
          return encodeResponsePacket(gkyCommand.encodeResponse({ key: 'f3' }));
        default:
          return encodeResponsePacket({ id: 'ERR', status: 10, blocks: [] });
      }
    })();
    void device.respond(answer);
  });
  const pinpad = new Pinpad(link.host);
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null);
    device.dispose();
  });
  return { pinpad, received };
}

describe('Pinpad with a legacy (pre-Abecs) PINPAD', () => {
  it('identifies it with GIN after GIX is refused with ERR010', async () => {
    const { pinpad, received } = await legacyPinpad();
    expect(await pinpad.info()).toEqual({
      manufacturer: 'CYGNUS',
      model: 'PP X-1',
      memory: '10MB',
      firmware: '8065XA077X0060X',
      specVersion: '2.00',
      serialNumber: '001101010300000',
      protocol: 'legacy',
      contactless: true,
      managerVersion: '001.03 130715',
    });
    expect(received).toEqual(['OPN', 'GIX', 'GIN']);
  });

  it('reads keys with GKY, whose answer is the status itself', async () => {
    const { pinpad, received } = await legacyPinpad();
    expect(await pinpad.readKey()).toBe('f3');
    expect(received.at(-1)).toBe('GKY');
    expect(received).not.toContain('CEX');
  });

  it('reports a TLV command it does not know as ST_INVCALL', async () => {
    const { pinpad } = await legacyPinpad();
    await expect(pinpad.readCustomerData('cpf')).rejects.toMatchObject({ code: 'ST_INVCALL', command: 'GCD' });
  });
});
