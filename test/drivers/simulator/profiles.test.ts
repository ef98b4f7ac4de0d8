/**
 * Device profiles of the simulated PINPAD, specified on the wire: the bytes a host sends (built
 * with the real framing, encodeCommandPacket + encodeFrame) and the answers it gets back, plus
 * what the customer sees on the display over time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandCodec } from '../../../drivers/abecs/codec.js';
import { cexCommand } from '../../../drivers/abecs/commands/cex.js';
import { dexCommand } from '../../../drivers/abecs/commands/dex.js';
import { dspCommand } from '../../../drivers/abecs/commands/dsp.js';
import { gcxCommand, type GcxRequest } from '../../../drivers/abecs/commands/gcx.js';
import { ginCommand } from '../../../drivers/abecs/commands/gin.js';
import { gixCommand } from '../../../drivers/abecs/commands/gix.js';
import { goxCommand, type GoxRequest } from '../../../drivers/abecs/commands/gox.js';
import { gpnCommand, type GpnRequest } from '../../../drivers/abecs/commands/gpn.js';
import { decodeResponsePacket, encodeCommandPacket } from '../../../drivers/abecs/envelope.js';
import { FrameDecoder, encodeFrame } from '../../../drivers/abecs/frame.js';
import { PP, ppKsnTdesData, ppKsnTdesPin, ppTableVersion } from '../../../drivers/abecs/ids.js';
import { blocksToTlvs } from '../../../drivers/abecs/tlv.js';
import { createMemoryLink, type MemoryTransport } from '../../../drivers/transports/memory.js';
import {
  PinpadSimulator,
  SIMULATOR_PROFILES,
  TEST_CARDS,
  luhnValid,
  validateCard,
  type PinpadSimulatorOptions,
  type SimCard,
} from '../../../drivers/simulator/index.js';

/** A bare host on a memory link: raw PKTDATA in, decoded packets out (NTMs set aside). */
class WireHost {
  readonly notifications: string[] = [];
  readonly #packets: Buffer[] = [];
  readonly #decoder = new FrameDecoder();
  readonly #transport: MemoryTransport;

  constructor(transport: MemoryTransport) {
    this.#transport = transport;
    transport.on('data', (chunk) => {
      for (const item of this.#decoder.push(chunk)) {
        if (item.kind !== 'packet') continue;
        if (item.data.subarray(0, 3).toString('latin1') === 'NTM')
          this.notifications.push(item.data.subarray(9).toString('latin1'));
        else this.#packets.push(item.data);
      }
    });
  }

  /** Sends PKTDATA framed as on the wire (SYN … ETB CRC) and returns the response's PKTDATA. */
  async exchange(pktdata: Buffer | string, timeoutMs = 5000): Promise<Buffer> {
    await this.#transport.write(encodeFrame(typeof pktdata === 'string' ? Buffer.from(pktdata, 'latin1') : pktdata));
    return this.response(timeoutMs);
  }

  async response(timeoutMs = 5000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.#packets.length === 0) {
      if (Date.now() > deadline) throw new Error('no response from the simulator');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.#packets.shift()!;
  }

  send<Req>(codec: CommandCodec<Req, unknown>, req: Req): Promise<void> {
    return this.#transport.write(encodeFrame(encodeCommandPacket(codec.encodeRequest(req))));
  }

