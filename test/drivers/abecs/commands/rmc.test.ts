import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rmcCommand } from '../../../../drivers/abecs/commands/rmc.js';
import { encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { checkGarbage, checkRequestRoundTrip, checkResponseRoundTrip, display2x16 } from './basic-arbitraries.js';

describe('RMC codec', () => {
  it('is a blocking command', () => {
    expect(rmcCommand.blocking).toBe(true);
  });

  it('sends RMC032 with the 2×16 message', () => {
    expect(
      encodeCommandPacket(rmcCommand.encodeRequest({ message: 'OBRIGADO\nVOLTE SEMPRE' })).toString('latin1'),
    ).toBe('RMC032OBRIGADO        VOLTE SEMPRE    ');
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(
      rmcCommand,
      display2x16.map((message) => ({ message })),
    );
    checkResponseRoundTrip(rmcCommand, fc.constant({}));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(rmcCommand);
  });
});
