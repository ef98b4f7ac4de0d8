/**
 * The Pinpad API against the simulated PINPAD, over each real medium: an in-memory link, a
 * pseudo terminal made by socat (the serial driver), and TCP on 127.0.0.1.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gedCommand } from '../../../drivers/abecs/commands/ged.js';
import { gtsCommand } from '../../../drivers/abecs/commands/gts.js';
import { tleCommand } from '../../../drivers/abecs/commands/tle.js';
import { tliCommand } from '../../../drivers/abecs/commands/tli.js';
import { dexCommand } from '../../../drivers/abecs/commands/dex.js';
import { gpnCommand } from '../../../drivers/abecs/commands/gpn.js';
import { LinkError } from '../../../drivers/abecs/link.js';
import { Pinpad, type PinpadNotification } from '../../../drivers/abecs/pinpad.js';
import { AbecsStatusError } from '../../../drivers/abecs/status.js';
import { InvalidArgumentError } from '../../../drivers/errors.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  startPtySimulator,
  startTcpSimulator,
  type DeviceLinkFaults,
} from '../../../drivers/simulator/index.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import { TcpTransport } from '../../../drivers/transports/tcp.js';
import { displayed } from '../../helpers/pinpad-display.js';

/** Short link timings so fault tests finish fast; the protocol's rules stay the same. */
const HOST_TIMINGS = { ackTimeoutMs: 1500, silenceMs: 40, eotTimeoutMs: 1000, interByteTimeoutMs: 1500 };
const DEVICE_LINK = { timings: { silenceMs: 40, interByteTimeoutMs: 1500 } };

interface Rig {
  readonly pinpad: Pinpad;
  readonly sim: PinpadSimulator;
  readonly faults: () => DeviceLinkFaults;
  /** Pulls the cable: memory link unplugged, socat killed, TCP connection dropped. */
  readonly unplug: () => Promise<void>;
  readonly close: () => Promise<void>;
}

type Medium = 'memory' | 'pty' | 'tcp';

async function rig(medium: Medium): Promise<Rig> {
  const sim = new PinpadSimulator({ serialNumber: `SN-${medium}`, timeScale: 0.01, link: DEVICE_LINK });
  if (medium === 'memory') {
    const served = await startMemorySimulator(sim);
    const pinpad = new Pinpad(served.link.host, { timings: HOST_TIMINGS });
    await pinpad.open();
    return {
      pinpad,
      sim,
      faults: () => served.session.link.faults,
      unplug: () => Promise.resolve(served.link.unplug()),
      close: async () => {
        await pinpad.close(null).catch(() => {});
        await served.close();
      },
    };
  }
  if (medium === 'pty') {
    const pty = await startPtySimulator(sim);
    const pinpad = new Pinpad(new SerialTransport(pty.path), { timings: HOST_TIMINGS });
    await pinpad.open();
    return {
      pinpad,
      sim,
      faults: () => pty.session.link.faults,
      unplug: () => pty.close(),
      close: async () => {
        await pinpad.close(null).catch(() => {});
        await pty.close();
      },
    };
  }
  const tcp = await startTcpSimulator(sim, { host: '127.0.0.1', port: 0 });
  const pinpad = new Pinpad(new TcpTransport({ host: '127.0.0.1', port: tcp.port, reconnect: false }), {
    timings: HOST_TIMINGS,
  });
  await pinpad.open();
  return {
    pinpad,
    sim,
    faults: () => {
      if (!tcp.session) throw new Error('no TCP client connected to the simulator');
      return tcp.session.link.faults;
    },
    unplug: () => tcp.disconnectClient(),
    close: async () => {
      await pinpad.close(null).catch(() => {});
      await tcp.close();
    },
  };
}

const rigs: Rig[] = [];
afterEach(async () => {
  while (rigs.length > 0) await rigs.pop()!.close();
});

async function open(medium: Medium): Promise<Rig> {
  const r = await rig(medium);
  rigs.push(r);
  return r;
}

