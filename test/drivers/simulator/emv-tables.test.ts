/**
 * The simulated PINPAD selecting applications from loaded AID tables (S220 §4.1.1, §6.7,
 * §6.8.1, §6.9.1), specified on the wire: the tables go in with TLI/TLR/TLE as a host sends
 * them (docs/emv-tables.sample.json), cards are read with GCX/GCR, and the answers are checked
 * as a host decodes them.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandCodec } from '../../../drivers/abecs/codec.js';
import { gcrCommand, type GcrStartRequest } from '../../../drivers/abecs/commands/gcr.js';
import { gcxCommand, type GcxRequest } from '../../../drivers/abecs/commands/gcx.js';
import { goxCommand } from '../../../drivers/abecs/commands/gox.js';
import { tleCommand } from '../../../drivers/abecs/commands/tle.js';
import { tliCommand } from '../../../drivers/abecs/commands/tli.js';
import { tlrCommand, type TableRecord } from '../../../drivers/abecs/commands/tlr.js';
import { decodeResponsePacket, encodeCommandPacket } from '../../../drivers/abecs/envelope.js';
import { FrameDecoder, encodeFrame } from '../../../drivers/abecs/frame.js';
import { encodeTableEntry, type EmvTableEntry } from '../../../drivers/abecs/tables/records.js';
import { MAX_BLOCK } from '../../../drivers/abecs/tlv.js';
import { createMemoryLink, type MemoryTransport } from '../../../drivers/transports/memory.js';
import {
  PinpadSimulator,
  TEST_CARDS,
  type PinpadSimulatorOptions,
  type SimCard,
} from '../../../drivers/simulator/index.js';
import { factoryAidRecords } from '../../../drivers/simulator/factory-tables.js';
import { decodeAidRecord } from '../../../drivers/simulator/wire/tables.js';

/** A bare host on a memory link: framed packets out, decoded packets in (NTMs set aside). */
class WireHost {
  readonly #packets: Buffer[] = [];
  readonly #decoder = new FrameDecoder();
  readonly #transport: MemoryTransport;

  constructor(transport: MemoryTransport) {
    this.#transport = transport;
    transport.on('data', (chunk) => {
      for (const item of this.#decoder.push(chunk)) {
        if (item.kind === 'packet' && item.data.subarray(0, 3).toString('latin1') !== 'NTM')
          this.#packets.push(item.data);
      }
    });
  }

