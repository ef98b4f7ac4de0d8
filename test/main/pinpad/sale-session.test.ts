/**
 * The PINPAD side of a sale against the real simulated PINPAD over an in-memory link: the
 * customer acts through the simulator's keypad and card slot (typing ahead where a command reads
 * keys), or unattended through autoCustomer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeEmvTlv } from '../../../drivers/abecs/emv.js';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { unpackDigits } from '../../../drivers/abecs/commands/gtk.js';
import {
  dataKey,
  initialKey,
  pinKey,
  pinOfBlock,
  tdesDecrypt,
  TEST_BDK,
  withCounter,
} from '../../../drivers/crypto/dukpt.js';
import { applicationTypeOf, track2Of } from '../../../drivers/simulator/cards.js';
import {
  PinpadSimulator,
  TEST_CARDS,
  startMemorySimulator,
  type AutoCustomerOptions,
  type MemorySimulator,
} from '../../../drivers/simulator/index.js';
import { schemaViolations } from '../../../main/contract/rules.js';
import { TerminalAuthorizationRequestV2 } from '../../../main/contract/terminal-v2.js';
import { PinpadSale, SaleStepError, type CardRead, type SaleTimeouts } from '../../../main/pinpad/sale-session.js';
import { displayed } from '../../helpers/pinpad-display.js';
import { centavos } from '../../../main/core/money.js';

/** Short link timings so failures finish fast; the protocol's rules stay the same. */
const HOST_TIMINGS = { ackTimeoutMs: 1500, silenceMs: 40, eotTimeoutMs: 1000, interByteTimeoutMs: 1500 };
const DEVICE_LINK = { timings: { silenceMs: 40, interByteTimeoutMs: 1500 } };
/**
 * The simulator's clock: PINPAD-side limits (SPE_TIMEOUT, PIN idle, the contactless cap) run at
 * 5 % of their length — a 60 s card wait lasts 3 s on the simulated PINPAD.
 */
const TIME_SCALE = 0.05;

/** Issuer data of an approval: 8A "00" and 91 issuer authentication data. */
const ISSUER_APPROVAL = '8A023030' + '9110' + '0123456789ABCDEF0123456789ABCDEF';

interface Rig {
  readonly sim: PinpadSimulator;
  readonly pinpad: Pinpad;
  readonly sale: PinpadSale;
  readonly served: MemorySimulator;
  /** NTM texts the sale passed to onMessage. */
  readonly messages: string[];
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

async function rig(
  options: { autoCustomer?: AutoCustomerOptions; timeouts?: Partial<SaleTimeouts> } = {},
): Promise<Rig> {
  const sim = new PinpadSimulator({
    serialNumber: 'SN-SALE',
    timeScale: TIME_SCALE,
    link: DEVICE_LINK,
    ...(options.autoCustomer ? { autoCustomer: options.autoCustomer } : {}),
  });
  const served = await startMemorySimulator(sim);
  const pinpad = new Pinpad(served.link.host, { timings: HOST_TIMINGS });
  await pinpad.open();
  open.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  const messages: string[] = [];
  const sale = new PinpadSale(pinpad, {
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    onMessage: (text) => messages.push(text),
  });
  return { sim, pinpad, sale, served, messages };
}

/** Every line-2 text the display showed from now on. */
function secondLines(sim: PinpadSimulator): string[] {
  const seen: string[] = [];
  sim.on('display', ({ lines }) => seen.push(lines[1] ?? ''));
  return seen;
}

async function failure(promise: Promise<unknown>): Promise<SaleStepError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the step to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SaleStepError);
  return error as SaleStepError;
}

function typePin(sim: PinpadSimulator, pin = '1234'): void {
  sim.keypad.type(pin);
  sim.keypad.press('enter');
}

function emvTags(read: CardRead): string[] {
  return decodeEmvTlv(Buffer.from(read.authorization.emv_data ?? '', 'hex')).map((item) => item.tag);
}

/** What the acquirer's host does with GTK's data: the DUKPT data key from the BDK and the KSN, then track 2. */
/** The DUKPT KSN of a PIN block (the simulator's keys are DUKPT). */
function pinKsnOf(read: CardRead): string | undefined {
  const pin = read.authorization.pin_block;
  return pin === undefined || pin.method === 'mkwk' ? undefined : pin.ksn;
}

function openTrack(sealed: CardRead['authorization']['encrypted_card_data']): string {
  expect(sealed?.method).toBe('dukpt_tdes_ecb');
  if (sealed?.method !== 'dukpt_tdes_ecb') return '';
  const ksn = Buffer.from(sealed.ksn, 'hex');
  const key = dataKey(initialKey(TEST_BDK, withCounter(ksn, 0)), ksn);
  return unpackDigits(tdesDecrypt(key, Buffer.from(sealed.payload, 'hex')));
}

