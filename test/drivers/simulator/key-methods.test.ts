/**
 * Every key method ABECS defines, on the simulated PINPAD (S220 §3.3.6, §3.3.11, §3.3.12, §3.7.3,
 * §5.3, §5.4.2, §6.3.4, §6.5.6, §6.5.11, §6.5.12): the host's bytes built by hand, the PINPAD's
 * cryptograms opened here as an acquirer's host would — with node:crypto and the published test
 * keys (drivers/crypto), not with anything of the host driver or the simulator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  dataKey,
  initialKey,
  pinOfBlock,
  tdesCbcDecrypt,
  tdesDecrypt,
  TEST_BDK,
  transactionKey,
  withCounter,
} from '../../../drivers/crypto/dukpt.js';
import { encryptWorkingKey, testMasterKey, testWorkingKey } from '../../../drivers/crypto/master-keys.js';
import {
  KEY_LOADOUTS,
  KEY_LOADOUT_NAMES,
  PinpadSimulator,
  TEST_CARDS,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { track2Of } from '../../../drivers/simulator/cards.js';
import {
  abecs,
  fixed,
  head,
  hex,
  hostKeyPair,
  keyOfBlock,
  rawSetup,
  responseItems,
  tlv,
  type RawHost,
} from './raw-host.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function open(options: PinpadSimulatorOptions): Promise<{ sim: PinpadSimulator; host: RawHost }> {
  const { sim, host, close } = await rawSetup({ profile: 'strict', ...options });
  cleanups.push(close);
  return { sim, host };
}

// Parameter and response ids (S220 §3.1.3.1, §3.1.3.2).
const SPE = {
  MTHDPIN: 0x02,
  MTHDDAT: 0x03,
  TRACKS: 0x07,
  KEYIDX: 0x09,
  WKENC: 0x0a,
  DATAIN: 0x0f,
  ACQREF: 0x10,
  AMOUNT: 0x13,
  TRNDATE: 0x15,
  TRNTIME: 0x16,
  GCXOPT: 0x17,
  IVCBC: 0x1d,
  PBKMOD: 0x24,
  PBKEXP: 0x25,
  IDLIST: 0x01,
} as const;
const PP = {
  TRACK2: 0x8045,
  ENCPAN: 0x804a,
  KSN: 0x804c,
  DATAOUT: 0x804e,
  GOXRES: 0x8056,
  PINBLK: 0x8057,
  ENCKRAND: 0x8063,
  TRK2KSN: 0x8048,
} as const;

/** Track 2 / PAN nibbles back to text: 0–9, Dh "=", trailing Fh filler dropped (S220 §3.1.3.2). */
const unpack = (packed: Buffer): string =>
  [...packed.toString('hex').toUpperCase().replace(/F+$/, '')]
    .map((nibble) => String.fromCharCode(0x30 + parseInt(nibble, 16)))
    .join('');

/** What the sandbox sends: the test working key under the slot's test master key. */
const wkenc = (kind: 'pin' | 'data', slot: number): Buffer =>
  encryptWorkingKey(testMasterKey(kind, slot), testWorkingKey(kind));

/** GCX with the amount on a card the customer swipes, inserts or taps (contactless allowed). */
async function readCard(host: RawHost, amount = 1990): Promise<Buffer> {
  const raw = await host.exchange(
    abecs(
      'GCX',
      tlv(SPE.AMOUNT, String(amount).padStart(12, '0')),
      tlv(SPE.TRNDATE, '261126'),
      tlv(SPE.TRNTIME, '120000'),
      tlv(SPE.GCXOPT, '10000'),
    ),
  );
  expect(head(raw)).toBe('GCX000');
  return raw;
}

/** GPN093: method, key, GPN_WKENC H32, PAN, one entry of 4–12 digits, a 2×16 message. */
function gpn(method: string, slot: number, workingKey: Buffer, pan: string): Buffer {
  return fixed(
    'GPN',
    method +
      String(slot).padStart(2, '0') +
      workingKey.toString('hex').toUpperCase() +
      String(pan.length).padStart(2, '0') +
      pan.padEnd(19, ' ') +
      '1' +
      '04' +
      '12' +
      'DIGITE A SENHA'.padEnd(32, ' '),
  );
}

