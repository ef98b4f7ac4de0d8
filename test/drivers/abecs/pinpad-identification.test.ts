/**
 * Identification as every PINPAD in the field reads it (abecs.md §3.4, S220 §3.2.4 / §6.4.3):
 * the host always names the items it wants (GIX with SPE_IDLIST), because a PINPAD that reads
 * §6.4.3 literally answers a bare GIX with ST_MANDAT; it falls back to GIN only for a PINPAD that
 * does not know GIX (ERR010), and to a bare GIX only for one that refuses the list itself.
 *
 * The devices here are scripted byte by byte from the spec (TLV answers built by hand, not with
 * the host's codecs), and the specs read the packets the host actually sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IDENTIFICATION_ITEMS, Pinpad } from '../../../drivers/abecs/pinpad.js';
import { DeviceLink } from '../../../drivers/simulator/device-link.js';
import { createMemoryLink } from '../../../drivers/transports/memory.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** One TLV parameter: X2 id, X2 length, value (S220 §3.1.3). */
function tlv(id: number, value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const head = Buffer.alloc(4);
  head.writeUInt16BE(id, 0);
  head.writeUInt16BE(bytes.length, 2);
  return Buffer.concat([head, bytes]);
}

/** A response packet's data: id + status N3 (+ one block N3 + data). */
function answer(id: string, status: number, data?: Buffer): Buffer {
  const head = Buffer.from(id + String(status).padStart(3, '0'), 'latin1');
  if (data === undefined) return head;
  return Buffer.concat([head, Buffer.from(String(data.length).padStart(3, '0'), 'latin1'), data]);
}

/** The ids listed in a GIX command's SPE_IDLIST, or null when the command carries no list. */
function idList(pktdata: Buffer): number[] | null {
  if (pktdata.length <= 6) return null; // "GIX" or "GIX000"
  const block = pktdata.subarray(6);
  expect(block.readUInt16BE(0)).toBe(0x0001); // SPE_IDLIST
  const list = block.subarray(4, 4 + block.readUInt16BE(2));
  const ids: number[] = [];
  for (let at = 0; at < list.length; at += 2) ids.push(list.readUInt16BE(at));
  return ids;
}

/** What a PPC-930-like PINPAD holds (values from the real trace, serial made up). */
const ITEMS: ReadonlyMap<number, Buffer> = new Map([
  [0x8001, Buffer.from('7200032299990001')],
  [0x8002, Buffer.from('PPC-930')],
  [0x8003, Buffer.from('PPC-930;192MB')],
  [0x8004, Buffer.from('GERTEC')],
  [0x8005, Buffer.from('1200000000')],
  [0x8006, Buffer.from('1.02.00')],
  [0x8007, Buffer.from('2.12')],
  [0x8020, Buffer.from('0816')],
  [0x8035, Buffer.from('0' + '1' + '1' + '0'.repeat(97))],
  [0x8036, Buffer.from('0' + '0' + '1' + '0'.repeat(97))],
  [0x9300, Buffer.from('1807202408')],
  [0x9304, Buffer.from('1807202408')],
]);

type Reading = 'literal' | 'listRefused';

/**
 * A GIX-speaking PINPAD. `literal`: a bare GIX is ST_MANDAT (019), a list is served in request
 * order, unknown ids ignored. `listRefused`: the other way round — a list is ST_INVPARM (011),
 * a bare GIX returns everything.
 */
async function abecsPinpad(reading: Reading): Promise<{ pinpad: Pinpad; sent: Buffer[] }> {
  const link = createMemoryLink();
  await link.device.open();
  const device = new DeviceLink(link.device);
  const sent: Buffer[] = [];
  device.on('command', (pktdata) => {
    sent.push(Buffer.from(pktdata));
    const id = pktdata.subarray(0, 3).toString('latin1');
    let reply: Buffer;
    if (id === 'OPN' || id === 'CLO') reply = answer(id, 0);
    else if (id === 'GIX') {
      const ids = idList(pktdata);
      if (ids === null) {
        reply =
          reading === 'literal'
            ? answer('GIX', 19)
            : answer('GIX', 0, Buffer.concat([...ITEMS].map(([key, value]) => tlv(key, value))));
      } else if (reading === 'listRefused') {
        reply = answer('GIX', 11);
      } else {
        reply = answer(
          'GIX',
          0,
          Buffer.concat(ids.flatMap((key) => (ITEMS.has(key) ? [tlv(key, ITEMS.get(key)!)] : []))),
        );
      }
    } else reply = answer('ERR', 10);
    void device.respond(reply); // the device side of the link layer frames it (SYN … ETB CRC)
  });
  const pinpad = new Pinpad(link.host);
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null);
    device.dispose();
  });
  return { pinpad, sent };
}

describe('Identifying a PINPAD', () => {
  it('names the items it wants, so a PINPAD that reads §6.4.3 literally (bare GIX = ST_MANDAT) is identified', async () => {
    const { pinpad, sent } = await abecsPinpad('literal');
    const info = await pinpad.info();

    const gix = sent.filter((packet) => packet.subarray(0, 3).toString('latin1') === 'GIX');
    expect(gix).toHaveLength(1);
    expect(idList(gix[0]!)).toEqual([...IDENTIFICATION_ITEMS]);
    expect(info).toMatchObject({
      serialNumber: '7200032299990001',
      manufacturer: 'GERTEC',
      model: 'PPC-930',
      memory: '192MB',
      specVersion: '2.12',
      protocol: 'abecs',
      contactless: true,
      display: { lines: 8, columns: 16 },
      tableVersions: { 0: '1807202408' },
      keySlots: { dukptPin: [1, 2], dukptData: [2] },
    });
  });

  it('asks once more without the list when a PINPAD refuses the list itself (the other reading)', async () => {
    const { pinpad, sent } = await abecsPinpad('listRefused');
    const info = await pinpad.info();

    expect(sent.filter((packet) => packet.subarray(0, 3).toString('latin1') === 'GIX').map(idList)).toEqual([
      [...IDENTIFICATION_ITEMS],
      null,
    ]);
    expect(info).toMatchObject({
      serialNumber: '7200032299990001',
      protocol: 'abecs',
      display: { lines: 8, columns: 16 },
    });
  });

  it('reads identification once and keeps it', async () => {
    const { pinpad, sent } = await abecsPinpad('literal');
    await pinpad.info();
    await pinpad.info();
    expect(sent.filter((packet) => packet.subarray(0, 3).toString('latin1') === 'GIX')).toHaveLength(1);
  });

  it('reads the EMV table versions of given acquirers through PP_TABVERnn, only the loaded ones coming back', async () => {
    const { pinpad, sent } = await abecsPinpad('literal');
    await pinpad.info();
    expect(await pinpad.tableVersions([0, 4, 6])).toEqual({ 0: '1807202408', 4: '1807202408' });
    expect(idList(sent.at(-1)!)).toEqual([0x9300, 0x9304, 0x9306]);
  });

  it('refuses an acquirer index outside 00–99 before sending anything', async () => {
    const { pinpad, sent } = await abecsPinpad('literal');
    await pinpad.info();
    const before = sent.length;
    await expect(pinpad.tableVersions([100])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(sent).toHaveLength(before);
  });
});