function expectValidRequest(read: CardRead): void {
  const { terminal, ...card } = read.authorization;
  expect(
    schemaViolations(TerminalAuthorizationRequestV2, { ...card, terminal: { serial_number: 'SN-SALE', ...terminal } }),
  ).toEqual([]);
}

describe('PinpadSale: the card', () => {
  it('runs a chip credit sale: card, PIN, online approval, card removal', async () => {
    const { sim, sale, messages } = await rig();
    sim.insertCard('visaCredit');
    typePin(sim);
    const read = await sale.readCard({ amount: centavos(123456), paymentType: 'credit' });

    expect(read.card).toEqual({
      brand: 'visa',
      maskedPan: '411111******1111',
      entryMode: 'chip',
      verification: 'online_pin',
    });
    expect(read.authorization).toMatchObject({
      entry_mode: 'chip',
      card: {
        brand: 'visa',
        first6_digits: '411111',
        last4_digits: '1111',
        expiration: '3012',
        pan_sequence_number: '00',
      },
      cardholder_verification: 'online_pin',
    });
    expect(read.authorization.pin_block?.block).toMatch(/^[0-9A-F]{16}$/);
    expect(pinKsnOf(read)).toMatch(/^[0-9A-F]{20}$/);
    expect(read.authorization.emv_data).toMatch(/^[0-9A-F]+$/);
    expect(emvTags(read)).toEqual(expect.arrayContaining(['9F26', '9F27', '9F36', '9F37', '95', '9F02']));
    // The chip card's track 2 sealed by GTK for the acquirer's host (GCX, GTK, then GOX, as S220 §3.7.5 has it).
    expect(openTrack(read.authorization.encrypted_card_data)).toBe(track2Of(TEST_CARDS.visaCredit));
    expect(read.chipDecision).toBe('online');
    expect(read.needsChipCompletion).toBe(true);
    expect(messages).toEqual(expect.arrayContaining(['SELECIONADO: CREDITO', 'SOLICITE A SENHA']));
    expectValidRequest(read);

    const finish = await sale.finishChip({ approved: true, responseCode: '00', issuerEmvData: ISSUER_APPROVAL });
    expect(finish.decision).toBe('accepted');
    // The second cryptogram (TC) and its data, for the completion report; nothing that carries the PAN.
    const completionTags = decodeEmvTlv(Buffer.from(finish.emvData!, 'hex')).map((item) => item.tag);
    expect(completionTags).toEqual(expect.arrayContaining(['9F26', '9F27', '9F36']));
    expect(completionTags.filter((tag) => ['5A', '57', '56', '5F20'].includes(tag))).toEqual([]);

    let removed = false;
    const removal = sale.removeCard('APROVADA\nRETIRE O CARTAO').then(() => (removed = true));
    await displayed(sim, /RETIRE O CARTAO/);
    expect(removed).toBe(false);
    sim.removeCard();
    await removal;
    expect(sim.cardStatus.cardInSlot).toBe(false);
  });

  it('reads a contactless card without a PIN, and removal needs no one to pull anything', async () => {
    const { sim, sale } = await rig();
    sim.tapCard('visaContactless');
    const read = await sale.readCard({ amount: centavos(5000), paymentType: 'credit' });
    expect(read.card).toEqual({
      brand: 'visa',
      maskedPan: '476173******0010',
      entryMode: 'contactless_chip',
      verification: 'none',
    });
    expect(read.authorization.cardholder_verification).toBe('none');
    expect(read.authorization.pin_block).toBeUndefined();
    expect(emvTags(read)).toContain('9F26');
    expect(openTrack(read.authorization.encrypted_card_data)).toBe(track2Of(TEST_CARDS.visaContactless));
    expect(read.needsChipCompletion).toBe(true);
    expectValidRequest(read);
    expect((await sale.finishChip({ approved: true, responseCode: '00', issuerEmvData: null })).decision).toBe(
      'accepted',
    );
    await sale.removeCard('OBRIGADO');
    expect(sim.display.lines).toEqual(['OBRIGADO', '']);
  });

  it('reads a swiped card: no chip to finish, no EMV data, no PIN on credit', async () => {
    const { sim, sale } = await rig();
    sim.swipeCard('visaMagstripe');
    const read = await sale.readCard({ amount: centavos(2500), paymentType: 'credit' });
    expect(read.card).toEqual({
      brand: 'visa',
      maskedPan: '401288******1881',
      entryMode: 'magstripe',
      verification: 'none',
    });
    const { encrypted_card_data: sealed, ...clear } = read.authorization;
    expect(clear).toEqual({
      terminal: { model: 'PINBRIDGE SIM PBSIM-1', table_versions: {} },
      entry_mode: 'magstripe',
      pos_entry_mode: '901',
      card: {
        brand: 'visa',
        first6_digits: '401288',
        last4_digits: '1881',
        pan_length: 16,
        expiration: '3012',
        service_code: '101',
      },
      cardholder_verification: 'none',
    });
    expect(sealed).toMatchObject({ format: 'track2', method: 'dukpt_tdes_ecb', key_slot: 1 });
    // Track 2 travels encrypted by the PINPAD (GTK); the acquirer's host, with the BDK, reads it whole.
    expect(sealed?.payload).not.toContain('4012888888881881');
    expect(openTrack(sealed)).toBe(track2Of(TEST_CARDS.visaMagstripe));
    expect(read.chipDecision).toBe('online');
    expect(read.needsChipCompletion).toBe(false);
    expectValidRequest(read);
  });

  it('asks a swiped card for its PIN on a debit sale (GPN)', async () => {
    const { sim, sale } = await rig();
    sim.swipeCard('visaMagstripe');
    typePin(sim);
    const read = await sale.readCard({ amount: centavos(2500), paymentType: 'debit' });
    expect(read.card.entryMode).toBe('magstripe');
    expect(read.authorization.cardholder_verification).toBe('online_pin');
    expect(read.authorization.pin_block?.block).toMatch(/^[0-9A-F]{16}$/);
    // The acquirer's host opens the PIN block with the BDK and the KSN: the PIN the customer typed.
    const { block } = read.authorization.pin_block!;
    const ksn = pinKsnOf(read)!;
    const key = pinKey(initialKey(TEST_BDK, withCounter(Buffer.from(ksn, 'hex'), 0)), Buffer.from(ksn, 'hex'));
    expect(pinOfBlock(tdesDecrypt(key, Buffer.from(block, 'hex')), TEST_CARDS.visaMagstripe.pan)).toBe('1234');
    expect(openTrack(read.authorization.encrypted_card_data)).toBe(track2Of(TEST_CARDS.visaMagstripe));
  });

  it('sells on debit with a debit card', async () => {
    const { sim, sale } = await rig();
    sim.insertCard('visaDebit');
    typePin(sim);
    const read = await sale.readCard({ amount: centavos(4200), paymentType: 'debit' });
    expect(read.card).toEqual({
      brand: 'visa',
      maskedPan: '400005******5556',
      entryMode: 'chip',
      verification: 'online_pin',
    });
    expect(read.authorization.cardholder_verification).toBe('online_pin');
    expect(read.needsChipCompletion).toBe(true);
  });

  it('refuses a credit-only card on a debit sale with UNSUPPORTED_CARD, before any PIN', async () => {
    const { sim, sale, messages } = await rig();
    sim.insertCard('visaCredit');
    const error = await failure(sale.readCard({ amount: centavos(4200), paymentType: 'debit' }));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_CARD', step: 'read_card' });
    expect(error.cashierMessage).toMatch(/débito/);
    expect(messages).not.toContain('SOLICITE A SENHA');
    // The card is still in the slot: removal waits for it.
    expect(sim.cardStatus.cardInSlot).toBe(true);
    const removal = sale.removeCard('CARTAO RECUSADO');
    await displayed(sim, /RETIRE O CARTAO/);
    sim.removeCard();
    await removal;
  });

  it('hands back a card that declined offline: no PIN, nothing to finish', async () => {
    const { sim, sale, messages } = await rig();
    sim.insertCard('visaOfflineDeclined');
    const read = await sale.readCard({ amount: centavos(1000), paymentType: 'credit' });
    expect(read.chipDecision).toBe('offlineDeclined');
    expect(read.needsChipCompletion).toBe(false);
    expect(messages).not.toContain('SOLICITE A SENHA');
  });

  it("reports 'refused' when the card refuses after the host approved", async () => {
    const { sim, sale } = await rig();
    sim.insertCard('visaRefuseAfterOnline');
    typePin(sim);
    const read = await sale.readCard({ amount: centavos(1000), paymentType: 'credit' });
    expect(read.needsChipCompletion).toBe(true);
    expect(
      (await sale.finishChip({ approved: true, responseCode: '00', issuerEmvData: ISSUER_APPROVAL })).decision,
    ).toBe('refused');
  });

  it("closes the chip with 'refused' after a host decline and after no host answer", async () => {
    for (const answer of [{ approved: false, responseCode: '51', issuerEmvData: '8A023531' }, null]) {
      const { sim, sale } = await rig();
      sim.insertCard('visaCredit');
      typePin(sim);
      await sale.readCard({ amount: centavos(1000), paymentType: 'credit' });
      expect((await sale.finishChip(answer)).decision).toBe('refused');
    }
  });

  it('fails with CARD_REMOVED when the card leaves the slot before the chip step', async () => {
    const { sim, sale } = await rig();
    sim.insertCard('visaRemovedEarly');
    const error = await failure(sale.readCard({ amount: centavos(1000), paymentType: 'credit' }));
    expect(error).toMatchObject({ code: 'CARD_REMOVED', step: 'chip' });
    expect(error.cashierMessage).toMatch(/retirado/);
  });

  it('fails with CUSTOMER_CANCELLED when the customer presses CANCEL at the PIN', async () => {
    const { sim, sale } = await rig();
    sim.insertCard('visaCredit');
    sim.keypad.type('12');
    sim.keypad.press('cancel');
    const error = await failure(sale.readCard({ amount: centavos(1000), paymentType: 'credit' }));
    expect(error).toMatchObject({ code: 'CUSTOMER_CANCELLED', step: 'chip' });
    expect(error.cashierMessage).toMatch(/cancelada pelo cliente/);
  });

  it('cancels the card wait on the PINPAD when our signal aborts, and the PINPAD is free afterwards', async () => {
    const { sim, sale } = await rig();
    const controller = new AbortController();
    const reading = sale.readCard({ amount: centavos(1000), paymentType: 'credit', signal: controller.signal });
    await displayed(sim, /APROXIME, INSIRA/);
    controller.abort();
    const error = await failure(reading);
    expect(error).toMatchObject({ code: 'CANCELLED', step: 'read_card' });
    await sale.showAmount(centavos(1000), null);
    expect(sim.display.lines).toEqual(['R$ 10,00', '']);
  });

  it('fails with TIMEOUT when no card comes within the card time limit', async () => {
    const { sale } = await rig({ timeouts: { cardMs: 1000 } });
    const error = await failure(sale.readCard({ amount: centavos(1000), paymentType: 'credit' }));
    expect(error).toMatchObject({
      code: 'TIMEOUT',
      step: 'read_card',
      cashierMessage: 'Tempo esgotado aguardando o cartão.',
    });
  });

  it('fails with PINPAD_BUSY when another step is asked for while the card is awaited', async () => {
    const { sim, sale } = await rig();
    const controller = new AbortController();
    const reading = sale.readCard({ amount: centavos(1000), paymentType: 'credit', signal: controller.signal });
    await displayed(sim, /APROXIME, INSIRA/);
    expect(await failure(sale.showAmount(centavos(1000), null))).toMatchObject({
      code: 'PINPAD_BUSY',
      step: 'show_amount',
    });
    controller.abort();
    await reading.catch(() => undefined);
  });

  it('fails with PINPAD_DISCONNECTED when the PINPAD goes away during the card wait', async () => {
    const { sim, sale, served } = await rig();
    const reading = sale.readCard({ amount: centavos(1000), paymentType: 'credit' });
    await displayed(sim, /APROXIME, INSIRA/);
    // Let the ACK reach the host first: the command is then waiting for the customer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    served.link.unplug();
    expect(await failure(reading)).toMatchObject({ code: 'PINPAD_DISCONNECTED', step: 'read_card' });
  });

  it('never lets a full test PAN into what a card read holds', async () => {
    for (const [name, card] of Object.entries(TEST_CARDS)) {
      const { sale, messages } = await rig({ autoCustomer: { delayMs: 5, card: name } });
      const paymentType = applicationTypeOf(card) === '02' ? 'debit' : 'credit';
      const outcome = await sale.readCard({ amount: centavos(1990), paymentType }).catch((error: unknown) => error);
      const kept = JSON.stringify(outcome) + JSON.stringify(messages);
      expect(kept, name).not.toContain(card.pan);
      expect(kept, name).not.toContain(card.cardholderName);
      // Cards this unattended customer keeps presenting the same way are refused in the end; a chip
      // that fails is swiped when the card is asked for again (a fallback read, which sells).
      const chipSwiped = card.entry === 'magstripe' && /^[26]/.test(card.serviceCode);
      if (card.removeEarly) {
        expect(outcome, name).toMatchObject({ code: 'CARD_REMOVED' });
      } else if (chipSwiped || card.iccFailure === 'noApplication' || card.unreadableSwipe === true) {
        expect(outcome, name).toMatchObject({ code: 'CARD_ERROR', step: 'read_card' });
      } else {
        expect(outcome, name).toMatchObject({
          card: { maskedPan: `${card.pan.slice(0, 6)}${'*'.repeat(card.pan.length - 10)}${card.pan.slice(-4)}` },
        });
      }
    }
  });
});