describe('PIN under MK/WK (S220 §5.3 Modalidade 1, §3.3.11, §3.7.3)', () => {
  it('GPN method "1": the ISO 9564 format 0 block of the typed PIN under the working key, KSN zeros', async () => {
    const { host } = await open({ keySlots: 'mkwk', autoCustomer: { delayMs: 1, pin: '4321' } });
    const pan = '4111111111111111';
    const raw = await host.exchange(gpn('1', 1, wkenc('pin', 1), pan));
    expect(head(raw)).toBe('GPN000');
    expect(raw.subarray(6, 9).toString('latin1')).toBe('036');
    const pinBlock = Buffer.from(raw.subarray(9, 25).toString('latin1'), 'hex');
    expect(raw.subarray(25, 45).toString('latin1')).toBe('0'.repeat(20));
    const workingKey = tdesDecrypt(testMasterKey('pin', 1), wkenc('pin', 1));
    expect(workingKey).toEqual(testWorkingKey('pin'));
    expect(pinOfBlock(tdesDecrypt(workingKey, pinBlock), pan)).toBe('4321');
    // Under another slot's master key the same block opens to nothing.
    const wrong = tdesDecrypt(testMasterKey('pin', 2), wkenc('pin', 1));
    expect(pinOfBlock(tdesDecrypt(wrong, pinBlock), pan)).toBeUndefined();
  });

  it('GOX SPE_MTHDPIN "1": an online PIN block under the working key and no PP_KSN', async () => {
    const { host } = await open({ keySlots: 'mkwk', autoCustomer: { delayMs: 1, card: 'visaCredit' } });
    await readCard(host);
    const raw = await host.exchange(
      abecs(
        'GOX',
        tlv(SPE.ACQREF, '01'),
        tlv(SPE.AMOUNT, '000000001990'),
        tlv(SPE.MTHDPIN, '1'),
        tlv(SPE.KEYIDX, '01'),
        tlv(SPE.WKENC, wkenc('pin', 1)),
      ),
    );
    expect(head(raw)).toBe('GOX000');
    const items = responseItems(raw);
    expect(items.get(PP.GOXRES)!.toString('latin1')).toBe('202000');
    expect(items.has(PP.KSN)).toBe(false);
    const block = tdesDecrypt(testWorkingKey('pin'), items.get(PP.PINBLK)!);
    expect(pinOfBlock(block, TEST_CARDS.visaCredit.pan)).toBe(TEST_CARDS.visaCredit.pin);
  });

  it('GOC method "1" (BibComp flow): the online PIN block under the working key, GOC_KSN zeros', async () => {
    const { host } = await open({ keySlots: 'mkwk', autoCustomer: { delayMs: 1, card: 'visaCredit' } });
    // GCR: any acquirer, any type, R$ 19,90, no table version loaded, no list, contactless off.
    const read = await host.exchange(fixed('GCR', `0099${'1990'.padStart(12, '0')}261126120000${'0'.repeat(10)}000`));
    expect(head(read)).toBe('GCR000');
    const block1 =
      '1990'.padStart(12, '0') +
      '0'.repeat(12) +
      '0' + // GOC_EXCLIST
      '0' + // GOC_CONNECT
      '0' + // GOC_RUF1
      '1' + // GOC_METHOD: MK/WK TDES
      '01' +
      wkenc('pin', 1).toString('hex').toUpperCase() +
      '1' + // GOC_RISKMAN
      '00000000' +
      '00' +
      '00000000' +
      '00' +
      '000'; // GOC_ACQPRLEN
    const raw = await host.exchange(Buffer.concat([fixed('GOC', block1), Buffer.from('003000003000', 'latin1')]));
    expect(head(raw)).toBe('GOC000');
    const data = raw.subarray(9).toString('latin1');
    expect(data[0]).toBe('2');
    expect(data[5]).toBe('1'); // GOC_PINONL
    expect(data.slice(22, 42)).toBe('0'.repeat(20));
    const block = tdesDecrypt(testWorkingKey('pin'), Buffer.from(data.slice(6, 22), 'hex'));
    expect(pinOfBlock(block, TEST_CARDS.visaCredit.pan)).toBe(TEST_CARDS.visaCredit.pin);
  });

  it('answers ST_ERRKEY (042) before the PIN screen when the MK slot is empty, for GPN and GOX', async () => {
    const { sim, host } = await open({ keySlots: 'dukpt', autoCustomer: { delayMs: 1, card: 'visaCredit' } });
    expect(head(await host.exchange(gpn('1', 1, wkenc('pin', 1), '4111111111111111')))).toBe('GPN042');
    expect(sim.display.lines.join('|')).not.toContain('SENHA');
    await readCard(host);
    const gox = abecs(
      'GOX',
      tlv(SPE.ACQREF, '01'),
      tlv(SPE.MTHDPIN, '1'),
      tlv(SPE.KEYIDX, '01'),
      tlv(SPE.WKENC, wkenc('pin', 1)),
    );
    expect(head(await host.exchange(gox))).toBe('GOX042');
  });

  it('answers GOX019 without SPE_WKENC and GOX011 with the B8 of a DES working key', async () => {
    const { host } = await open({ keySlots: 'mkwk', autoCustomer: { delayMs: 1, card: 'visaCredit' } });
    await readCard(host);
    const base = [tlv(SPE.ACQREF, '01'), tlv(SPE.MTHDPIN, '1'), tlv(SPE.KEYIDX, '01')];
    expect(head(await host.exchange(abecs('GOX', ...base)))).toBe('GOX019');
    expect(head(await host.exchange(abecs('GOX', ...base, tlv(SPE.WKENC, Buffer.alloc(8)))))).toBe('GOX011');
  });
});

