/**
 * GTS, TLI, TLR and TLE (S220 §3.5, §6.7) with the spec's examples.
 */
import { describe, expect, it } from 'vitest';
import { GTS, TLE, TLI, TLR } from '../../../../drivers/simulator/wire/commands/tables.js';
import { STRICT } from '../../../../drivers/simulator/wire/command.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { answer, decode, latin1, refusal } from './bytes.js';

describe('GTS (§3.5.1)', () => {
  it('reads GTS_ACQIDX of the example (GTS00202) and writes its answer GTS000010XEMVST0003', () => {
    expect(decode(GTS, 'GTS00202')).toEqual({ acquirer: 2 });
    expect(answer(GTS, { tableVersion: 'XEMVST0003' })).toEqual(latin1('GTS000010XEMVST0003'));
    expect(answer(GTS, { tableVersion: '0000000000' })).toEqual(latin1('GTS0000100000000000'));
  });

  it('answers ST_MANDAT without the field and ST_INVPARM when it is not N2', () => {
    expect(refusal(GTS, 'GTS')).toBe(ST.MANDAT);
    expect(refusal(GTS, 'GTS0020A')).toBe(ST.INVPARM);
    expect(refusal(GTS, 'GTS003020')).toBe(ST.INVPARM);
  });
});

describe('TLI (§3.5.2, §6.7.2)', () => {
  it('reads the example TLI01200TABVER0008 (every acquirer, version "TABVER0008")', () => {
    expect(decode(TLI, 'TLI01200TABVER0008')).toEqual({ acquirer: 0, tableVersion: 'TABVER0008' });
  });

  it('answers TLI020 (ST_TABVERDIF, informative) when the version differs, TLI000 when it matches', () => {
    expect(answer(TLI, { versionDiffers: true })).toEqual(latin1('TLI020'));
    expect(answer(TLI, { versionDiffers: false })).toEqual(latin1('TLI000'));
  });

  it("does not judge TLI_TABVER's content, zeros included (§6.7.2), but wants its 12 bytes", () => {
    expect(decode(TLI, 'TLI012010000000000')).toEqual({ acquirer: 1, tableVersion: '0000000000' });
    expect(refusal(TLI, 'TLI01101TABVER000')).toBe(ST.INVPARM);
    expect(refusal(TLI, 'TLI')).toBe(ST.MANDAT);
  });
});

describe('TLR (§3.5.3, §6.7.3)', () => {
  it('delivers the records as received; an empty TLR_NREC "00" is a valid TLR', () => {
    const record = '026' + '3' + '02' + '23' + 'A000000004FE333333';
    expect(decode(TLR, `TLR028${'01'}${record}`)).toEqual({ records: [latin1(record)] });
    expect(decode(TLR, 'TLR00200')).toEqual({ records: [] });
    expect(answer(TLR, {})).toEqual(latin1('TLR000'));
  });

  it('answers ST_INVPARM when the records do not add up and ST_MANDAT without data', () => {
    expect(refusal(TLR, 'TLR00201')).toBe(ST.INVPARM);
    expect(refusal(TLR, 'TLR0019')).toBe(ST.INVPARM);
    expect(refusal(TLR, 'TLR')).toBe(ST.MANDAT);
  });
});

describe('TLE (§3.5.4)', () => {
  it('takes no parameter (TLE) and answers TLE000', () => {
    expect(decode(TLE, 'TLE')).toEqual({});
    expect(decode(TLE, 'TLE000')).toEqual({});
    expect(refusal(TLE, 'TLE0011', STRICT)).toBe(ST.INVPARM);
    expect(answer(TLE, {})).toEqual(latin1('TLE000'));
  });
});
