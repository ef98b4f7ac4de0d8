import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { mnuCommand } from '../../../../drivers/abecs/commands/mnu.js';
import { decodeResponsePacket, encodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { PP, SPE } from '../../../../drivers/abecs/ids.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import {
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  displayText,
  formatErrorOf,
  freeText,
  fromHex,
} from './basic-arbitraries.js';

describe('MNU codec', () => {
  it('is blocking', () => {
    expect(mnuCommand.blocking).toBe(true);
  });

  it('sends timeout, title and the options in order', () => {
    const cmd = mnuCommand.encodeRequest({
      title: 'FORMA DE\nPAGAMENTO',
      options: ['1 CRÉDITO', '2 DÉBITO'],
      timeoutSeconds: 30,
    });
    expect(cmd.blocks).toEqual([
      Buffer.concat([
        encodeTlv(SPE.TIMEOUT, Buffer.of(30)),
        encodeTlv(SPE.DSPMSG, Buffer.from('FORMA DE\rPAGAMENTO', 'latin1')),
        encodeTlv(SPE.MNUOPT, Buffer.from('1 CRÉDITO', 'latin1')),
        encodeTlv(SPE.MNUOPT, Buffer.from('2 DÉBITO', 'latin1')),
      ]),
    ]);
  });

  it('decodes the spec example answer MNU000006 80 4D 00 02 "02"', () => {
    const rsp = decodeResponsePacket(
      Buffer.concat([Buffer.from('MNU000006'), fromHex('80 4D 00 02'), Buffer.from('02')]),
    );
    expect(mnuCommand.decodeResponse(rsp)).toEqual({ index: 2 });
    expect(encodeResponsePacket(mnuCommand.encodeResponse({ index: 2 }))).toEqual(
      Buffer.concat([Buffer.from('MNU000006'), encodeTlv(PP.VALUE, Buffer.from('02'))]),
    );
  });

  it('refuses no options, more than 20, and options over 24 characters', () => {
    expect(() => mnuCommand.encodeRequest({ options: [] })).toThrow(InvalidArgumentError);
    expect(() => mnuCommand.encodeRequest({ options: Array.from({ length: 21 }, (_, i) => `OPCAO ${i}`) })).toThrow(
      /1 to 20/,
    );
    expect(() => mnuCommand.encodeRequest({ options: ['X'.repeat(25)] })).toThrow(/1 to 24 characters; it has 25/);
  });

  it('answers ST_MANDAT when no option is sent', () => {
    const error = formatErrorOf(() =>
      mnuCommand.decodeRequest({ id: 'MNU', blocks: [encodeTlv(SPE.TIMEOUT, Buffer.of(5))] }),
    );
    expect(error.status).toBe(19);
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(
      mnuCommand,
      fc.record(
        {
          options: fc.array(displayText(24, 1), { minLength: 1, maxLength: 20 }),
          title: freeText(128),
          timeoutSeconds: fc.integer({ min: 0, max: 255 }),
        },
        { requiredKeys: ['options'] },
      ),
    );
    checkResponseRoundTrip(
      mnuCommand,
      fc.integer({ min: 1, max: 20 }).map((index) => ({ index })),
    );
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(mnuCommand, [SPE.MNUOPT, SPE.DSPMSG, SPE.TIMEOUT, PP.VALUE]);
  });
});