/** GTK of the swiped card's PAN and track 2 with `params` (S220 §3.3.12). */
async function gtk(host: RawHost, ...params: Buffer[]): Promise<Buffer> {
  return host.exchange(abecs('GTK', tlv(SPE.TRACKS, '1010'), ...params));
}

async function swiped(sim: PinpadSimulator, host: RawHost): Promise<void> {
  sim.swipeCard('visaMagstripe');
  await readCard(host);
}

const card = TEST_CARDS.visaMagstripe;

describe('GTK under MK/WK ("10"/"11")', () => {
  it('ECB: PAN and track 2 open under the working key the host sent', async () => {
    const { sim, host } = await open({ keySlots: 'mkwk' });
    await swiped(sim, host);
    const raw = await gtk(host, tlv(SPE.MTHDDAT, '10'), tlv(SPE.KEYIDX, '01'), tlv(SPE.WKENC, wkenc('data', 1)));
    expect(head(raw)).toBe('GTK000');
    const items = responseItems(raw);
    const key = tdesDecrypt(testMasterKey('data', 1), wkenc('data', 1));
    expect(unpack(tdesDecrypt(key, items.get(PP.ENCPAN)!))).toBe(card.pan);
    expect(unpack(tdesDecrypt(key, items.get(PP.TRACK2)!))).toBe(track2Of(card));
    expect(items.has(PP.TRK2KSN)).toBe(false);
  });

  it('CBC: each field chained from SPE_IVCBC, with the open digits SPE_OPNDIG asks left in clear', async () => {
    const { sim, host } = await open({ keySlots: 'mkwk' });
    await swiped(sim, host);
    const iv = hex('0102030405060708');
    const raw = await gtk(
      host,
      tlv(SPE.MTHDDAT, '11'),
      tlv(SPE.KEYIDX, '01'),
      tlv(SPE.WKENC, wkenc('data', 1)),
      tlv(SPE.IVCBC, iv),
      tlv(0x08, '4'),
    );
    const track2 = responseItems(raw).get(PP.TRACK2)!;
    expect(track2.subarray(0, 2).toString('hex')).toBe(card.pan.slice(0, 4));
    const rest = tdesCbcDecrypt(testWorkingKey('data'), track2.subarray(2), iv);
    expect(unpack(Buffer.concat([track2.subarray(0, 2), rest]))).toBe(track2Of(card));
  });

  it('answers GTK019 without SPE_WKENC, GTK042 when the data MK slot is empty — and keeps the tracks for a retry', async () => {
    const { sim, host } = await open({ keySlots: 'trace' });
    await swiped(sim, host);
    expect(head(await gtk(host, tlv(SPE.MTHDDAT, '10'), tlv(SPE.KEYIDX, '02')))).toBe('GTK019');
    expect(head(await gtk(host, tlv(SPE.MTHDDAT, '10'), tlv(SPE.KEYIDX, '01'), tlv(SPE.WKENC, wkenc('data', 1))))).toBe(
      'GTK042',
    );
    expect(head(await gtk(host, tlv(SPE.MTHDDAT, '50'), tlv(SPE.KEYIDX, '01')))).toBe('GTK042');
    // The trace's loadout: data master key 02.
    const raw = await gtk(host, tlv(SPE.MTHDDAT, '10'), tlv(SPE.KEYIDX, '02'), tlv(SPE.WKENC, wkenc('data', 2)));
    expect(unpack(tdesDecrypt(testWorkingKey('data'), responseItems(raw).get(PP.TRACK2)!))).toBe(track2Of(card));
  });
});

