import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CEX_EVENT_CODES, cexCommand, type CexEvent } from '../../../../drivers/abecs/commands/cex.js';
import { decodeCommandPacket, decodeResponsePacket, encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { PP, SPE } from '../../../../drivers/abecs/ids.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import {
  asciiText,
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  fromHex,
} from './basic-arbitraries.js';

describe('CEX codec', () => {
  it('is blocking', () => {
    expect(cexCommand.blocking).toBe(true);
  });

  it('encodes the TRACE request CEX010 00 06 00 06 "111100"', () => {
    const pkt = encodeCommandPacket(
      cexCommand.encodeRequest({ key: true, magstripe: true, icc: 'insertion', contactless: true }),
    );
    expect(pkt).toEqual(Buffer.concat([Buffer.from('CEX010'), fromHex('00 06 00 06'), Buffer.from('111100')]));
  });

  it('decodes the TRACE request', () => {
    const cmd = decodeCommandPacket(
      Buffer.concat([Buffer.from('CEX010'), fromHex('00 06 00 06'), Buffer.from('111100')]),
    );
    expect(cexCommand.decodeRequest(cmd)).toEqual({ key: true, magstripe: true, icc: 'insertion', contactless: true });
  });

  it('decodes the TRACE response CEX000006 80 40 00 02 "94" as a contactless card', () => {
    const rsp = decodeResponsePacket(
      Buffer.concat([Buffer.from('CEX000006'), fromHex('80 40 00 02'), Buffer.from('94')]),
    );
    expect(cexCommand.decodeResponse(rsp)).toEqual({ event: 'contactlessDetected' });
  });

  it('writes the ICC digit for removal and adds timeout and PAN mask', () => {
    const cmd = cexCommand.encodeRequest({
      key: false,
      magstripe: false,
      icc: 'removal',
      contactless: false,
      timeoutSeconds: 30,
      panMask: { left: 6, right: 4 },
    });
    expect(cmd.blocks[0]).toEqual(
      Buffer.concat([
        encodeTlv(SPE.CEXOPT, Buffer.from('002000')),
        encodeTlv(SPE.TIMEOUT, Buffer.of(30)),
        encodeTlv(SPE.PANMASK, Buffer.from('0604')),
      ]),
    );
  });

  it('accepts any SPE_CEXOPT length, unknown characters counting as "0"', () => {
    expect(cexCommand.decodeRequest({ id: 'CEX', blocks: [encodeTlv(SPE.CEXOPT, Buffer.from('1X'))] })).toEqual({
      key: true,
      magstripe: false,
      icc: 'ignore',
      contactless: false,
    });
  });

  it('returns the truncated tracks of a swipe', () => {
    const rsp = {
      id: 'CEX',
      status: 0,
      blocks: [
        Buffer.concat([
          encodeTlv(PP.EVENT, Buffer.from('90')),
          encodeTlv(PP.TRK2INC, Buffer.from('4761739001010010=2212201')),
        ]),
      ],
    };
    expect(cexCommand.decodeResponse(rsp)).toEqual({
      event: 'cardSwiped',
      tracks: { track2: '4761739001010010=2212201' },
    });
  });

  it('maps every event code', () => {
    expect(CEX_EVENT_CODES).toMatchObject({
      enter: '00',
      f1: '04',
      clear: '08',
      cancel: '13',
      iccInserted: '92',
      contactlessTimeout: '93',
    });
  });

  it('rejects an unknown event and a missing SPE_CEXOPT', () => {
    expect(() =>
      cexCommand.decodeResponse({ id: 'CEX', status: 0, blocks: [encodeTlv(PP.EVENT, Buffer.from('55'))] }),
    ).toThrow(AbecsFormatError);
    expect(() => cexCommand.decodeRequest({ id: 'CEX', blocks: [] })).toThrow(/SPE_CEXOPT is missing/);
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(
      cexCommand,
      fc.record(
        {
          key: fc.boolean(),
          magstripe: fc.boolean(),
          icc: fc.constantFrom('ignore' as const, 'insertion' as const, 'removal' as const),
          contactless: fc.boolean(),
          timeoutSeconds: fc.integer({ min: 0, max: 255 }),
          panMask: fc.record({ left: fc.integer({ min: 0, max: 99 }), right: fc.integer({ min: 0, max: 99 }) }),
        },
        { requiredKeys: ['key', 'magstripe', 'icc', 'contactless'] },
      ),
    );
    const events = Object.keys(CEX_EVENT_CODES) as CexEvent[];
    const tracks = fc
      .record({ track1: asciiText(60), track2: asciiText(30), track3: asciiText(30) }, { requiredKeys: [] })
      .filter((t) => Object.keys(t).length > 0);
    checkResponseRoundTrip(
      cexCommand,
      fc.record({ event: fc.constantFrom(...events), tracks }, { requiredKeys: ['event'] }),
    );
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(cexCommand, [SPE.CEXOPT, SPE.TIMEOUT, SPE.PANMASK, PP.EVENT, PP.TRK1INC, PP.TRK2INC]);
  });
});
