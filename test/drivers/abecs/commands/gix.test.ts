import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import {
  decodeGixInfo,
  encodeGixInfo,
  gixCommand,
  gixResult,
  keySlotState,
  type GixItem,
} from '../../../../drivers/abecs/commands/gix.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { PP, SPE } from '../../../../drivers/abecs/ids.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import {
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  formatErrorOf,
  fromHex,
  wireHex,
} from './basic-arbitraries.js';

const item = (id: number, value: string): GixItem => ({ id, value: Buffer.from(value, 'latin1') });
const keyMap = (loaded: number[]): string =>
  Array.from({ length: 100 }, (_, slot) => (loaded.includes(slot) ? '1' : slot >= 90 ? '2' : '0')).join('');

/** A PPC-930-like answer to a bare GIX (values as in the TRACE where it shows them). */
const TRACE_ITEMS: GixItem[] = [
  item(PP.SERNUM, '7200032211005539'),
  item(PP.PARTNBR, 'PPC-930'),
  item(PP.MODEL, 'PPC-930;192MB'),
  item(PP.MNNAME, 'GERTEC'),
  item(PP.CAPAB, '1200000000'),
  item(PP.SOVER, 'PPC930-1.0.3'),
  item(PP.SPECVER, '2.12'),
  item(PP.MANVERS, '001.02 190501   '),
  item(PP.APPVERS, '002.12 190501   '),
  item(PP.GENVERS, '000.00 000000   '),
  item(PP.KRNLVER, 'EMV 4.3i'),
  item(PP.CTLSVER, 'CTLS 1.0'),
  item(PP.MCTLSVER, 'PP 3.1.2'),
  item(PP.VCTLSVER, 'payWave 2.2'),
  item(PP.DSPTXTSZ, '0816'),
  item(PP.DSPGRSZ, '03200240'),
  item(PP.MFSUP, '11'),
  item(0x8030, keyMap([])),
  item(0x8031, keyMap([])),
  item(PP.MKTDESP, keyMap([2])),
  item(PP.MKTDESD, keyMap([2])),
  item(0x8034, keyMap([])),
  item(PP.DKPTTDESP, keyMap([1, 5])),
  item(PP.DKPTTDESD, keyMap([])),
];