describe('GTK under a random key ("90"/"91", S220 §5.4.2)', () => {
  it('seals the tracks under KRAND and returns KRAND in the PKCS #1 block under the host key (PP_ENCKRAND)', async () => {
    const { sim, host } = await open({ keySlots: 'pinOnly' });
    const pair = hostKeyPair();
    const random = (method: string, ...extra: Buffer[]): Buffer[] => [
      tlv(SPE.MTHDDAT, method),
      tlv(SPE.PBKMOD, pair.modulus),
      tlv(SPE.PBKEXP, pair.exponent),
      ...extra,
    ];
    await swiped(sim, host);
    // No data key at all: DUKPT is refused, the random key sells.
    expect(head(await gtk(host, tlv(SPE.MTHDDAT, '50'), tlv(SPE.KEYIDX, '01')))).toBe('GTK042');
    const first = responseItems(await gtk(host, ...random('90')));
    expect(first.get(PP.ENCKRAND)).toHaveLength(256);
    const krand1 = keyOfBlock(pair.open(first.get(PP.ENCKRAND)!));
    expect(unpack(tdesDecrypt(krand1, first.get(PP.ENCPAN)!))).toBe(card.pan);
    expect(unpack(tdesDecrypt(krand1, first.get(PP.TRACK2)!))).toBe(track2Of(card));

    await swiped(sim, host);
    const iv = hex('A1A2A3A4A5A6A7A8');
    const second = responseItems(await gtk(host, ...random('91', tlv(SPE.IVCBC, iv))));
    const krand2 = keyOfBlock(pair.open(second.get(PP.ENCKRAND)!));
    expect(unpack(tdesCbcDecrypt(krand2, second.get(PP.TRACK2)!, iv))).toBe(track2Of(card));
    // A fresh KRAND on every GTK, never reused.
    expect(krand2.equals(krand1)).toBe(false);
  });

  it('answers GTK019 without SPE_PBKMOD or SPE_PBKEXP, and GTK011 for a key no PINPAD can encrypt under', async () => {
    const { sim, host } = await open({ keySlots: 'pinOnly' });
    const pair = hostKeyPair();
    await swiped(sim, host);
    expect(head(await gtk(host, tlv(SPE.MTHDDAT, '90'), tlv(SPE.PBKEXP, pair.exponent)))).toBe('GTK019');
    expect(head(await gtk(host, tlv(SPE.MTHDDAT, '90'), tlv(SPE.PBKMOD, pair.modulus)))).toBe('GTK019');
    expect(
      head(
        await gtk(
          host,
          tlv(SPE.MTHDDAT, '90'),
          tlv(SPE.PBKMOD, pair.modulus.subarray(1)),
          tlv(SPE.PBKEXP, pair.exponent),
        ),
      ),
    ).toBe('GTK011');
    expect(
      head(await gtk(host, tlv(SPE.MTHDDAT, '90'), tlv(SPE.PBKMOD, pair.modulus), tlv(SPE.PBKEXP, hex('02')))),
    ).toBe('GTK011');
    // No SPE_KEYIDX is needed with "9x".
    expect(
      head(await gtk(host, tlv(SPE.MTHDDAT, '90'), tlv(SPE.PBKMOD, pair.modulus), tlv(SPE.PBKEXP, pair.exponent))),
    ).toBe('GTK000');
  });
});