describe.each<Medium>(['memory', 'pty', 'tcp'])('Pinpad over %s', (medium) => {
  it('opens and identifies the PINPAD (GIX)', async () => {
    const { pinpad } = await open(medium);
    const info = await pinpad.info();
    expect(info).toMatchObject({
      manufacturer: 'PINBRIDGE SIM',
      serialNumber: `SN-${medium}`,
      specVersion: '2.20',
      protocol: 'abecs',
      contactless: true,
    });
    expect(info.model).toBe('PBSIM-1');
    expect(info.memory).toBe('64MB');
  });

  it('shows two lines of text, with Portuguese accents', async () => {
    const { pinpad, sim } = await open(medium);
    await pinpad.display('OPERAÇÃO\nFINALIZADA');
    expect(sim.display.lines).toEqual(['OPERAÇÃO', 'FINALIZADA']);
    await pinpad.display('OPERAÇÃO\nFINALIZADA', { stripAccents: true });
    expect(sim.display.lines).toEqual(['OPERACAO', 'FINALIZADA']);
  });

  it('refuses a text over 32 characters before sending anything', async () => {
    const { pinpad } = await open(medium);
    const write = vi.spyOn(pinpad.transport, 'write');
    await expect(pinpad.display('x'.repeat(33))).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(write).not.toHaveBeenCalled();
  });

  it('reads a key and a CPF typed by the customer', async () => {
    const { pinpad, sim } = await open(medium);
    sim.keypad.press('f2');
    expect(await pinpad.readKey()).toBe('f2');
    const cpf = pinpad.readCustomerData('cpf', { timeoutSeconds: 60 });
    await displayed(sim, /CPF/);
    sim.keypad.type('12345678909');
    sim.keypad.press('enter');
    expect(await cpf).toBe('12345678909');
  });

  it('reports the customer pressing CANCEL as ST_CANCEL with a pt-BR sentence', async () => {
    const { pinpad, sim } = await open(medium);
    const cpf = pinpad.readCustomerData('cpf');
    await displayed(sim, /CPF/);
    sim.keypad.press('cancel');
    const error = await cpf.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbecsStatusError);
    expect(error).toMatchObject({ code: 'ST_CANCEL', status: 13, command: 'GCD' });
    expect((error as AbecsStatusError).cashierMessage).toMatch(/cancelad/i);
  });

  it('offers a menu and returns the chosen option', async () => {
    const { pinpad, sim } = await open(medium);
    const choice = pinpad.menu('PARCELAS?', ['A VISTA', '2X', '3X']);
    sim.keypad.type('3');
    expect(await choice).toBe(2);
  });

  it('runs a chip sale: card, PIN, online approval, card removal', async () => {
    const { pinpad, sim } = await open(medium);
    const notes: PinpadNotification[] = [];
    pinpad.on('notification', (n) => notes.push(n));
    sim.insertCard('visaCredit');
    const card = await pinpad.readCard({ amount: 123456, options: { contactless: true, hideAmount: false } });
    expect(card.cardType).toBe('chip');
    expect(card.pan).toMatch(/^411111/);
    expect(card.aidTableInfo?.length).toBeGreaterThan(0);
    expect(notes.map((n) => n.lines[0])).toContain('SELECIONADO:');

    sim.keypad.type('1234');
    sim.keypad.press('enter');
    const chip = await pinpad.goOnChip({
      acquirer: card.aidTableInfo![0]!.acquirer,
      amount: 123456,
      pinMethod: 'dukpt',
      keyIndex: 1,
    });
    expect(chip.decision).toBe('goOnline');
    expect(chip.pinBlock).toMatch(/^[0-9A-F]{16}$/);
    expect(notes.map((n) => n.text)).toContain('SOLICITE A SENHA');

    const finish = await pinpad.finishChip({ outcome: 'approved', arc: '00' });
    expect(finish.decision).toBe('approved');

    const removal = pinpad.removeCard('OBRIGADO');
    await displayed(sim, /RETIRE|OBRIGADO/);
    sim.removeCard();
    await removal;
  });

  it('reads a contactless card', async () => {
    const { pinpad, sim } = await open(medium);
    sim.tapCard('visaContactless');
    const card = await pinpad.readCard({ amount: 500, options: { contactless: true, hideAmount: false } });
    expect(card.cardType).toBe('contactlessChip');
  });

  it('tells the host when the card refuses after an online approval', async () => {
    const { pinpad, sim } = await open(medium);
    sim.insertCard('visaRefuseAfterOnline');
    const card = await pinpad.readCard({ amount: 1000 });
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    await pinpad.goOnChip({ acquirer: card.aidTableInfo![0]!.acquirer, amount: 1000, pinMethod: 'dukpt', keyIndex: 1 });
    expect((await pinpad.finishChip({ outcome: 'approved', arc: '00' })).decision).toBe('declined');
  });

  it('runs the other commands through execute(): DEX, GPN, GED, GTS and a table load', async () => {
    const { pinpad, sim } = await open(medium);
    await pinpad.execute(dexCommand, { message: 'BEM-VINDO\nAO CAIXA 3' });
    expect(sim.display.lines[0]).toBe('BEM-VINDO');

    sim.keypad.type('4321');
    sim.keypad.press('enter');
    const pin = await pinpad.execute(gpnCommand, {
      method: 'dukpt',
      keyIndex: 1,
      pan: '4111111111111111',
      minDigits: 4,
      maxDigits: 12,
      message: 'SENHA:',
    });
    expect(pin.pinBlock).toMatch(/^[0-9A-F]{16}$/);

    const started = await pinpad.execute(tliCommand, { acquirer: 0, tableVersion: 'TABVER0008' });
    expect(started.versionDiffers).toBe(true);
    await pinpad.execute(tleCommand, {});
    expect((await pinpad.execute(gtsCommand, { acquirer: 0 })).tableVersion).toBe('TABVER0008');

    // GED without a card read first is out of sequence: ST_INVCALL.
    await expect(pinpad.execute(gedCommand, { tagList: ['9F26'] })).rejects.toMatchObject({ code: 'ST_INVCALL' });
  });

  it('recovers from NAKed commands and gives up after the third NAK', async () => {
    const { pinpad, sim, faults } = await open(medium);
    faults().nakNext(2);
    await pinpad.display('APOS 2 NAKS');
    expect(sim.display.lines[0]).toBe('APOS 2 NAKS');

    faults().nakNext(3);
    await expect(pinpad.display('NUNCA')).rejects.toMatchObject({ code: 'NAK_LIMIT' });
    await pinpad.display('DE NOVO OK');
    expect(sim.display.lines[0]).toBe('DE NOVO OK');
  });

  it('asks for a corrupted response again, and gives up after three bad ones', async () => {
    const { pinpad, faults } = await open(medium);
    faults().corruptNextResponses(1);
    expect((await pinpad.info({ refresh: true })).serialNumber).toBe(`SN-${medium}`);

    faults().corruptNextResponses(3);
    await expect(pinpad.info({ refresh: true })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    expect((await pinpad.info({ refresh: true })).serialNumber).toBe(`SN-${medium}`);
  });

  it('cancels a blocking command with CAN and ignores a late response to it', async () => {
    const { pinpad, sim, faults } = await open(medium);
    faults().lateResponseAfterCancel(1);
    const cpf = pinpad.readCustomerData('cpf');
    await displayed(sim, /CPF/);
    await pinpad.cancel();
    await expect(cpf).rejects.toMatchObject({ code: 'CANCELLED' });
    // The late "GCD000" must not be taken for the answer to the next command.
    await pinpad.display('PROXIMO');
    expect(sim.display.lines[0]).toBe('PROXIMO');
    expect((await pinpad.info({ refresh: true })).serialNumber).toBe(`SN-${medium}`);
  });

  it('cancels when the caller aborts, and enforces the caller time limit', async () => {
    const { pinpad, sim } = await open(medium);
    const controller = new AbortController();
    const cpf = pinpad.readCustomerData('cpf', { signal: controller.signal });
    await displayed(sim, /CPF/);
    controller.abort();
    await expect(cpf).rejects.toMatchObject({ code: 'CANCELLED' });
    await expect(pinpad.readKey({ timeoutMs: 150 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await pinpad.display('LIVRE');
  });

  it('runs one command at a time: a second one is BUSY, and the first still completes', async () => {
    const { pinpad, sim } = await open(medium);
    const key = pinpad.readKey();
    await expect(pinpad.display('OUTRO')).rejects.toMatchObject({ code: 'BUSY' });
    sim.keypad.press('enter');
    expect(await key).toBe('enter');
  });

  it('fails the command in flight cleanly when the PINPAD is unplugged', async () => {
    const { pinpad, sim, unplug } = await open(medium);
    const disconnected = new Promise((resolve) => pinpad.once('disconnected', resolve));
    const failure = pinpad.readCustomerData('cpf').catch((e: unknown) => e);
    await displayed(sim, /CPF/);
    // Let the ACK reach the host first: the command is then waiting for the customer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await unplug();
    const error = await failure;
    expect(error).toBeInstanceOf(LinkError);
    expect(error).toMatchObject({ code: 'DISCONNECTED' });
    await disconnected;
    expect(pinpad.busy).toBe(false);
  });
});

describe('Pinpad: the methods a sale goes through (one road: no codec run by hand)', () => {
  async function memory(options: ConstructorParameters<typeof PinpadSimulator>[0] = {}): Promise<Rig> {
    const sim = new PinpadSimulator({ serialNumber: 'SN-SALE', timeScale: 0.01, link: DEVICE_LINK, ...options });
    const served = await startMemorySimulator(sim);
    const pinpad = new Pinpad(served.link.host, { timings: HOST_TIMINGS });
    await pinpad.open();
    const r: Rig = {
      pinpad,
      sim,
      faults: () => served.session.link.faults,
      unplug: () => Promise.resolve(served.link.unplug()),
      close: async () => {
        await pinpad.close(null).catch(() => {});
        await served.close();
      },
    };
    rigs.push(r);
    return r;
  }

  it('shows free text laid out by the PINPAD (DEX) and waits for a swipe (CEX), tracks masked', async () => {
    const { pinpad, sim } = await memory();
    await pinpad.displayExtended('BEM-VINDO\nAO CAIXA 3');
    expect(sim.display.lines[0]).toBe('BEM-VINDO');
    const event = pinpad.waitForEvent({
      key: true,
      magstripe: true,
      icc: 'insertion',
      contactless: false,
      timeoutSeconds: 5,
      panMask: { left: 6, right: 4 },
    });
    sim.swipeCard('visaCredit');
    const swiped = await event;
    expect(swiped.event).toBe('cardSwiped');
    expect(swiped.tracks?.track2).not.toMatch(/4111111111111111/);
  });

  it("relays the PINPAD's messages to the command that asked, and reads a swiped card's PIN (GPN)", async () => {
    const { pinpad, sim } = await memory();
    const mine: string[] = [];
    sim.insertCard('visaCredit');
    await pinpad.readCard(
      { amount: 1000, options: { contactless: false, hideAmount: false } },
      { onNotification: (n) => mine.push(n.lines[0]) },
    );
    expect(mine).toContain('SELECIONADO:');
    sim.removeCard();

    sim.keypad.type('4321');
    sim.keypad.press('enter');
    const pin = await pinpad.readPin({
      method: 'dukpt',
      keyIndex: 1,
      pan: '4111111111111111',
      minDigits: 4,
      maxDigits: 12,
      message: 'SENHA:',
    });
    expect(pin.pinBlock).toMatch(/^[0-9A-F]{16}$/);
  });

  it('says which DUKPT slots hold a key by their KSNs, and loads EMV tables (TLI, TLR…, TLE)', async () => {
    const { pinpad } = await memory({ keySlots: { dukptPin: [1], dukptData: [1] } });
    const ksns = await pinpad.dukptKsns({ pin: 1, data: 2 });
    expect(ksns.pin[1]).toMatch(/^[0-9A-F]{20}$/i);
    expect(ksns.data[2]).toBeUndefined();

    await pinpad.loadTables(0, 'TABVER0009', []);
    expect(await pinpad.tableVersions([0])).toEqual({ 0: 'TABVER0009' });
  });
});
