/**
 * A replayed session with its card data sealed again (replay-reseal.ts): the recording's answers
 * as a trace file holds them — PAN masked, sealed tracks, PIN block and KSN zeroed — and the
 * answers the replay gives with a test card chosen, opened here with node:crypto and the test keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pinOfBlock, tdesDecrypt } from '../../../drivers/crypto/dukpt.js';
import { encryptWorkingKey, testMasterKey, testWorkingKey } from '../../../drivers/crypto/master-keys.js';
import {
  PinpadSimulator,
  TEST_CARDS,
  type ReplayTrace,
  type ReplayTraceEvent,
} from '../../../drivers/simulator/index.js';
import { track2Of } from '../../../drivers/simulator/cards.js';
import { abecs, head, hex, latin1, rawSetup, responseItems, tlv, type RawHost } from './raw-host.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A response PKTDATA: id + "000" + one block of TLV items. */
const answer = (id: string, ...items: Buffer[]): Buffer => abecs(`${id}000`, ...items);

/** What a trace file holds of a recorded chip read: masked and zeroed, as drivers/abecs/trace masks it. */
function recordedSale(): ReplayTrace {
  const events: ReplayTraceEvent[] = [];
  let t = 0;
  const exchange = (id: string, response: Buffer): void => {
    events.push({ t: (t += 10), dir: 'host', kind: 'packet', id, data: latin1(id).toString('hex') });
    events.push({ t: (t += 10), dir: 'pinpad', kind: 'packet', id, status: '000', data: response.toString('hex') });
  };
  exchange(
    'GCX',
    answer(
      'GCX',
      tlv(0x804f, '03'),
      tlv(0x8051, '010101'),
      tlv(0x8052, '545454******5454'),
      tlv(0x8053, '00'),
      tlv(0x8042, '545454******5454=3012201'),
      tlv(0x805b, 'CREDITO'),
      tlv(0x805d, '301231'),
    ),
  );
  exchange('GTK', answer('GTK', tlv(0x804a, Buffer.alloc(8)), tlv(0x8045, Buffer.alloc(16))));
  exchange(
    'GOX',
    answer('GOX', tlv(0x8056, '202000'), tlv(0x8057, Buffer.alloc(8)), tlv(0x8054, hex('9F2701809F02060000000010 00'))),
  );
  return { events };
}

async function open(resealCard?: string): Promise<RawHost> {
  const { host, close } = await rawSetup({ replay: recordedSale(), ...(resealCard ? { resealCard } : {}) });
  cleanups.push(close);
  return host;
}

const card = TEST_CARDS.visaCredit;
const wkenc = (kind: 'pin' | 'data'): Buffer => encryptWorkingKey(testMasterKey(kind, 3), testWorkingKey(kind));
const unpack = (packed: Buffer): string =>
  [...packed.toString('hex').toUpperCase().replace(/F+$/, '')]
    .map((nibble) => String.fromCharCode(0x30 + parseInt(nibble, 16)))
    .join('');

const GCX = abecs('GCX', tlv(0x0015, '261126'), tlv(0x0016, '120000'), tlv(0x0023, '0604'));
const GTK = abecs('GTK', tlv(0x0007, '1010'), tlv(0x0003, '10'), tlv(0x0009, '03'), tlv(0x000a, wkenc('data')));
const GOX = abecs('GOX', tlv(0x0010, '01'), tlv(0x0002, '1'), tlv(0x0009, '03'), tlv(0x000a, wkenc('pin')));

describe('a replay with a test card to re-seal', () => {
  it("answers the recorded card read with the test card's data, sealed under the keys the host names", async () => {
    const host = await open('visaCredit');
    const read = responseItems(await host.exchange(GCX));
    // The recorded answer's shape and decision, the test card's data (PAN masked as SPE_PANMASK says).
    expect(read.get(0x804f)!.toString('latin1')).toBe('03');
    expect(read.get(0x8052)!.toString('latin1')).toBe('411111******1111');
    expect(read.get(0x8042)!.toString('latin1')).toBe('411111******1111=3012201');

    const tracks = responseItems(await host.exchange(GTK));
    expect(unpack(tdesDecrypt(testWorkingKey('data'), tracks.get(0x804a)!))).toBe(card.pan);
    expect(unpack(tdesDecrypt(testWorkingKey('data'), tracks.get(0x8045)!))).toBe(track2Of(card));

    const gox = responseItems(await host.exchange(GOX));
    expect(gox.get(0x8056)!.toString('latin1')).toBe('202000');
    expect(pinOfBlock(tdesDecrypt(testWorkingKey('pin'), gox.get(0x8057)!), card.pan)).toBe('1234');
    expect(gox.get(0x8054)).toEqual(hex('9F2701809F02060000000010 00'));

    // The recording has no FCX (a card read recorded by "pinpad trace --sale"): the card accepts the host's decision.
    const fcx = await host.exchange(abecs('FCX', tlv(0x0019, '0000'), tlv(0x001c, '00'), tlv(0x0004, hex('9F26'))));
    expect(head(fcx)).toBe('FCX000');
    expect(responseItems(fcx).get(0x8058)!.toString('latin1')).toBe('000');
    expect(responseItems(fcx).get(0x8054)).toHaveLength(0);
  });

  it('without one, replays the zeros the file holds, and FCX is unknown (ERR010)', async () => {
    const host = await open();
    await host.exchange(GCX);
    expect(responseItems(await host.exchange(GTK)).get(0x8045)).toEqual(Buffer.alloc(16));
    expect((await host.exchange(abecs('FCX', tlv(0x0019, '0000'), tlv(0x001c, '00')))).toString('latin1')).toBe(
      'ERR010',
    );
  });

  it('is refused without a replay, and for a card that is not in the catalogue', () => {
    expect(() => new PinpadSimulator({ resealCard: 'visaCredit' })).toThrow(/needs replay/);
    expect(() => new PinpadSimulator({ replay: recordedSale(), resealCard: 'nope' })).toThrow(
      /no test card named "nope"/,
    );
  });
});