/** The acquirer's host: the DUKPT key of `ksn` from the test BDK. */
const ipekOf = (ksn: Buffer): Buffer => initialKey(TEST_BDK, withCounter(ksn, 0));

describe('EBX (S220 §3.3.6, §6.5.6)', () => {
  const data = Buffer.from('DADO A SER CRIPTOGRAFADO', 'latin1');

  it('encrypts SPE_DATAIN under MK/WK, ECB and CBC, with no PP_KSN', async () => {
    const { host } = await open({ keySlots: 'mkwk' });
    const ecb = responseItems(
      await host.exchange(
        abecs(
          'EBX',
          tlv(SPE.DATAIN, data),
          tlv(SPE.MTHDDAT, '10'),
          tlv(SPE.KEYIDX, '01'),
          tlv(SPE.WKENC, wkenc('data', 1)),
        ),
      ),
    );
    expect(tdesDecrypt(testWorkingKey('data'), ecb.get(PP.DATAOUT)!)).toEqual(data);
    expect(ecb.has(PP.KSN)).toBe(false);
    const iv = hex('1122334455667788');
    const cbc = responseItems(
      await host.exchange(
        abecs(
          'EBX',
          tlv(SPE.DATAIN, data),
          tlv(SPE.MTHDDAT, '11'),
          tlv(SPE.KEYIDX, '01'),
          tlv(SPE.WKENC, wkenc('data', 1)),
          tlv(SPE.IVCBC, iv),
        ),
      ),
    );
    expect(tdesCbcDecrypt(testWorkingKey('data'), cbc.get(PP.DATAOUT)!, iv)).toEqual(data);
  });

  it('encrypts under DUKPT DAT#3 ("50", "51") and DAT#1 ("30") with the KSN of this use', async () => {
    const { host } = await open({ keySlots: 'dukpt' });
    const call = async (method: string): Promise<Map<number, Buffer>> =>
      responseItems(
        await host.exchange(abecs('EBX', tlv(SPE.DATAIN, data), tlv(SPE.MTHDDAT, method), tlv(SPE.KEYIDX, '01'))),
      );
    const ecb = await call('50');
    const ksn1 = ecb.get(PP.KSN)!;
    expect(tdesDecrypt(dataKey(ipekOf(ksn1), ksn1), ecb.get(PP.DATAOUT)!)).toEqual(data);
    const cbc = await call('51');
    const ksn2 = cbc.get(PP.KSN)!;
    expect(ksn2.equals(ksn1)).toBe(false);
    expect(tdesCbcDecrypt(dataKey(ipekOf(ksn2), ksn2), cbc.get(PP.DATAOUT)!)).toEqual(data);
    const mac = await call('30');
    const ksn3 = mac.get(PP.KSN)!;
    const variant = hex('000000000000FF00000000000000FF00');
    const dat1 = Buffer.from(transactionKey(ipekOf(ksn3), ksn3).map((byte, i) => byte ^ variant[i]!));
    expect(tdesDecrypt(dat1, mac.get(PP.DATAOUT)!)).toEqual(data);
  });

  it('answers 019 for a missing mandatory parameter, 011 for a bad length or method, 042 for an empty slot', async () => {
    const { host } = await open({ keySlots: 'dukpt' });
    const ask = async (...params: Buffer[]): Promise<string> => head(await host.exchange(abecs('EBX', ...params)));
    expect(await ask(tlv(SPE.MTHDDAT, '50'), tlv(SPE.KEYIDX, '01'))).toBe('EBX019');
    expect(await ask(tlv(SPE.DATAIN, data), tlv(SPE.KEYIDX, '01'))).toBe('EBX019');
    expect(await ask(tlv(SPE.DATAIN, data), tlv(SPE.MTHDDAT, '50'))).toBe('EBX019');
    expect(await ask(tlv(SPE.DATAIN, data), tlv(SPE.MTHDDAT, '10'), tlv(SPE.KEYIDX, '01'))).toBe('EBX019');
    expect(await ask(tlv(SPE.DATAIN, data.subarray(1)), tlv(SPE.MTHDDAT, '50'), tlv(SPE.KEYIDX, '01'))).toBe('EBX011');
    expect(await ask(tlv(SPE.DATAIN, Buffer.alloc(264)), tlv(SPE.MTHDDAT, '50'), tlv(SPE.KEYIDX, '01'))).toBe('EBX011');
    expect(await ask(tlv(SPE.DATAIN, data), tlv(SPE.MTHDDAT, '90'), tlv(SPE.KEYIDX, '01'))).toBe('EBX011');
    expect(await ask(tlv(SPE.DATAIN, data), tlv(SPE.MTHDDAT, '50'), tlv(SPE.KEYIDX, '02'))).toBe('EBX042');
    expect(
      await ask(tlv(SPE.DATAIN, data), tlv(SPE.MTHDDAT, '10'), tlv(SPE.KEYIDX, '01'), tlv(SPE.WKENC, wkenc('data', 1))),
    ).toBe('EBX042');
  });

  it('answers the TRACE EBX044 on the ppc930 profile: 8 bytes under data master key 02', async () => {
    const { host } = await open({ profile: 'ppc930' });
    const trace = hex(
      '45 42 58 30 34 34 00 0F 00 08 0C 5A 40 7B F1 F8 26 DC 00 03 00 02 31 30 00 09 00 02 30 32 00 0A 00 10 2C C3 0C F8 82 FB 88 77 AA 6A D6 35 3B E4 4F 32',
    );
    const raw = await host.exchange(trace);
    expect(head(raw)).toBe('EBX000');
    expect(raw.subarray(6, 9).toString('latin1')).toBe('012');
    const key = tdesDecrypt(testMasterKey('data', 2), hex('2CC30CF882FB8877AA6AD6353BE44F32'));
    expect(tdesDecrypt(key, responseItems(raw).get(PP.DATAOUT)!)).toEqual(hex('0C5A407BF1F826DC'));
  });
});