describe('GIX codec', () => {
  it('reproduces the worked frame GIX000 (16 47 49 58 30 30 30 17 7F 4A) when asking for everything', () => {
    expect(wireHex(gixCommand.encodeRequest({}))).toBe('16 47 49 58 30 30 30 17 7F 4A');
    expect(wireHex(gixCommand.encodeRequest({ ids: [] }))).toBe('16 47 49 58 30 30 30 17 7F 4A');
    expect(gixCommand.decodeRequest(decodeCommandPacket(Buffer.from('GIX000')))).toEqual({});
    expect(gixCommand.decodeRequest(decodeCommandPacket(Buffer.from('GIX')))).toEqual({});
  });

  it('encodes the TRACE GIX016 asking for 9001, 9101, 9105, 9300, 9304 and 9306', () => {
    const pkt = encodeCommandPacket(
      gixCommand.encodeRequest({ ids: [0x9001, 0x9101, 0x9105, 0x9300, 0x9304, 0x9306] }),
    );
    expect(pkt).toEqual(
      Buffer.concat([Buffer.from('GIX016'), fromHex('00 01 00 0C 90 01 91 01 91 05 93 00 93 04 93 06')]),
    );
  });

  it('decodes the TRACE GIX000056 answer into KSNs and table versions', () => {
    const ksn = fromHex('FF FF 98 76 54 32 10 E0 00 05');
    const rsp = decodeResponsePacket(
      Buffer.concat([
        Buffer.from('GIX000056'),
        encodeTlv(0x9101, ksn),
        encodeTlv(0x9300, Buffer.from('1807202408')),
        encodeTlv(0x9304, Buffer.from('1807202408')),
        encodeTlv(0x9306, Buffer.from('1807202408')),
      ]),
    );
    const result = gixCommand.decodeResponse(rsp);
    expect(result.dukptKsns).toEqual({ pin: { 1: 'FFFF9876543210E00005' }, data: {} });
    expect(result.tableVersions).toEqual({ 0: '1807202408', 4: '1807202408', 6: '1807202408' });
    expect(result.items.map((i) => i.id)).toEqual([0x9101, 0x9300, 0x9304, 0x9306]);
  });

  it('decodes the standard items into typed fields and keeps unknown ids', () => {
    const result = gixResult(TRACE_ITEMS);
    expect(result).toMatchObject({
      serialNumber: '7200032211005539',
      partNumber: 'PPC-930',
      model: 'PPC-930;192MB',
      manufacturer: 'GERTEC',
      capabilities: { raw: '1200000000', contactless: true, display: 'color', icc: 0, magstripe: 0, samSlots: 0 },
      osVersion: 'PPC930-1.0.3',
      specVersion: '2.12',
      managerVersion: '001.02 190501',
      appVersion: '002.12 190501',
      kernelVersions: { emv: 'EMV 4.3i', contactless: 'CTLS 1.0', mastercard: 'PP 3.1.2', visa: 'payWave 2.2' },
      displayText: { lines: 8, columns: 16 },
      displayGraphic: { height: 320, width: 240 },
      mediaSupport: { raw: '11', png: true, jpg: true, gif: false },
    });
    expect(result.keyMaps?.dukptPin?.loaded).toEqual([1, 5]);
    expect(result.keyMaps?.masterKeyPin?.loaded).toEqual([2]);
    expect(keySlotState(result.keyMaps!.dukptPin!, 5)).toBe('loaded');
    expect(keySlotState(result.keyMaps!.dukptPin!, 6)).toBe('absent');
    expect(keySlotState(result.keyMaps!.dukptPin!, 95)).toBe('unsupported');
    expect(result.items.filter((i) => i.id === 0x8030)).toHaveLength(1);
  });

  it('reads PP_COMMINFO, PP_TLRMEM and PP_BATTINFO of 2.20 PINPADs', () => {
    const info = decodeGixInfo([
      item(PP.COMMINFO, '1000'),
      { id: PP.TLRMEM, value: fromHex('00 01 00 00') },
      { id: PP.BATTINFO, value: fromHex('64 01') },
    ]);
    expect(info).toEqual({ commInfo: { raw: '1000', link: 'bluetooth' }, tableMemoryFree: 65536, batteryInfo: '6401' });
  });

  it('splits a large answer into blocks of at most 999 bytes and reads it back in order', () => {
    const many = [
      ...TRACE_ITEMS,
      ...Array.from({ length: 40 }, (_, acquirer) =>
        item(0x9300 + acquirer, `TAB${String(acquirer).padStart(7, '0')}`),
      ),
    ];
    const rsp = gixCommand.encodeResponse(gixResult(many));
    expect(rsp.blocks.length).toBeGreaterThan(1);
    for (const block of rsp.blocks) expect(block.length).toBeLessThanOrEqual(999);
    const decoded = gixCommand.decodeResponse(decodeResponsePacket(encodeResponsePacket(rsp)));
    expect(decoded.items).toEqual(many);
    expect(Object.keys(decoded.tableVersions!)).toHaveLength(40);
  });

  it('uses the first of repeated ids for the typed view', () => {
    expect(decodeGixInfo([item(PP.SPECVER, '2.12'), item(PP.SPECVER, '2.20')]).specVersion).toBe('2.12');
  });

  it('refuses more than 64 ids, and an odd SPE_IDLIST with ST_INVPARM', () => {
    expect(() => gixCommand.encodeRequest({ ids: Array.from({ length: 65 }, () => PP.SERNUM) })).toThrow(
      InvalidArgumentError,
    );
    const error = formatErrorOf(() =>
      gixCommand.decodeRequest({ id: 'GIX', blocks: [encodeTlv(SPE.IDLIST, fromHex('80 01 80'))] }),
    );
    expect(error).toMatchObject({ status: 11, code: 'MALFORMED_COMMAND' });
  });

  it('builds items from typed fields for the simulator', () => {
    const info = decodeGixInfo(TRACE_ITEMS.filter((i) => i.id !== 0x8030 && i.id !== 0x8031 && i.id !== 0x8034));
    expect(decodeGixInfo(encodeGixInfo(info))).toEqual(info);
    expect(() => encodeGixInfo({ displayText: { lines: 100, columns: 16 } })).toThrow(InvalidArgumentError);
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(
      gixCommand,
      fc.oneof(
        fc.constant({}),
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 64 }).map((ids) => ({ ids })),
      ),
    );
    const knownIds = [...Object.values(PP), 0x9101, 0x9205, 0x9300, 0x9363, 0x8030];
    const items = fc.array(
      fc.record({
        id: fc.oneof(fc.constantFrom(...knownIds), fc.integer({ min: 0, max: 0xffff })),
        value: fc.uint8Array({ maxLength: 120 }).map((b) => Buffer.from(b)),
      }),
      { maxLength: 20 },
    );
    checkResponseRoundTrip(gixCommand, items.map(gixResult));
  });

  it('keeps the typed view stable through encodeGixInfo', () => {
    const knownIds = [...Object.values(PP), 0x9101, 0x9205, 0x9300, 0x9363];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.constantFrom(...knownIds),
            value: fc
              .string({ unit: fc.constantFrom(...'0123456789 AB'.split('')), maxLength: 12 })
              .map((s) => Buffer.from(s)),
          }),
          { maxLength: 15 },
        ),
        (list) => {
          const info = decodeGixInfo(list);
          expect(decodeGixInfo(encodeGixInfo(info))).toEqual(info);
        },
      ),
    );
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(gixCommand, [SPE.IDLIST, PP.SERNUM, PP.DSPTXTSZ, 0x9300]);
    expect(() => gixCommand.decodeResponse({ id: 'GIX', status: 0, blocks: [fromHex('80 01 00 09 41')] })).toThrow(
      AbecsFormatError,
    );
  });
});
