import { afterEach, describe, expect, it } from 'vitest';
import {
  initialKey,
  ksnCounter,
  pinKey,
  pinOfBlock,
  tdesDecrypt,
  TEST_BDK,
  withCounter,
} from '../../../drivers/crypto/dukpt.js';
import type { CommandCodec } from '../../../drivers/abecs/codec.js';
import { cexCommand } from '../../../drivers/abecs/commands/cex.js';
import { cloCommand } from '../../../drivers/abecs/commands/clo.js';
import { dexCommand } from '../../../drivers/abecs/commands/dex.js';
import { dspCommand } from '../../../drivers/abecs/commands/dsp.js';
import { fcxCommand } from '../../../drivers/abecs/commands/fcx.js';
import { fncCommand } from '../../../drivers/abecs/commands/fnc.js';
import { gcdCommand, gcdRequestFor } from '../../../drivers/abecs/commands/gcd.js';
import { gcrCommand, type GcrStartRequest } from '../../../drivers/abecs/commands/gcr.js';
import { gcxCommand, type GcxRequest } from '../../../drivers/abecs/commands/gcx.js';
import { gedCommand } from '../../../drivers/abecs/commands/ged.js';
import { ginCommand } from '../../../drivers/abecs/commands/gin.js';
import { gixCommand } from '../../../drivers/abecs/commands/gix.js';
import { gkyCommand } from '../../../drivers/abecs/commands/gky.js';
import { gocCommand, type GocRequest } from '../../../drivers/abecs/commands/goc.js';
import { goxCommand, type GoxRequest } from '../../../drivers/abecs/commands/gox.js';
import { gpnCommand } from '../../../drivers/abecs/commands/gpn.js';
import { gtsCommand } from '../../../drivers/abecs/commands/gts.js';
import { mnuCommand } from '../../../drivers/abecs/commands/mnu.js';
import { opnCommand } from '../../../drivers/abecs/commands/opn.js';
import { rmcCommand } from '../../../drivers/abecs/commands/rmc.js';
import { tleCommand } from '../../../drivers/abecs/commands/tle.js';
import { tliCommand } from '../../../drivers/abecs/commands/tli.js';
import { tlrCommand } from '../../../drivers/abecs/commands/tlr.js';
import { decodeEmvTlv } from '../../../drivers/abecs/emv.js';
import { decodeResponsePacket, encodeCommandPacket } from '../../../drivers/abecs/envelope.js';
import { CAN, EOT, FrameDecoder, encodeFrame } from '../../../drivers/abecs/frame.js';
import { PP, ppTableVersion } from '../../../drivers/abecs/ids.js';
import { createMemoryLink, type MemoryTransport } from '../../../drivers/transports/memory.js';
import {
  PinpadSimulator,
  TEST_CARDS,
  luhnValid,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';

/** A bare-bones host: writes command frames and collects what the PINPAD sends back. */
class RawHost {
  readonly notifications: string[] = [];
  readonly controlBytes: number[] = [];
  readonly #packets: Buffer[] = [];
  #waiter: (() => void) | undefined;
  readonly #decoder = new FrameDecoder();
  readonly #transport: MemoryTransport;

  constructor(transport: MemoryTransport) {
    this.#transport = transport;
    transport.on('data', (chunk) => {
      for (const item of this.#decoder.push(chunk)) {
        if (item.kind === 'packet') {
          const id = item.data.subarray(0, 3).toString('latin1');
          if (id === 'NTM') this.notifications.push(item.data.subarray(9).toString('latin1'));
          else this.#packets.push(item.data);
        } else if (item.kind === 'byte') {
          this.controlBytes.push(item.byte);
        }
        this.#waiter?.();
      }
    });
  }

  send(pktdata: Buffer): Promise<void> {
    return this.#transport.write(encodeFrame(pktdata));
  }

  sendCommand<Req>(codec: CommandCodec<Req, unknown>, req: Req): Promise<void> {
    return this.send(encodeCommandPacket(codec.encodeRequest(req)));
  }

  cancel(): Promise<void> {
    return this.#transport.write(Buffer.of(CAN));
  }

  /** The next response packet (NTMs are collected aside). */
  async response(timeoutMs = 5000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.#packets.length === 0) {
      if (Date.now() > deadline) throw new Error('no response from the simulator');
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
        setTimeout(resolve, 20);
      });
    }
    return this.#packets.shift()!;
  }

  get pendingPackets(): number {
    return this.#packets.length;
  }

  async until(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('condition not reached');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Sends one command and returns its status and decoded result. */
  async call<Req, Res>(codec: CommandCodec<Req, Res>, req: Req): Promise<{ status: number; result?: Res; id: string }> {
    await this.sendCommand(codec, req);
    const rsp = decodeResponsePacket(await this.response());
    if (rsp.status === 0 || codec.resultStatuses?.includes(rsp.status)) {
      return { id: rsp.id, status: rsp.status, result: codec.decodeResponse(rsp) };
    }
    return { id: rsp.id, status: rsp.status };
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(options: PinpadSimulatorOptions = {}): Promise<{ sim: PinpadSimulator; host: RawHost }> {
  const link = createMemoryLink();
  const sim = new PinpadSimulator({ timeScale: 0.001, serialNumber: '1234567890', ...options });
  const session = sim.serve(link.device);
  await session.ready;
  await link.host.open();
  cleanups.push(async () => {
    await sim.close();
    await link.host.close();
    await link.device.close();
  });
  return { sim, host: new RawHost(link.host) };
}

const gcxSale = (extra: Partial<GcxRequest> = {}): GcxRequest => ({
  amount: 123456,
  date: '250301',
  time: '120000',
  transactionType: 0,
  ...extra,
});

const goxRequest = (extra: Partial<GoxRequest> = {}): GoxRequest => ({
  acquirer: 1,
  amount: 123456,
  pinMethod: 'dukpt',
  keyIndex: 2,
  tagList: ['9F26', '9F27', '9F36', '9F02', '5A', '57'],
  ...extra,
});

const gcrRequest = (extra: Partial<GcrStartRequest> = {}): GcrStartRequest => ({
  acquirer: 1,
  appType: 99,
  amount: 1000,
  date: '250301',
  time: '120000',
  tableVersion: '0000000000',
  applications: [],
  ...extra,
});

const gocRequest = (extra: Partial<GocRequest> = {}): GocRequest => ({
  amount: 1000,
  cashback: 0,
  exceptionList: false,
  forceOnline: false,
  pinMethod: 'dukpt',
  keyIndex: 1,
  workingKey: '0'.repeat(32),
  floorLimit: 0,
  targetPercent: 0,
  thresholdValue: 0,
  maxTargetPercent: 0,
  tags: ['9F26', '9F27'],
  ...extra,
});

describe('test card catalogue', () => {
  it('uses Luhn-valid public test PANs and covers every entry mode and outcome', () => {
    const cards = Object.values(TEST_CARDS);
    for (const card of cards) expect(luhnValid(card.pan)).toBe(true);
    expect(new Set(cards.map((c) => c.entry))).toEqual(new Set(['chip', 'contactless', 'magstripe']));
    expect(new Set(cards.map((c) => c.outcome))).toEqual(new Set(['online', 'offlineApproved', 'offlineDeclined']));
    expect(cards.some((c) => c.refuseAfterOnline)).toBe(true);
    expect(cards.some((c) => c.removeEarly)).toBe(true);
    expect(new Set(cards.map((c) => c.brand))).toEqual(new Set(['visa', 'mastercard', 'elo']));
  });
});

describe('PinpadSimulator — information and display', () => {
  it('answers OPN, GIN "00" and other indexes', async () => {
    const { host } = await setup();
    expect((await host.call(opnCommand, {})).status).toBe(0);
    const general = await host.call(ginCommand, { acquirer: 0 });
    expect(general.result).toMatchObject({
      kind: 'general',
      manufacturer: 'PINBRIDGE SIM',
      specVersion: '2.20',
      serialNumber: '1234567890',
      contactless: true,
    });
    const acquirer = await host.call(ginCommand, { acquirer: 3 });
    expect(acquirer.result).toMatchObject({ kind: 'acquirer', specVersion: '2.20' });
  });

  it('answers a secure OPN with CRKSEC (secure-communication.test.ts), but as a classic OPN000 on the legacy profile', async () => {
    const { host } = await setup();
    const secure = await host.call(opnCommand, { publicKey: { modulus: 'AB'.repeat(256), exponent: '010001' } });
    expect(secure.status).toBe(0);
    expect(secure.result?.crksec).toHaveLength(512);
    const legacy = await setup({ profile: 'legacy' });
    const classic = await legacy.host.call(opnCommand, {
      publicKey: { modulus: 'AB'.repeat(256), exponent: '010001' },
    });
    expect(classic.status).toBe(0);
    expect(classic.result?.crksec).toBeUndefined();
  });

  it('returns every standard GIX item by default and the requested ones in request order', async () => {
    const { host } = await setup({ tableVersions: { 3: '1807202408' } });
    const all = await host.call(gixCommand, {});
    expect(all.result?.serialNumber).toBe('1234567890');
    expect(all.result?.specVersion).toBe('2.20');
    expect(all.result?.items.length).toBeGreaterThan(10);
    const some = await host.call(gixCommand, {
      ids: [PP.SPECVER, 0x7777, ppTableVersion(3), PP.SERNUM, ppTableVersion(4)],
    });
    expect(some.result?.items.map((item) => item.id)).toEqual([PP.SPECVER, ppTableVersion(3), PP.SERNUM]);
    expect(some.result?.tableVersions).toEqual({ 3: '1807202408' });
  });

  it('shows DSP and DEX texts and leaves the CLO message on the display', async () => {
    const { sim, host } = await setup();
    const shown: string[][] = [];
    sim.on('display', (display) => shown.push([...display.lines]));
    await host.call(dspCommand, { message: 'Cartao Credito\nAguarde...' });
    expect(sim.display.lines).toEqual(['Cartao Credito', 'Aguarde...']);
    await host.call(dexCommand, { message: 'VALOR: 10,00\nAPROXIME, INSIRA\nOU PASSE CARTAO' });
    expect(sim.display.lines).toEqual(['VALOR: 10,00', 'APROXIME, INSIRA']);
    await host.call(cloCommand, { message: 'POSTO FORCA 10\nOBRIGADO!!!' });
    expect(sim.display.lines).toEqual(['POSTO FORCA 10', 'OBRIGADO!!!']);
    expect(shown.length).toBe(3);
  });

  it('answers ERR010 to an unknown command', async () => {
    const { host } = await setup();
    await host.send(Buffer.from('XYZ000', 'latin1'));
    expect(decodeResponsePacket(await host.response())).toEqual({ id: 'ERR', status: 10, blocks: [] });
  });

  it('answers a malformed command with the codec status (019 for a missing GIN index)', async () => {
    const { host } = await setup();
    await host.send(Buffer.from('GIN', 'latin1'));
    expect(decodeResponsePacket(await host.response())).toMatchObject({ id: 'GIN', status: 19 });
    await host.send(Buffer.from('GIN002XX', 'latin1'));
    expect(decodeResponsePacket(await host.response())).toMatchObject({ id: 'GIN', status: 11 });
  });
});

describe('PinpadSimulator — keypad', () => {
  it('returns function keys from GKY in RSP_STAT, ignoring digits', async () => {
    const { sim, host } = await setup();
    sim.keypad.type('12');
    sim.keypad.press('f2');
    expect((await host.call(gkyCommand, {})).result).toEqual({ key: 'f2' });
    sim.keypad.press('cancel');
    const cancel = await host.call(gkyCommand, {});
    expect(cancel.status).toBe(13);
  });

  it('collects a CPF with GCD under the fixed prompt and clears the display at the end', async () => {
    const { sim, host } = await setup();
    const prompts: string[] = [];
    sim.on('display', (d) => prompts.push(d.lines[0] ?? ''));
    sim.keypad.type('123');
    sim.keypad.press('enter'); // too short for the CPF minimum: ignored
    sim.keypad.type('45678909');
    sim.keypad.type('99'); // beyond the maximum: ignored
    sim.keypad.press('enter');
    const result = await host.call(gcdCommand, gcdRequestFor('cpf'));
    expect(result.result).toEqual({ value: '12345678909' });
    expect(prompts).toContain('DIGITE O CPF');
    expect(sim.display.lines).toEqual(['', '']);
  });

  it('answers ST_CANCEL when the customer cancels GCD and ST_TIMEOUT after SPE_TIMEOUT idle', async () => {
    const { sim, host } = await setup();
    sim.keypad.type('1');
    sim.keypad.press('cancel');
    expect((await host.call(gcdCommand, gcdRequestFor('cpf'))).status).toBe(13);
    expect((await host.call(gcdCommand, gcdRequestFor('cpf', 5))).status).toBe(12);
  });

  it('selects a menu option by digit, or by arrows and ENTER', async () => {
    const { sim, host } = await setup();
    sim.keypad.type('2');
    const direct = await host.call(mnuCommand, { title: 'PAGAMENTO', options: ['1 CREDITO', '2 DEBITO', '3 PIX'] });
    expect(direct.result).toEqual({ index: 2 });
    sim.keypad.press('down');
    sim.keypad.press('down');
    sim.keypad.press('enter');
    expect((await host.call(mnuCommand, { options: ['A', 'B', 'C'] })).result).toEqual({ index: 3 });
  });

  it('collects a PIN with GPN as a DUKPT format 0 block that only a host with the BDK opens, never the PIN in clear', async () => {
    const { sim, host } = await setup();
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    const first = await host.call(gpnCommand, {
      method: 'dukpt',
      keyIndex: 1,
      pan: '4111111111111111',
      minDigits: 4,
      maxDigits: 12,
      message: 'VALOR: 10,00\nSENHA:',
    });
    expect(first.result?.pinBlock).toMatch(/^[0-9A-F]{16}$/);
    expect(first.result?.pinBlock).not.toContain('1234');
    // The acquirer's host: the initial key from the BDK and the KSN, the transaction's PIN key, the block.
    const ksn = Buffer.from(first.result!.ksn, 'hex');
    expect(ksnCounter(ksn)).toBeGreaterThan(0);
    const key = pinKey(initialKey(TEST_BDK, withCounter(ksn, 0)), ksn);
    expect(pinOfBlock(tdesDecrypt(key, Buffer.from(first.result!.pinBlock, 'hex')), '4111111111111111')).toBe('1234');
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    const second = await host.call(gpnCommand, {
      method: 'mkwk',
      keyIndex: 1,
      workingKey: '0'.repeat(32),
      pan: '4111111111111111',
      minDigits: 4,
      maxDigits: 12,
      message: 'SENHA:',
    });
    expect(second.result?.pinBlock).not.toBe(first.result?.pinBlock);
    expect(second.result?.ksn).toBe('0'.repeat(20));
  });

  it('answers ST_INVCALL to GPN without a PAN when no card was read, and ST_TIMEOUT when idle', async () => {
    const { host } = await setup();
    const base = { method: 'dukpt' as const, keyIndex: 1, minDigits: 4, maxDigits: 12, message: 'SENHA:' };
    expect((await host.call(gpnCommand, base)).status).toBe(10);
    expect((await host.call(gpnCommand, { ...base, pan: '4111111111111111' })).status).toBe(12);
  });
});

describe('PinpadSimulator — events (CEX)', () => {
  it('reports a tap, a swipe with truncated tracks, an inserted card and a key', async () => {
    const { sim, host } = await setup();
    const opts = { key: false, magstripe: true, icc: 'insertion' as const, contactless: true };
    sim.tapCard('visaContactless');
    expect((await host.call(cexCommand, opts)).result).toEqual({ event: 'contactlessDetected' });
    // The tapped card stays in the field for the GCX that follows: take it out of the way.
    await host.call(gcxCommand, gcxSale({ options: { contactless: true, hideAmount: false } }));
    sim.swipeCard('visaMagstripe');
    const swipe = await host.call(cexCommand, opts);
    expect(swipe.result?.event).toBe('cardSwiped');
    expect(swipe.result?.tracks?.track2).toBe('4012888888881881=3012101');
    sim.insertCard('visaCredit');
    expect((await host.call(cexCommand, opts)).result).toEqual({ event: 'iccInserted' });
    sim.keypad.press('f1');
    expect((await host.call(cexCommand, { ...opts, key: true })).result).toEqual({ event: 'f1' });
  });

  it('ends with event 93 after the contactless idle cap and ST_TIMEOUT after SPE_TIMEOUT', async () => {
    const { host } = await setup({ timings: { ctlsIdleMs: 30 } });
    const ctls = await host.call(cexCommand, { key: true, magstripe: false, icc: 'ignore', contactless: true });
    expect(ctls.result).toEqual({ event: 'contactlessTimeout' });
    const keys = await host.call(cexCommand, {
      key: true,
      magstripe: false,
      icc: 'ignore',
      contactless: false,
      timeoutSeconds: 2,
    });
    expect(keys.status).toBe(12);
  });
});

describe('PinpadSimulator — Abecs chip sale (GCX → GOX → FCX → RMC)', () => {
  it('runs a chip sale with NTMs, online PIN, approval and card removal', async () => {
    const { sim, host } = await setup({ timings: { rmcAlternateMs: 5 } });
    sim.presentNextCard('visaCredit');
    const prompts: string[][] = [];
    sim.on('display', (d) => prompts.push([...d.lines]));
    const gcx = await host.call(gcxCommand, gcxSale({ tagList: ['9F26', '5A'] }));
    expect(prompts[0]).toEqual(['VALOR: 1.234,56', 'INSIRA OU PASSE']);
    expect(gcx.result).toMatchObject({
      cardTypeCode: '03',
      pan: '4111111111111111',
      applicationLabel: 'CREDITO',
      aidTableInfo: [{ acquirer: 1, record: '01', appType: 1 }],
    });
    expect(decodeEmvTlv(gcx.result!.emvData!).map((t) => t.tag)).toEqual(['9F26']);
    expect(host.notifications).toEqual(['SELECIONADO:    CREDITO']);

    sim.keypad.type('1234');
    sim.keypad.press('enter');
    const gox = await host.call(goxCommand, goxRequest());
    expect(host.notifications[1]).toBe('SOLICITE A SENHA');
    expect(gox.result).toMatchObject({ decision: 'goOnline', onlinePinCaptured: true });
    expect(gox.result?.pinBlock).toMatch(/^[0-9A-F]{16}$/);
    const tags = decodeEmvTlv(gox.result!.emvData!);
    expect(tags.map((t) => t.tag)).toEqual(['9F26', '9F27', '9F36', '9F02']); // never 5A / 57
    expect(tags[1]!.value).toEqual(Buffer.of(0x80)); // ARQC
    expect(tags[3]!.value.toString('hex')).toBe('000000123456');

    const ged = await host.call(gedCommand, { tagList: ['9F27', '50'] });
    expect(decodeEmvTlv(ged.result!.emvData).map((t) => t.tag)).toEqual(['9F27', '50']);

    const fcx = await host.call(fcxCommand, { outcome: 'approved', arc: '00', tagList: ['8A', '9F27'] });
    expect(fcx.result?.decision).toBe('approved');
    expect(decodeEmvTlv(fcx.result!.emvData!)[1]!.value).toEqual(Buffer.of(0x40)); // TC

    await host.sendCommand(rmcCommand, { message: 'APROVADA' });
    await host.until(() => prompts.some((p) => p[0] === 'RETIRE O CARTAO'));
    expect(host.pendingPackets).toBe(0);
    sim.removeCard();
    expect(decodeResponsePacket(await host.response())).toMatchObject({ id: 'RMC', status: 0 });
    expect(sim.display.lines).toEqual(['APROVADA', '']);
  });

  it('runs a contactless sale without PIN and an RMC that returns at once', async () => {
    const { sim, host } = await setup();
    sim.tapCard('mastercardContactless');
    const gcx = await host.call(
      gcxCommand,
      gcxSale({ amount: 100, options: { contactless: true, hideAmount: false } }),
    );
    expect(gcx.result).toMatchObject({ cardTypeCode: '06', deviceType: '00', applicationLabel: 'CREDITO' });
    const gox = await host.call(goxCommand, goxRequest({ amount: 100 }));
    expect(gox.result).toMatchObject({ decision: 'goOnline', onlinePinCaptured: false });
    expect(host.notifications).toEqual(['SELECIONADO:    CREDITO']);
    expect((await host.call(fcxCommand, { outcome: 'approved', arc: '00' })).result?.decision).toBe('approved');
    expect((await host.call(rmcCommand, { message: 'OBRIGADO' })).status).toBe(0);
  });

  it('does not accept a contactless card when GCX leaves contactless off', async () => {
    const { sim, host } = await setup();
    sim.tapCard('visaContactless');
    expect((await host.call(gcxCommand, gcxSale({ timeout: 3 }))).status).toBe(12);
  });

  it('reads a magstripe card, with GOX then out of sequence', async () => {
    const { sim, host } = await setup();
    sim.swipeCard('visaMagstripe');
    const gcx = await host.call(gcxCommand, gcxSale());
    expect(gcx.result).toMatchObject({ cardTypeCode: '00', iccStatus: 0, track2: '4012888888881881=3012101' });
    expect(gcx.result?.pan).toBeUndefined();
    expect((await host.call(goxCommand, goxRequest())).status).toBe(10);
  });

  it('declines offline without asking for the PIN', async () => {
    const { sim, host } = await setup();
    sim.insertCard('visaOfflineDeclined');
    await host.call(gcxCommand, gcxSale());
    const gox = await host.call(goxCommand, goxRequest());
    expect(gox.result?.decision).toBe('declined');
    expect(host.notifications).not.toContain('SOLICITE A SENHA');
  });

  it('refuses after an online approval, so the host must reverse', async () => {
    const { sim, host } = await setup();
    sim.insertCard('visaRefuseAfterOnline');
    await host.call(gcxCommand, gcxSale());
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    expect((await host.call(goxCommand, goxRequest())).result?.decision).toBe('goOnline');
    expect((await host.call(fcxCommand, { outcome: 'approved', arc: '00' })).result?.decision).toBe('declined');
  });

  it('fails the next chip command with an ICC error when the card was pulled out early', async () => {
    const { sim, host } = await setup();
    sim.insertCard('visaRemovedEarly');
    expect((await host.call(gcxCommand, gcxSale())).status).toBe(0);
    expect(sim.cardStatus.cardInSlot).toBe(false);
    expect((await host.call(goxCommand, goxRequest())).status).toBe(61);
  });

  it('answers ST_INVCALL for GOX, GED or FCX without a card read, and FCX before GOX', async () => {
    const { sim, host } = await setup();
    expect((await host.call(goxCommand, goxRequest())).status).toBe(10);
    expect((await host.call(gedCommand, { tagList: ['9F26'] })).status).toBe(10);
    expect((await host.call(fcxCommand, { outcome: 'approved', arc: '00' })).status).toBe(10);
    sim.insertCard('mastercardCredit');
    await host.call(gcxCommand, gcxSale());
    expect((await host.call(fcxCommand, { outcome: 'approved', arc: '00' })).status).toBe(10);
    await host.call(cloCommand, {});
    expect((await host.call(gedCommand, { tagList: ['9F26'] })).status).toBe(10);
  });
});

describe('PinpadSimulator — legacy chip sale and tables (GCR/GOC/FNC, TLI/TLR/TLE)', () => {
  it('runs GCR → GOC → FNC with a host decline', async () => {
    const { sim, host } = await setup({ tableVersions: { 1: '0000000000' } });
    sim.insertCard('mastercardCredit');
    const gcr = await host.call(gcrCommand, gcrRequest());
    expect(gcr.result).toMatchObject({ cardTypeCode: '03', pan: '5555555555554444', applicationLabel: 'CREDITO' });
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    const goc = await host.call(gocCommand, gocRequest());
    expect(goc.result).toMatchObject({ decision: 'goOnline', onlinePinCaptured: true });
    const fnc = await host.call(fncCommand, {
      communication: 'ok',
      arc: '51',
      issuerData: Buffer.alloc(0),
      tags: ['9F27'],
    });
    expect(fnc.result?.decision).toBe('declinedByHost');
  });

  it('answers GCR 020 on a table version mismatch and resumes with a bare GCR after a table load', async () => {
    const { sim, host } = await setup();
    sim.insertCard('visaCredit');
    expect((await host.call(gtsCommand, { acquirer: 1 })).result).toEqual({ tableVersion: '0000000000' });
    expect((await host.call(gcrCommand, gcrRequest({ tableVersion: 'TABVER0008' }))).status).toBe(20);

    expect((await host.call(tliCommand, { acquirer: 1, tableVersion: 'TABVER0008' })).status).toBe(20);
    const record = { table: 'aid' as const, acquirer: 1, record: '01', body: 'X'.repeat(20) };
    expect((await host.call(tlrCommand, { records: [record] })).status).toBe(0);
    expect(sim.tableVersion(1)).toBe('0000000000'); // nothing changes before TLE
    expect((await host.call(tleCommand, {})).status).toBe(0);
    expect((await host.call(gtsCommand, { acquirer: 1 })).result).toEqual({ tableVersion: 'TABVER0008' });

    const resumed = await host.call(gcrCommand, { resume: true });
    expect(resumed.result).toMatchObject({ cardTypeCode: '03', acquirer: 1 });
    expect((await host.call(gcrCommand, { resume: true })).status).toBe(10);
    expect((await host.call(tliCommand, { acquirer: 1, tableVersion: 'TABVER0008' })).status).toBe(0);
  });

  it('refuses TLR and TLE without a TLI', async () => {
    const { host } = await setup();
    const record = { table: 'capk' as const, acquirer: 2, record: '01', body: 'Y'.repeat(10) };
    expect((await host.call(tlrCommand, { records: [record] })).status).toBe(10);
    expect((await host.call(tleCommand, {})).status).toBe(10);
  });

  it('finishes an offline-approved legacy sale with FNC approved', async () => {
    const { sim, host } = await setup();
    sim.insertCard('mastercardOfflineApproved');
    await host.call(gcrCommand, gcrRequest());
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    expect((await host.call(gocCommand, gocRequest())).result).toMatchObject({
      decision: 'approvedOffline',
      offlinePinVerified: true,
    });
    const fnc = await host.call(fncCommand, {
      communication: 'failed',
      arc: '00',
      issuerData: Buffer.alloc(0),
      tags: [],
    });
    expect(fnc.result?.decision).toBe('approved');
  });
});

describe('PinpadSimulator — aborts', () => {
  it('answers CAN with EOT, aborts the blocking command and never answers it', async () => {
    const { sim, host } = await setup();
    await host.sendCommand(gcdCommand, gcdRequestFor('cpf'));
    await host.until(() => sim.display.lines[0] === 'DIGITE O CPF');
    await host.cancel();
    await host.until(() => host.controlBytes.includes(EOT));
    sim.keypad.type('12345678909');
    sim.keypad.press('enter');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.pendingPackets).toBe(0);
    // The keys typed after the abort are still queued for the next command that reads them.
    expect((await host.call(gcdCommand, gcdRequestFor('cpf'))).result).toEqual({ value: '12345678909' });
  });

  it('lets a new command abort a blocking one and answers only the new one', async () => {
    const { sim, host } = await setup();
    await host.sendCommand(gcxCommand, gcxSale());
    await host.until(() => sim.display.lines[0] === 'VALOR: 1.234,56');
    const info = await host.call(ginCommand, { acquirer: 0 });
    expect(info.id).toBe('GIN');
    sim.insertCard('visaCredit');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.pendingPackets).toBe(0);
    expect(host.notifications).toEqual([]);
  });

  it('times out a PIN entry after the (scaled) idle limit', async () => {
    const { sim, host } = await setup({ timings: { pinIdleMs: 20 } });
    sim.insertCard('visaCredit');
    await host.call(gcxCommand, gcxSale());
    expect((await host.call(goxCommand, goxRequest())).status).toBe(12);
  });
});