  async call<Req, Res>(
    codec: CommandCodec<Req, Res>,
    req: Req,
  ): Promise<{ status: number; result?: Res; raw: string }> {
    await this.#transport.write(encodeFrame(encodeCommandPacket(codec.encodeRequest(req))));
    const deadline = Date.now() + 5000;
    while (this.#packets.length === 0) {
      if (Date.now() > deadline) throw new Error('no response from the simulator');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const raw = this.#packets.shift()!;
    const rsp = decodeResponsePacket(raw);
    const ok = rsp.status === 0 || (codec.resultStatuses ?? []).includes(rsp.status);
    return ok
      ? { status: rsp.status, result: codec.decodeResponse(rsp), raw: raw.toString('latin1') }
      : { status: rsp.status, raw: raw.toString('latin1') };
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(options: PinpadSimulatorOptions = {}): Promise<{ sim: PinpadSimulator; host: WireHost }> {
  const link = createMemoryLink();
  const sim = new PinpadSimulator({ timeScale: 0.001, ...options });
  await sim.serve(link.device).ready;
  await link.host.open();
  cleanups.push(async () => {
    await sim.close();
    await link.host.close();
    await link.device.close();
  });
  return { sim, host: new WireHost(link.host) };
}

const sample = JSON.parse(readFileSync(new URL('../../../docs/emv-tables.sample.json', import.meta.url), 'utf8')) as {
  version: string;
  entries: EmvTableEntry[];
};

/** TLR batches: at most 99 records and one 999-byte block each. */
function batches(records: readonly TableRecord[]): TableRecord[][] {
  const out: TableRecord[][] = [];
  let batch: TableRecord[] = [];
  let size = 2;
  for (const record of records) {
    const length = 8 + record.body.length;
    if (batch.length > 0 && size + length > MAX_BLOCK) {
      out.push(batch);
      batch = [];
      size = 2;
    }
    batch.push(record);
    size += length;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

/** TLI (acquirer, version) → TLR… → TLE, as a host loads tables. */
async function loadTables(
  host: WireHost,
  acquirer: number,
  entries: readonly EmvTableEntry[],
  version = sample.version,
): Promise<void> {
  expect([0, 20]).toContain((await host.call(tliCommand, { acquirer, tableVersion: version })).status);
  for (const records of batches(entries.map((entry) => encodeTableEntry(entry)))) {
    expect((await host.call(tlrCommand, { records })).status).toBe(0);
  }
  expect((await host.call(tleCommand, {})).status).toBe(0);
}

const gcx = (extra: Partial<GcxRequest> = {}): GcxRequest => ({
  amount: 1000,
  date: '250301',
  time: '120000',
  ...extra,
});
const gcr = (extra: Partial<GcrStartRequest> = {}): GcrStartRequest => ({
  acquirer: 2,
  appType: 99,
  amount: 1000,
  date: '250301',
  time: '120000',
  tableVersion: sample.version,
  applications: [],
  ...extra,
});
const ctlsOn = { contactless: true, hideAmount: false };
const onlyVisa = sample.entries.filter((entry) => entry.table !== 'aid' || entry.aid.startsWith('A000000003'));

describe('simulated PINPAD with loaded AID tables', () => {
  it('loads the sample file through TLI/TLR/TLE and selects the loaded record for a chip card (PP_AIDTABINFO)', async () => {
    const { sim, host } = await setup();
    await loadTables(host, 2, sample.entries);
    expect(sim.tableVersion(2)).toBe(sample.version);

    sim.insertCard('visaCredit');
    const credit = await host.call(gcxCommand, gcx({ acquirer: 2, appTypes: [1] }));
    expect(credit.status).toBe(0);
    expect(credit.result?.aidTableInfo).toEqual([{ acquirer: 2, record: '01', appType: 1 }]);
    sim.removeCard();

    sim.insertCard('mastercardDebit');
    const debit = await host.call(gcxCommand, gcx({ appTypes: [1, 2] }));
    expect(debit.result?.aidTableInfo).toEqual([{ acquirer: 2, record: '04', appType: 2 }]);
    // GOX names the acquirer PP_AIDTABINFO gave; another one is ST_INVPARM.
    const gox = { amount: 1000, pinMethod: 'dukpt' as const, keyIndex: 1 };
    expect((await host.call(goxCommand, { ...gox, acquirer: 3 })).status).toBe(11);
    sim.removeCard();

    sim.insertCard('eloCredit');
    expect((await host.call(gcxCommand, gcx({ aids: [{ acquirer: 2, record: '05' }] }))).result?.aidTableInfo).toEqual([
      { acquirer: 2, record: '05', appType: 1 },
    ]);
  });

  it('answers ST_CARDAPPNAV (070) for a chip whose AID or application type is not loaded, then PP_ICCSTAT "2" on a swipe', async () => {
    const { sim, host } = await setup();
    await loadTables(host, 2, onlyVisa);
    sim.insertCard('mastercardCredit');
    const missing = await host.call(gcxCommand, gcx({ acquirer: 2 }));
    expect(missing.raw).toBe('GCX070');
    expect(sim.display.lines.every((line) => line === '')).toBe(true);
    sim.removeCard();

    sim.insertCard('visaDebit');
    expect((await host.call(gcxCommand, gcx({ appTypes: [1] }))).status).toBe(70); // debit card, credit sale
    expect((await host.call(gcxCommand, gcx({ acquirer: 4 }))).status).toBe(70); // another acquirer's tables
    sim.removeCard();

    sim.swipeCard('visaMagstripe');
    expect((await host.call(gcxCommand, gcx())).result).toMatchObject({ cardTypeCode: '00', iccStatus: 2 });
  });

  it('selects from GCR_ACQIDXREQ / GCR_APPTYPREQ as §6.8.1 says', async () => {
    const { sim, host } = await setup();
    await loadTables(host, 2, sample.entries);
    sim.insertCard('mastercardCredit');
    expect((await host.call(gcrCommand, gcr())).result).toMatchObject({
      cardTypeCode: '03',
      acquirer: 2,
      record: '03',
      appType: 1,
    });
    expect((await host.call(gcrCommand, gcr({ appType: 2 }))).status).toBe(70);
    // GCR_APPTYPREQ "00": only the GCR_IDAPPn records, whatever their type.
    expect(
      (await host.call(gcrCommand, gcr({ appType: 0, applications: [{ acquirer: 2, record: '03' }] }))).result,
    ).toMatchObject({
      record: '03',
    });
    expect(
      (await host.call(gcrCommand, gcr({ appType: 0, applications: [{ acquirer: 2, record: '01' }] }))).status,
    ).toBe(70);
  });

  it('lists every record of conflicting AIDs loaded for several acquirers (unified load, §6.9.1.2)', async () => {
    const { sim, host } = await setup();
    const visa = sample.entries.filter((entry) => entry.table === 'aid' && entry.aid === 'A0000000031010');
    await loadTables(host, 0, [...visa, ...visa.map((entry) => ({ ...entry, acquirer: 4, record: 'V1' }))]);
    sim.insertCard('visaCredit');
    expect((await host.call(gcxCommand, gcx())).result?.aidTableInfo).toEqual([
      { acquirer: 2, record: '01', appType: 1 },
      { acquirer: 4, record: 'V1', appType: 1 },
    ]);
  });

  it("discards TLR records of another acquirer than the TLI's (§6.7.3)", async () => {
    const { sim, host } = await setup();
    const visa = sample.entries.filter((entry) => entry.table === 'aid' && entry.aid === 'A0000000031010');
    await loadTables(host, 3, visa); // records say acquirer 02
    sim.insertCard('visaCredit');
    // Nothing usable loaded: the training simulator invents the match as before.
    expect((await host.call(gcxCommand, gcx())).result?.aidTableInfo).toEqual([
      { acquirer: 1, record: '01', appType: 1 },
    ]);
  });

  it('selects contactless cards among contactless-capable records only: ST_CTLSAPPNAV (084) otherwise', async () => {
    const { sim, host } = await setup();
    await loadTables(host, 2, sample.entries);
    sim.tapCard('visaContactless');
    const tap = await host.call(gcxCommand, gcx({ options: ctlsOn }));
    expect(tap.result).toMatchObject({ cardTypeCode: '06', aidTableInfo: [{ acquirer: 2, record: '01', appType: 1 }] });

    // The sample loads Elo without contactless (T1_CTLSMODE "0").
    const eloTap: SimCard = { ...TEST_CARDS.eloCredit, entry: 'contactless', requiresPin: false };
    sim.tapCard(eloTap);
    expect((await host.call(gcxCommand, gcx({ options: ctlsOn }))).raw).toBe('GCX084');
  });

  it('keeps the antenna off when no candidate supports contactless for the amount (§6.9.1 (*))', async () => {
    const { sim, host } = await setup({ autoCustomer: { delayMs: 1, card: 'visaContactless' } });
    // Zero amount and T1_CTLSZEROAM "0" everywhere: the scripted contactless card is inserted instead.
    await loadTables(host, 2, sample.entries);
    const read = await host.call(gcxCommand, gcx({ amount: 0, options: ctlsOn }));
    expect(read.result?.cardTypeCode).toBe('03');
    expect(sim.cardStatus.cardInSlot).toBe(true);
  });
});

describe('simulated PINPAD without tables', () => {
  it('strict with requireTables: a chip read finds no application (070)', async () => {
    const { sim, host } = await setup({ profile: 'strict', requireTables: true });
    sim.insertCard('visaCredit');
    expect((await host.call(gcxCommand, gcx())).raw).toBe('GCX070');
    expect((await host.call(gcrCommand, gcr({ tableVersion: '0000000000' }))).raw).toBe('GCR070');
  });

  it('ppc930 with requireTables: 070 while only table versions are stored, the loaded record once there is one', async () => {
    const { sim, host } = await setup({ profile: 'ppc930', requireTables: true });
    sim.insertCard('visaCredit');
    expect((await host.call(gcxCommand, gcx({ acquirer: 2 }))).status).toBe(70);
    await loadTables(host, 2, sample.entries);
    expect((await host.call(gcxCommand, gcx({ acquirer: 2 }))).result?.aidTableInfo).toEqual([
      { acquirer: 2, record: '01', appType: 1 },
    ]);
  });

  it('training, and a profile told requireTables: false, invent the match from the card', async () => {
    for (const options of [
      { profile: 'strict' as const, requireTables: false },
      { profile: 'training' as const, requireTables: true },
      {},
    ]) {
      const { sim, host } = await setup(options);
      sim.insertCard('visaDebit');
      const read = await host.call(gcxCommand, gcx({ acquirer: 5 }));
      expect(read.result?.aidTableInfo).toEqual([{ acquirer: 5, record: '11', appType: 2 }]);
    }
  });
});

describe('the tables a PINPAD arrives with (factory-tables.ts)', () => {
  it('strict and legacy hold acquirer 01’s AID records, ppc930 acquirers 02 and 04’s, and select from them', async () => {
    const strict = await setup({ profile: 'strict' });
    strict.sim.insertCard('visaDebit');
    // Visa Electron is the second record of the brand order visa, mastercard, elo.
    expect((await strict.host.call(gcxCommand, gcx())).result?.aidTableInfo).toEqual([
      { acquirer: 1, record: '02', appType: 2 },
    ]);
    // An acquirer the PINPAD holds nothing for has no application for the card.
    strict.sim.removeCard();
    strict.sim.insertCard('visaDebit');
    expect((await strict.host.call(gcxCommand, gcx({ acquirer: 9 }))).status).toBe(70);

    // The PPC-930 of the TRACE: acquirer 02 lists Mastercard first (its record 01 is the trace's
    // Mastercard credit), acquirer 04 the default order. Both hold Visa Electron: both are listed.
    const ppc = await setup({ profile: 'ppc930' });
    ppc.sim.insertCard('visaDebit');
    expect((await ppc.host.call(gcxCommand, gcx())).result?.aidTableInfo).toEqual([
      { acquirer: 2, record: '04', appType: 2 },
      { acquirer: 4, record: '02', appType: 2 },
    ]);
    ppc.sim.removeCard();
    ppc.sim.insertCard('mastercardCredit');
    expect((await ppc.host.call(gcxCommand, gcx({ acquirer: 2 }))).result?.aidTableInfo).toEqual([
      { acquirer: 2, record: '01', appType: 1 },
    ]);

    const legacy = await setup({ profile: 'legacy' });
    legacy.sim.insertCard('eloCredit');
    const read = await legacy.host.call(gcrCommand, gcr({ acquirer: 0, tableVersion: '0000000000' }));
    expect(read.result).toMatchObject({ acquirer: 1, record: '05' });
  });

  it('are 340-byte AID records the PINPAD’s own reading accepts, one credit and one debit per brand', () => {
    const records = factoryAidRecords(1);
    expect(records.map((record) => record.raw.length)).toEqual(Array(6).fill(340));
    expect(records.map((record) => decodeAidRecord(record)?.aid)).toEqual([
      'A0000000031010',
      'A0000000032010',
      'A0000000041010',
      'A0000000043060',
      'A0000004941010',
      'A0000004942010',
    ]);
    expect(records.map((record) => decodeAidRecord(record)?.applicationType)).toEqual([1, 2, 1, 2, 1, 2]);
    expect(records[0]!.raw.subarray(0, 8).toString('latin1')).toBe('34010101');
  });
});