describe('PinpadSale: display and keypad', () => {
  it('shows the amount and the notification', async () => {
    const { sim, sale } = await rig();
    await sale.showAmount(centavos(123456), 'Pedido 4521 - Loja do Centro');
    expect(sim.display.lines).toEqual(['R$ 1.234,56', 'Pedido 4521 - Lo']);
    await sale.showAmount(centavos(990), null);
    expect(sim.display.lines).toEqual(['R$ 9,90', '']);
  });

  it('offers the installments whose amount reaches the minimum and returns the one chosen', async () => {
    const { sim, sale } = await rig();
    const shown = secondLines(sim);
    sim.keypad.press('down');
    sim.keypad.press('down');
    sim.keypad.press('enter');
    expect(await sale.chooseInstallments(10000, { max: 12, minInstallmentAmount: 3000 })).toBe(3);
    expect(shown).toEqual(expect.arrayContaining(['A VISTA', '2X R$ 50,00', '3X R$ 33,33']));
    expect(shown).not.toContain('4X R$ 25,00');

    // UP from the first option wraps to the last one: the menu ends at 3X.
    sim.keypad.press('up');
    sim.keypad.press('enter');
    expect(await sale.chooseInstallments(10000, { max: 12, minInstallmentAmount: 3000 })).toBe(3);

    sim.keypad.type('2');
    expect(await sale.chooseInstallments(10000, { max: 12, minInstallmentAmount: 3000 })).toBe(2);
    sim.keypad.type('1');
    expect(await sale.chooseInstallments(10000, { max: 12, minInstallmentAmount: 3000 })).toBe(1);
  });

  it('does not ask when only "A VISTA" qualifies', async () => {
    const { pinpad, sale } = await rig();
    const execute = vi.spyOn(pinpad, 'execute');
    expect(await sale.chooseInstallments(900, { max: 12, minInstallmentAmount: 500 })).toBe(1);
    expect(execute).not.toHaveBeenCalled();
  });

  it('reads the CPF the customer types, asking again when its check digits are wrong', async () => {
    const { sim, sale } = await rig();
    sim.keypad.type('12345678909');
    sim.keypad.press('enter');
    expect(await sale.readTaxId()).toBe('12345678909');

    const asked = new Promise<void>((resolve) => {
      sim.on('display', ({ lines }) => {
        if (lines[0] === 'REDIGITE O CPF') resolve();
      });
    });
    sim.keypad.type('11111111111');
    sim.keypad.press('enter');
    sim.keypad.type('52998224725');
    sim.keypad.press('enter');
    expect(await sale.readTaxId()).toBe('52998224725');
    await asked;
  });

  it('fails the CPF step with CUSTOMER_CANCELLED or CANCELLED', async () => {
    const { sim, sale } = await rig();
    sim.keypad.press('cancel');
    expect(await failure(sale.readTaxId())).toMatchObject({ code: 'CUSTOMER_CANCELLED', step: 'tax_id' });
    const controller = new AbortController();
    const typing = sale.readTaxId(controller.signal);
    await displayed(sim, /DIGITE O CPF/);
    controller.abort();
    expect(await failure(typing)).toMatchObject({ code: 'CANCELLED', step: 'tax_id' });
  });

  it('fails removal with TIMEOUT when the card stays in the slot', async () => {
    const { sim, sale } = await rig({ timeouts: { removalMs: 300 } });
    sim.insertCard('visaCredit');
    expect(await failure(sale.removeCard('RETIRE'))).toMatchObject({ code: 'TIMEOUT', step: 'remove_card' });
  });

  it('shows the result as best effort: never throws, busy or unplugged', async () => {
    const { sim, sale, served } = await rig();
    await sale.showResult('TRANSAÇÃO APROVADA');
    expect(sim.display.lines).toEqual(['TRANSAÇÃO', 'APROVADA']);

    const controller = new AbortController();
    const reading = sale.readCard({ amount: centavos(1000), paymentType: 'credit', signal: controller.signal });
    await displayed(sim, /APROXIME, INSIRA/);
    await expect(sale.showResult('OCUPADO')).resolves.toBeUndefined();
    controller.abort();
    await reading.catch(() => undefined);

    served.link.unplug();
    await expect(sale.showResult('DESCONECTADO')).resolves.toBeUndefined();
  });
});