describe('PinpadSimulator — autoCustomer', () => {
  it('answers GCD, card reads, PIN and card removal on its own', async () => {
    const { sim, host } = await setup({ autoCustomer: { delayMs: 1, cpf: '12345678909', card: 'eloCredit' } });
    expect((await host.call(gcdCommand, gcdRequestFor('cpf'))).result).toEqual({ value: '12345678909' });
    const gcx = await host.call(gcxCommand, gcxSale());
    expect(gcx.result?.pan).toBe('6362970000457013');
    expect((await host.call(goxCommand, goxRequest())).result?.onlinePinCaptured).toBe(true);
    expect((await host.call(fcxCommand, { outcome: 'approved', arc: '00' })).result?.decision).toBe('approved');
    expect((await host.call(rmcCommand, { message: 'OBRIGADO' })).status).toBe(0);
    expect(sim.cardStatus.cardInSlot).toBe(false);
  });

  it('types its cnpj under a CNPJ prompt and its cpf under a CPF one', async () => {
    const { host } = await setup({ autoCustomer: { delayMs: 1, cpf: '52998224725', cnpj: '45339827000162' } });
    expect((await host.call(gcdCommand, gcdRequestFor('cnpj'))).result).toEqual({ value: '45339827000162' });
    expect((await host.call(gcdCommand, gcdRequestFor('cnpjAgain'))).result).toEqual({ value: '45339827000162' });
    expect((await host.call(gcdCommand, gcdRequestFor('cpfAgain'))).result).toEqual({ value: '52998224725' });
  });

  it('types its identification (a supervisor PIN in training) under IDENTIFICACAO, and its cpf elsewhere', async () => {
    const { host } = await setup({ autoCustomer: { delayMs: 1, cpf: '52998224725', identification: '1234' } });
    expect(
      (await host.call(gcdCommand, { ...gcdRequestFor('identification'), minDigits: 4, maxDigits: 8 })).result,
    ).toEqual({ value: '1234' });
    expect((await host.call(gcdCommand, gcdRequestFor('cpf'))).result).toEqual({ value: '52998224725' });
  });
});
