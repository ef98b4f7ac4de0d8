import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { gpnCommand, type GpnRequest } from '../../../../drivers/abecs/commands/gpn.js';
import { decodeResponsePacket, encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import {
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  display2x16,
  upperHex,
} from './basic-arbitraries.js';

const PIN_BLOCK = '0123456789ABCDEF';
const KSN = 'FFFF9876543210E00001';

describe('GPN codec', () => {
  it('is blocking', () => {
    expect(gpnCommand.blocking).toBe(true);
  });

  it('lays out the 93-byte GPN093 command', () => {
    const pkt = encodeCommandPacket(
      gpnCommand.encodeRequest({
        method: 'dukpt',
        keyIndex: 2,
        pan: '4761739001010010',
        minDigits: 4,
        maxDigits: 12,
        message: 'VALOR: 10,00\nSENHA:',
      }),
    ).toString('latin1');
    expect(pkt).toBe(
      'GPN093' +
        '3' +
        '02' +
        '0'.repeat(32) +
        '16' +
        '4761739001010010   ' +
        '1' +
        '04' +
        '12' +
        'VALOR: 10,00    SENHA:          ',
    );
  });

  it('sends PANLEN 00 to use the card read by CEX/GCX', () => {
    const block = gpnCommand.encodeRequest({
      method: 'dukpt',
      keyIndex: 1,
      minDigits: 4,
      maxDigits: 6,
      message: 'SENHA:',
    }).blocks[0]!;
    expect(block.toString('latin1', 35, 37)).toBe('00');
  });

  it('decodes GPN000036 into the PIN block and KSN', () => {
    const rsp = decodeResponsePacket(Buffer.from(`GPN000036${PIN_BLOCK}${KSN}`));
    expect(gpnCommand.decodeResponse(rsp)).toEqual({ pinBlock: PIN_BLOCK, ksn: KSN });
  });

  it('never puts the PIN block or KSN in an error message', () => {
    const truncated = decodeResponsePacket(Buffer.from(`GPN000030${PIN_BLOCK}${KSN.slice(0, 14)}`));
    try {
      gpnCommand.decodeResponse(truncated);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AbecsFormatError);
      expect((error as Error).message).not.toContain(PIN_BLOCK);
      expect((error as Error).message).not.toContain(KSN.slice(0, 14));
    }
  });

  it('validates the request before sending it', () => {
    const base: GpnRequest = {
      method: 'mkwk',
      keyIndex: 1,
      workingKey: 'A'.repeat(32),
      minDigits: 4,
      maxDigits: 12,
      message: '',
    };
    expect(() => gpnCommand.encodeRequest({ ...base, workingKey: undefined })).toThrow(InvalidArgumentError);
    expect(() => gpnCommand.encodeRequest({ ...base, minDigits: 3 })).toThrow(/4 ≤ minimum/);
    expect(() => gpnCommand.encodeRequest({ ...base, pan: '4761-7390' })).toThrow(/2 to 19 digits/);
    expect(() => gpnCommand.encodeRequest({ ...base, pan: '4761739001010010' })).not.toThrow();
  });

  it('round-trips requests and results', () => {
    const common = {
      keyIndex: fc.integer({ min: 0, max: 99 }),
      pan: fc.stringMatching(/^[0-9]{2,19}$/),
      message: display2x16,
    };
    const limits = fc
      .tuple(fc.integer({ min: 4, max: 12 }), fc.integer({ min: 4, max: 12 }))
      .map(([a, b]) => ({ minDigits: Math.min(a, b), maxDigits: Math.max(a, b) }));
    const dukpt = fc
      .tuple(fc.record(common, { requiredKeys: ['keyIndex', 'message'] }), limits)
      .map(([fields, digits]): GpnRequest => ({ method: 'dukpt', ...fields, ...digits }));
    const mkwk = fc
      .tuple(fc.record(common, { requiredKeys: ['keyIndex', 'message'] }), limits, upperHex(32))
      .map(([fields, digits, workingKey]): GpnRequest => ({ method: 'mkwk', workingKey, ...fields, ...digits }));
    checkRequestRoundTrip(gpnCommand, fc.oneof(dukpt, mkwk));
    checkResponseRoundTrip(gpnCommand, fc.record({ pinBlock: upperHex(16), ksn: upperHex(20) }));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(gpnCommand);
  });
});
