import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gkyCommand, type GkyKey } from '../../../../drivers/abecs/commands/gky.js';
import { encodeCommandPacket, encodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsStatusError } from '../../../../drivers/abecs/status.js';
import { checkGarbage, checkRequestRoundTrip, checkResponseRoundTrip } from './basic-arbitraries.js';

const KEYS: GkyKey[] = ['enter', 'f1', 'f2', 'f3', 'f4', 'clear', 'cancel'];

describe('GKY codec', () => {
  it('is blocking and treats the key statuses as results', () => {
    expect(gkyCommand.blocking).toBe(true);
    expect(gkyCommand.resultStatuses).toEqual([4, 5, 6, 7, 8, 13]);
  });

  it('sends a bare GKY', () => {
    expect(encodeCommandPacket(gkyCommand.encodeRequest({})).toString('latin1')).toBe('GKY');
  });

  it('returns the key from RSP_STAT', () => {
    const statuses: Record<GkyKey, string> = {
      enter: 'GKY000',
      f1: 'GKY004',
      f2: 'GKY005',
      f3: 'GKY006',
      f4: 'GKY007',
      clear: 'GKY008',
      cancel: 'GKY013',
    };
    for (const key of KEYS) {
      expect(encodeResponsePacket(gkyCommand.encodeResponse({ key })).toString('latin1')).toBe(statuses[key]);
      expect(gkyCommand.decodeResponse({ id: 'GKY', status: Number(statuses[key].slice(3)), blocks: [] })).toEqual({
        key,
      });
    }
  });

  it('reports a real error status as AbecsStatusError', () => {
    expect(() => gkyCommand.decodeResponse({ id: 'GKY', status: 12, blocks: [] })).toThrow(AbecsStatusError);
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(gkyCommand, fc.constant({}));
    checkResponseRoundTrip(
      gkyCommand,
      fc.constantFrom(...KEYS).map((key) => ({ key })),
    );
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(gkyCommand);
  });
});