describe('key loadouts', () => {
  it('names the four loadouts stores have, each listing every key type', () => {
    expect(KEY_LOADOUT_NAMES).toEqual(['dukpt', 'mkwk', 'pinOnly', 'trace']);
    for (const loadout of Object.values(KEY_LOADOUTS)) {
      expect(Object.keys(loadout.slots).sort()).toEqual(['dukptData', 'dukptPin', 'mkData', 'mkPin']);
      expect(loadout.description.length).toBeGreaterThan(20);
    }
    expect(() => new PinpadSimulator({ keySlots: 'bogus' as 'dukpt' })).toThrow(/no key loadout named "bogus"/);
  });

  it('reports the trace loadout in the GIX key maps: DUKPT PIN 01, MK data 02, nothing else', async () => {
    const { host } = await open({ keySlots: 'trace' });
    const raw = await host.exchange(abecs('GIX', tlv(SPE.IDLIST, hex('8032 8033 8035 8036'))));
    const maps = responseItems(raw);
    const slots = (id: number): number[] =>
      [...maps.get(id)!.toString('latin1')].flatMap((flag, slot) => (flag === '1' ? [slot] : []));
    expect(slots(0x8032)).toEqual([]);
    expect(slots(0x8033)).toEqual([2]);
    expect(slots(0x8035)).toEqual([1]);
    expect(slots(0x8036)).toEqual([]);
  });
});
