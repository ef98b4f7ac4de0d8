import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloCommand } from '../../../../drivers/abecs/commands/clo.js';
import { decodeResponsePacket, encodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { encodeFrame } from '../../../../drivers/abecs/frame.js';
import { AbecsStatusError } from '../../../../drivers/abecs/status.js';
import {
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  display2x16,
  hex,
  wireHex,
} from './basic-arbitraries.js';

describe('CLO codec', () => {
  it('sends CLO032 with the message laid out on 2×16 (spec example)', () => {
    const cmd = cloCommand.encodeRequest({ message: 'POSTO FORÇA 10\nOBRIGADO!!!' });
    expect(cmd.blocks[0]!.toString('latin1')).toBe('POSTO FORÇA 10  OBRIGADO!!!     ');
    expect(cmd.blocks[0]![9]).toBe(0xc7);
  });

  it('sends a bare CLO when the message is empty', () => {
    expect(cloCommand.encodeRequest({})).toEqual({ id: 'CLO', blocks: [] });
    expect(wireHex(cloCommand.encodeRequest({ message: '' }))).toBe(wireHex({ id: 'CLO', blocks: [] }));
  });

  it('answers CLO000 (worked frame 16 43 4C 4F 30 30 30 17 9E 03)', () => {
    expect(hex(encodeFrame(encodeResponsePacket(cloCommand.encodeResponse({}))))).toBe('16 43 4C 4F 30 30 30 17 9E 03');
    expect(cloCommand.decodeResponse(decodeResponsePacket(Buffer.from('CLO000000')))).toEqual({});
  });

  it('shows an inconsistent CLO_MSG instead of refusing it', () => {
    expect(cloCommand.decodeRequest({ id: 'CLO', blocks: [Buffer.from('OBRIGADO')] })).toEqual({
      message: 'OBRIGADO'.padEnd(32, ' '),
    });
  });

  it('accepts the legacy 015 PP_NOTOPEN as a successful close', () => {
    expect(cloCommand.resultStatuses).toEqual([15]);
    expect(cloCommand.decodeResponse({ id: 'CLO', status: 15, blocks: [] })).toEqual({});
  });

  it('turns an error status into an AbecsStatusError', () => {
    expect(() => cloCommand.decodeResponse({ id: 'CLO', status: 40, blocks: [] })).toThrow(AbecsStatusError);
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(
      cloCommand,
      fc.oneof(
        fc.constant({}),
        display2x16.map((message) => ({ message })),
      ),
    );
    checkResponseRoundTrip(cloCommand, fc.constant({}));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(cloCommand);
  });
});