  /** One command through the codec; the status, and the decoded result on ST_OK. */
  async call<Req, Res>(
    codec: CommandCodec<Req, Res>,
    req: Req,
  ): Promise<{ status: number; result?: Res; raw: Buffer }> {
    await this.send(codec, req);
    const raw = await this.response();
    const rsp = decodeResponsePacket(raw);
    return rsp.status === 0 ? { status: 0, result: codec.decodeResponse(rsp), raw } : { status: rsp.status, raw };
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

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
/** TLV items of a successful response, by id (values as latin1 text). */
function items(raw: Buffer): Array<[number, string]> {
  return blocksToTlvs(decodeResponsePacket(raw).blocks, 'MALFORMED_RESPONSE').map((tlv) => [
    tlv.id,
    Buffer.from(tlv.value).toString('latin1'),
  ]);
}

/** Resolves once the display shows `first` on line 1. */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sale = (extra: Partial<GcxRequest> = {}): GcxRequest => ({
  amount: 1000,
  date: '250301',
  time: '120000',
  ...extra,
});
const goxReq = (extra: Partial<GoxRequest> = {}): GoxRequest => ({
  acquirer: 1,
  amount: 1000,
  pinMethod: 'dukpt',
  keyIndex: 1,
  ...extra,
});
const gpnReq = (extra: Partial<GpnRequest> = {}): GpnRequest => ({
  method: 'dukpt',
  keyIndex: 1,
  pan: '4111111111111111',
  minDigits: 4,
  maxDigits: 12,
  message: 'DIGITE A SENHA',
  ...extra,
});

describe('profiles catalogue', () => {
  it('describes every profile in English', () => {
    expect(Object.keys(SIMULATOR_PROFILES)).toEqual(['training', 'strict', 'ppc930', 'legacy']);
    for (const text of Object.values(SIMULATOR_PROFILES)) expect(text.length).toBeGreaterThan(20);
  });

  it('refuses an unknown profile and key slots outside 00–99', () => {
    expect(() => new PinpadSimulator({ profile: 'bogus' as 'strict' })).toThrow(/no simulator profile named "bogus"/);
    expect(() => new PinpadSimulator({ keySlots: { dukptPin: [100] } })).toThrow(/key slots are integers from 0 to 99/);
  });

  it('keeps every test card valid, the new behaviours included', () => {
    for (const card of Object.values(TEST_CARDS)) {
      expect(luhnValid(card.pan)).toBe(true);
      expect(() => validateCard(card)).not.toThrow();
    }
    expect(TEST_CARDS.visaChipSwiped).toMatchObject({ entry: 'magstripe', serviceCode: '201' });
    expect(TEST_CARDS.visaMuteChip.iccFailure).toBe('mute');
    expect(TEST_CARDS.visaUnreadableStripe.unreadableSwipe).toBe(true);
  });
});

describe('strict profile (Abecs 2.20 read literally)', () => {
  it('answers GIX019 to a GIX without SPE_IDLIST, bare or as GIX000', async () => {
    const { host } = await setup({ profile: 'strict' });
    // The TRACE's own frame for GIX000 (abecs.md §1.5).
    expect(encodeFrame(latin1('GIX000'))).toEqual(Buffer.from('16474958303030177F4A', 'hex'));
    expect((await host.exchange('GIX000')).toString('latin1')).toBe('GIX019');
    expect((await host.exchange('GIX')).toString('latin1')).toBe('GIX019');
  });

  it('answers a listed GIX in request order, ignoring unknown ids and absent key slots', async () => {
    const { host } = await setup({ profile: 'strict', serialNumber: '1234567890' });
    const ids = [
      PP.SPECVER,
      0x9001,
      PP.DSPTXTSZ,
      ppKsnTdesPin(1),
      ppKsnTdesPin(5),
      ppKsnTdesData(1),
      PP.DKPTTDESP,
      PP.MKTDESP,
      PP.SPECVER,
    ];
    const list = Buffer.concat(ids.map((id) => Buffer.of(id >> 8, id & 0xff)));
    const raw = await host.exchange(
      Buffer.concat([
        latin1(`GIX${String(4 + list.length).padStart(3, '0')}`),
        Buffer.of(0x00, 0x01, 0x00, list.length),
        list,
      ]),
    );
    const got = items(raw);
    expect(got.map(([id]) => id)).toEqual([
      PP.SPECVER,
      PP.DSPTXTSZ,
      ppKsnTdesPin(1),
      ppKsnTdesData(1),
      PP.DKPTTDESP,
      PP.MKTDESP,
      PP.SPECVER,
    ]);
    expect(got[0]![1]).toBe('2.20');
    expect(got[1]![1]).toBe('0416');
    expect(got[4]![1]).toBe('01' + '0'.repeat(98));
    expect(got[5]![1]).toBe('0'.repeat(100));
  });

  it('answers GIX011 to an odd-length SPE_IDLIST', async () => {
    const { host } = await setup({ profile: 'strict' });
    const raw = await host.exchange(
      Buffer.concat([latin1('GIX007'), Buffer.of(0x00, 0x01, 0x00, 0x03, 0x80, 0x07, 0x80)]),
    );
    expect(raw.toString('latin1')).toBe('GIX011');
  });

  it('answers GCX011 to a malformed GCX (envelope or TLV), GCX019 without the date, ERR010 to an unknown id', async () => {
    const { host } = await setup({ profile: 'strict' });
    // N3 block length that is not digits: the envelope does not parse, the id is known.
    expect((await host.exchange('GCX0A0xyz')).toString('latin1')).toBe('GCX011');
    // A block declaring more bytes than follow.
    expect((await host.exchange('GCX050' + 'x'.repeat(10))).toString('latin1')).toBe('GCX011');
    // A TLV whose length runs past its block.
    const truncated = Buffer.concat([latin1('GCX010'), Buffer.of(0x00, 0x15, 0x00, 0x06), latin1('2503')]);
    expect((await host.exchange(truncated)).toString('latin1')).toBe('GCX011');
    // SPE_TRNTIME alone: SPE_TRNDATE (M) is missing.
    const noDate = Buffer.concat([latin1('GCX010'), Buffer.of(0x00, 0x16, 0x00, 0x06), latin1('120000')]);
    expect((await host.exchange(noDate)).toString('latin1')).toBe('GCX019');
    expect((await host.exchange('XYZ000')).toString('latin1')).toBe('ERR010');
    expect((await host.exchange('XYZ0A0')).toString('latin1')).toBe('ERR010');
  });

  it('keeps the training ERR010 for an envelope that does not parse', async () => {
    const { host } = await setup();
    expect((await host.exchange('GCX0A0xyz')).toString('latin1')).toBe('ERR010');
  });

  it('has a 4×16 display: DSP fills two lines and clears the rest, DEX shows four', async () => {
    const { sim, host } = await setup({ profile: 'strict' });
    expect(sim.display.lines).toEqual(['', '', '', '']);
    await host.call(dexCommand, { message: 'UM\nDOIS\nTRES\nQUATRO\nCINCO' });
    expect(sim.display.lines).toEqual(['UM', 'DOIS', 'TRES', 'QUATRO']);
    await host.call(dspCommand, { message: 'Cartao Credito  Aguarde...      ' });
    expect(sim.display.lines).toEqual(['Cartao Credito', 'Aguarde...', '', '']);
  });

  it('shows a 4-line GCX SPE_DSPMSG prompt whole until the card comes, then PROCESSANDO and SELECIONADO', async () => {
    const { sim, host } = await setup({ profile: 'strict' });
    const seen: string[][] = [];
    sim.on('display', (d) => seen.push([...d.lines]));
    const prompt = 'VALOR: R$ 10,00\rINSIRA OU\rPASSE O CARTAO\rNO LEITOR';
    await host.send(gcxCommand, sale({ prompt }));
    await until(() => sim.display.lines[0] === 'VALOR: R$ 10,00');
    const shown = ['VALOR: R$ 10,00', 'INSIRA OU', 'PASSE O CARTAO', 'NO LEITOR'];
    expect(sim.display.lines).toEqual(shown);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(sim.display.lines).toEqual(shown);
    sim.insertCard('visaCredit');
    const rsp = decodeResponsePacket(await host.response());
    expect(rsp.status).toBe(0);
    expect(seen).toEqual([shown, ['PROCESSANDO...', '', '', ''], ['SELECIONADO:', 'CREDITO', '', '']]);
    expect(host.notifications).toEqual(['SELECIONADO:    CREDITO         ']);
  });

  it('cuts the same prompt to two lines on the training display', async () => {
    const { sim, host } = await setup();
    await host.send(gcxCommand, sale({ prompt: 'LINHA 1\rLINHA 2\rLINHA 3' }));
    await until(() => sim.display.lines[0] === 'LINHA 1');
    expect(sim.display.lines).toEqual(['LINHA 1', 'LINHA 2']);
    sim.tapCard('visaContactless'); // contactless is off for this GCX: nothing happens
    sim.insertCard('visaCredit');
    expect((await host.response()).subarray(0, 6).toString('latin1')).toBe('GCX000');
  });
});

describe('key slots and PIN entry', () => {
  async function chipRead(host: WireHost, sim: PinpadSimulator, card: SimCard | string = 'visaCredit'): Promise<void> {
    sim.insertCard(card);
    expect((await host.call(gcxCommand, sale())).status).toBe(0);
  }

  it('strict: GOX with DUKPT slot 02 answers GOX042 before any PIN screen; slot 01 captures the PIN', async () => {
    const { sim, host } = await setup({ profile: 'strict' });
    await chipRead(host, sim);
    const lines: string[][] = [];
    sim.on('display', (d) => lines.push([...d.lines]));
    const refused = await host.call(goxCommand, goxReq({ keyIndex: 2 }));
    expect(refused.raw.toString('latin1')).toBe('GOX042');
    expect(host.notifications.filter((n) => n.startsWith('SOLICITE'))).toEqual([]);
    expect(lines.flat().some((line) => line.includes('SENHA'))).toBe(false);
    expect(sim.display.lines).toEqual(['', '', '', '']);

    await chipRead(host, sim);
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    const ok = await host.call(goxCommand, goxReq({ keyIndex: 1 }));
    expect(ok.status).toBe(0);
    expect(ok.result).toMatchObject({ decision: 'goOnline', onlinePinCaptured: true });
  });

  it('strict: GPN answers GPN042 for an empty DUKPT slot and for MK/WK (no master key loaded)', async () => {
    const { host } = await setup({ profile: 'strict' });
    expect((await host.call(gpnCommand, gpnReq({ keyIndex: 2 }))).raw.toString('latin1')).toBe('GPN042');
    expect(
      (await host.call(gpnCommand, gpnReq({ method: 'mkwk', keyIndex: 1, workingKey: '0'.repeat(32) }))).raw.toString(
        'latin1',
      ),
    ).toBe('GPN042');
  });

  it('keySlots overrides the profile, here on training', async () => {
    const { sim, host } = await setup({ keySlots: { dukptPin: [3], mkPin: [] } });
    expect((await host.call(gpnCommand, gpnReq({ keyIndex: 1 }))).status).toBe(42);
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    expect((await host.call(gpnCommand, gpnReq({ keyIndex: 3 }))).status).toBe(0);
    const maps = await host.call(gixCommand, { ids: [PP.DKPTTDESP, PP.DKPTTDESD, ppKsnTdesPin(3), ppKsnTdesPin(1)] });
    expect(maps.result?.keyMaps?.dukptPin?.loaded).toEqual([3]);
    expect(maps.result?.keyMaps?.dukptData?.loaded).toHaveLength(100); // not overridden: every slot
    expect(Object.keys(maps.result?.dukptKsns?.pin ?? {})).toEqual(['3']);
  });

  it('answers ST_PINBUSY (044) from GPN and GOX under the pinBusy scenario', async () => {
    const { sim, host } = await setup({ pinBusy: true });
    expect((await host.call(gpnCommand, gpnReq())).raw.toString('latin1')).toBe('GPN044');
    await chipRead(host, sim);
    expect((await host.call(goxCommand, goxReq())).raw.toString('latin1')).toBe('GOX044');
  });
});

describe('card scenarios', () => {
  it('reports PP_ICCSTAT "1" on the swipe that follows a fallback, "0" after that', async () => {
    const { sim, host } = await setup({ profile: 'strict' });
    sim.insertCard('visaChipFallback');
    expect((await host.call(gcxCommand, sale())).raw.toString('latin1')).toBe('GCX076');
    expect(sim.cardStatus.cardInSlot).toBe(true);
    expect(sim.display.lines).toEqual(['', '', '', '']);
    sim.removeCard();
    sim.swipeCard('visaChipFallback');
    const fallback = await host.call(gcxCommand, sale());
    expect(items(fallback.raw)).toContainEqual([PP.ICCSTAT, '1']);
    expect(fallback.result).toMatchObject({ cardTypeCode: '00', iccStatus: 1 });
    expect(fallback.result?.track2).toMatch(/=3012201$/);
    sim.swipeCard('visaChipFallback');
    expect((await host.call(gcxCommand, sale())).result?.iccStatus).toBe(0);
  });

  it('maps a mute chip (060), a chip error (061) and no application (070) to PP_ICCSTAT 1, 1 and 2', async () => {
    const noApp: SimCard = { ...TEST_CARDS.visaCredit, iccFailure: 'noApplication' };
    const cases: Array<[SimCard | string, string, number]> = [
      ['visaMuteChip', 'GCX060', 1],
      ['mastercardChipError', 'GCX061', 1],
      [noApp, 'GCX070', 2],
    ];
    const { sim, host } = await setup({ profile: 'strict' });
    for (const [card, answer, iccStatus] of cases) {
      sim.insertCard(card);
      expect((await host.call(gcxCommand, sale())).raw.toString('latin1')).toBe(answer);
      sim.removeCard();
      sim.swipeCard('visaMagstripe');
      expect((await host.call(gcxCommand, sale())).result?.iccStatus).toBe(iccStatus);
    }
  });

  it('answers an unreadable swipe with ST_OK, PP_CARDTYPE "00" and no track fields', async () => {
    const { sim, host } = await setup({ profile: 'strict' });
    sim.swipeCard('visaUnreadableStripe');
    const raw = (await host.call(gcxCommand, sale())).raw;
    expect(raw).toEqual(
      Buffer.concat([
        latin1('GCX000011'),
        Buffer.of(0x80, 0x4f, 0x00, 0x02),
        latin1('00'),
        Buffer.of(0x80, 0x50, 0x00, 0x01),
        latin1('0'),
      ]),
    );
    // GPN with PANLEN "00" has no card data to use.
    expect((await host.call(gpnCommand, gpnReq({ pan: undefined }))).status).toBe(10);
  });

  it('counts unreadable swipes: the first n read nothing, the next one reads; CEX too', async () => {
    const twice: SimCard = { ...TEST_CARDS.visaMagstripe, unreadableSwipes: 2 };
    const { sim, host } = await setup();
    sim.swipeCard(twice);
    expect(
      (await host.call(cexCommand, { key: false, magstripe: true, icc: 'ignore', contactless: false })).result,
    ).toEqual({ event: 'cardSwiped' });
    sim.swipeCard(twice);
    expect((await host.call(gcxCommand, sale())).result).toEqual({
      cardType: 'magstripe',
      cardTypeCode: '00',
      iccStatus: 0,
    });
    sim.swipeCard(twice);
    expect((await host.call(gcxCommand, sale())).result?.track2).toMatch(/^4012888888881881=/);
  });

  it('reads a swiped chip card as magnetic with PP_ICCSTAT "0" and its 2xx service code', async () => {
    const { sim, host } = await setup({ profile: 'strict' });
    sim.swipeCard('visaChipSwiped');
    const { raw, result } = await host.call(gcxCommand, sale());
    expect(result).toMatchObject({ cardTypeCode: '00', iccStatus: 0 });
    expect(result?.track2).toBe('4111111111111111=3012201');
    expect(result?.track1).toMatch(/\^3012201$/);
    expect(items(raw)[0]).toEqual([PP.CARDTYPE, '00']);
  });
});

describe('ppc930 profile (the Gertec PPC-930 of the TRACE)', () => {
  it('answers a parameterless GIX000 with every item the real one sent, in its order', async () => {
    const { host } = await setup({ profile: 'ppc930' });
    const raw = await host.exchange('GIX000');
    const rsp = decodeResponsePacket(raw);
    expect(rsp.status).toBe(0);
    expect(rsp.blocks.length).toBe(2); // > 999 bytes: split into blocks (S220 §6.4.3)
    const got = new Map(items(raw));
    expect([...got.keys()]).toEqual([
      0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8006, 0x8007, 0x8008, 0x8009, 0x800a, 0x8010, 0x8011, 0x8016, 0x8012,
      0x8013, 0x8014, 0x8015, 0x8020, 0x8021, 0x8022, 0x8030, 0x8031, 0x8032, 0x8033, 0x8034, 0x8035, 0x8036, 0x8062,
    ]);
    expect(got.get(PP.SERNUM)).toBe('7200032299990001');
    expect(got.get(PP.PARTNBR)).toBe('PPC-930');
    expect(got.get(PP.MODEL)).toBe('PPC-930;192MB');
    expect(got.get(PP.MNNAME)).toBe('GERTEC');
    expect(got.get(PP.CAPAB)).toBe('1200000000');
    expect(got.get(PP.SPECVER)).toBe('2.12');
    expect(got.get(PP.DSPTXTSZ)).toBe('0816');
    expect(got.get(PP.DSPGRSZ)).toBe('03200240');
    expect(got.get(PP.DKPTTDESP)?.slice(0, 32)).toBe('01110000' + '1010111011111111' + '01100100');
    const info = gixCommand.decodeResponse(rsp);
    expect(info.displayText).toEqual({ lines: 8, columns: 16 });
    expect(info.keyMaps?.dukptPin?.loaded).toContain(2);
    expect(info.keyMaps?.masterKeyData?.loaded).toContain(2);
  });

  it('answers the TRACE GIX016 like the real one: 9101 and the three table versions', async () => {
    const { host } = await setup({ profile: 'ppc930' });
    const request = Buffer.from('47495830313600 01 00 0C 90 01 91 01 91 05 93 00 93 04 93 06'.replace(/ /g, ''), 'hex');
    const raw = await host.exchange(request);
    expect(raw.subarray(0, 9).toString('latin1')).toBe('GIX000056');
    expect(items(raw).map(([id]) => id)).toEqual([
      ppKsnTdesPin(1),
      ppTableVersion(0),
      ppTableVersion(4),
      ppTableVersion(6),
    ]);
    expect(
      items(raw)
        .slice(1)
        .map(([, value]) => value),
    ).toEqual(['1807202408', '1807202408', '1807202408']);
  });

  it('shows the TRACE DEX on its 8-line display', async () => {
    const { sim, host } = await setup({ profile: 'ppc930' });
    const dex = Buffer.from(
      '444558303730303637' +
        Buffer.from('VALOR:         1\r                \rAPROXIME, INSIRA\rOU PASSE  CARTAO', 'latin1').toString('hex'),
      'hex',
    );
    expect((await host.exchange(dex)).toString('latin1')).toBe('DEX000');
    expect(sim.display.lines).toEqual(['VALOR:         1', '', 'APROXIME, INSIRA', 'OU PASSE  CARTAO', '', '', '', '']);
  });
});

describe('legacy profile (BibComp 1.08)', () => {
  it('answers ERR010 to every Abecs TLV command it is sent', async () => {
    const { host } = await setup({ profile: 'legacy' });
    for (const packet of [
      'GIX000',
      'GIX',
      'CLX000',
      'CEX010',
      'GCX000',
      'GOX000',
      'GED000',
      'FCX000',
      'MNU000',
      'GCD000',
    ]) {
      expect((await host.exchange(packet)).toString('latin1')).toBe('ERR010');
    }
  });

  it('serves GIN with spec 1.08 and no contactless, and the fixed-field display commands', async () => {
    const { sim, host } = await setup({ profile: 'legacy' });
    expect(encodeFrame(latin1('GIN00200'))).toEqual(Buffer.from('1647494E3030323030' + '17EECA', 'hex'));
    const gin = await host.call(ginCommand, { acquirer: 0 });
    expect(gin.result).toMatchObject({ kind: 'general', specVersion: '1.08', contactless: false });
    expect((await host.exchange('OPN000')).toString('latin1')).toBe('OPN000');
    await host.call(dspCommand, { message: 'LINHA UM\nLINHA DOIS' });
    expect(sim.display.lines).toEqual(['LINHA UM', 'LINHA DOIS']);
    await host.call(dexCommand, { message: 'A\nB\nC' });
    expect(sim.display.lines).toEqual(['A', 'B']);
  });
});
