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

  it('sends CLO032 with 32 spaces when there is no message, never a bare CLO (CMD_LEN1 fixed "032", S220 §3.2.6)', () => {
    const blank = { id: 'CLO', blocks: [Buffer.from(' '.repeat(32), 'latin1')] };
    expect(cloCommand.encodeRequest({})).toEqual(blank);
    expect(wireHex(cloCommand.encodeRequest({ message: '' }))).toBe(wireHex(blank));
    expect(wireHex(cloCommand.encodeRequest({}))).toMatch(/^16 43 4C 4F 30 33 32( 20){32} 17 /);
  });

  it('reads a blank CLO_MSG back as no message', () => {
    expect(cloCommand.decodeRequest({ id: 'CLO', blocks: [Buffer.from(' '.repeat(32))] })).toEqual({});
    expect(cloCommand.decodeRequest({ id: 'CLO', blocks: [] })).toEqual({});
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
        display2x16.filter((message) => message.trim() !== '').map((message) => ({ message })),
      ),
    );
    checkResponseRoundTrip(cloCommand, fc.constant({}));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(cloCommand);
  });
});
