/**
 * The card rules of the schemes and of ABECS as a sale applies them (S220 §6.9.1.1, abecs.md
 * §3.9, §3.17), and the POS's notification on a 2 × 16 display — against the simulated PINPAD
 * over an in-memory link, the customer acting through its slot, stripe reader and keypad.
 * What is asserted is what the customer sees and what the read returns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { SaleStepError } from '../../../main/core/sale-failure.js';
import { PinpadSale, type SaleTimeouts } from '../../../main/pinpad/sale-session.js';
import { displayed } from '../../helpers/pinpad-display.js';
import { centavos } from '../../../main/core/money.js';

const HOST_TIMINGS = { ackTimeoutMs: 1500, silenceMs: 40, eotTimeoutMs: 1000, interByteTimeoutMs: 1500 };
const DEVICE_LINK = { timings: { silenceMs: 40, interByteTimeoutMs: 1500 } };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Rig {
  readonly sim: PinpadSimulator;
  readonly sale: PinpadSale;
  /** Every screen from now on, lines joined by "\n". */
  readonly shown: string[];
  /** What the sale told the cashier (onMessage). */
  readonly messages: string[];
}

async function rig(options: PinpadSimulatorOptions = {}, timeouts: Partial<SaleTimeouts> = {}): Promise<Rig> {
  // PINPAD-side limits (SPE_TIMEOUT…) at 5 %: a 3 s screen lasts 150 ms on the simulated PINPAD.
  const sim = new PinpadSimulator({ timeScale: 0.05, link: DEVICE_LINK, ...options });
  const served = await startMemorySimulator(sim);
  const pinpad = new Pinpad(served.link.host, { timings: HOST_TIMINGS });
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  const messages: string[] = [];
  const sale = new PinpadSale(pinpad, { timeouts, onMessage: (text) => messages.push(text) });
  const shown: string[] = [];
  sim.on('display', ({ lines }) => shown.push(lines.join('\n')));
  return { sim, sale, shown, messages };
}

function typePin(sim: PinpadSimulator): void {
  sim.keypad.type('1234');
  sim.keypad.press('enter');
}

describe('the notification on a 2 × 16 PINPAD', () => {
  it('shows the whole notification and the card prompt with the amount in turns while the card is asked for, then reads the card inserted', async () => {
    const { sim, sale, shown } = await rig();
    const reading = sale.readCard({
      amount: centavos(1990),
      paymentType: 'credit',
      notification: 'Pedido 4521 - Loja do Centro SP',
    });
    // Two full turns: the notification, then the PINPAD's own card prompt with the amount.
    for (let turn = 0; turn < 2; turn++) {
      await displayed(sim, /^Pedido 4521 - Lo\nja do Centro SP$/);
      await displayed(sim, /^VALOR: 19,90\nAPROXIME, INSIRA$/);
    }
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    expect((await reading).card).toMatchObject({ entryMode: 'chip', maskedPan: '411111******1111' });
    // The notification was never shown cut.
    expect(
      shown.filter((screen) => screen.includes('Pedido') && screen !== 'Pedido 4521 - Lo\nja do Centro SP'),
    ).toEqual([]);
  });

  it('lets the training customer, who hands over the card matching the sale, pay a debit sale', async () => {
    const { sale } = await rig({ autoCustomer: { delayMs: 5, card: 'visaCredit', matchApplication: true } });
    const read = await sale.readCard({ amount: centavos(1990), paymentType: 'debit', notification: 'Mesa 12' });
    expect(read.card).toMatchObject({ entryMode: 'chip', maskedPan: '400005******5556' });
  });

  it('takes a card swiped while the screens turn as the read itself', async () => {
    const { sim, sale } = await rig();
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit', notification: 'Mesa 12' });
    await displayed(sim, /^Mesa 12$/m);
    sim.swipeCard('visaMagstripe');
    expect((await reading).card).toMatchObject({ entryMode: 'magstripe', maskedPan: '401288******1881' });
  });

  it('ends with CUSTOMER_CANCELLED when the customer presses CANCEL meanwhile', async () => {
    const { sim, sale } = await rig();
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit', notification: 'Mesa 12' });
    await displayed(sim, /^Mesa 12$/m);
    sim.keypad.press('cancel');
    await expect(reading).rejects.toMatchObject({ code: 'CUSTOMER_CANCELLED', step: 'read_card' });
  });

  it('ends with TIMEOUT when no card comes within the card step’s limit', async () => {
    const { sale } = await rig({}, { cardMs: 1_200 });
    const error = await sale
      .readCard({ amount: centavos(1990), paymentType: 'credit', notification: 'Mesa 12' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'TIMEOUT',
      step: 'read_card',
      cashierMessage: 'Tempo esgotado aguardando o cartão.',
    });
  });
});

describe('card rules', () => {
  it('refuses a chip card’s stripe (service code 2xx), asks for the card inserted, and reads the chip', async () => {
    const { sim, sale, messages } = await rig();
    sim.swipeCard('visaChipSwiped');
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    await displayed(sim, /^CARTAO COM CHIP\nINSIRA O CARTAO$/);
    sim.insertCard('visaCredit');
    typePin(sim);
    expect((await reading).card.entryMode).toBe('chip');
    expect(messages).toContain('Cartão com chip: peça para o cliente inserir o cartão.');
  });

  it.each([
    ['a mute chip (ST_DUMBCARD)', 'visaMuteChip'],
    ['a chip communication error (ST_ERRCARD)', 'mastercardChipError'],
    ['ST_ERRFALLBACK', 'visaChipFallback'],
  ])('after %s asks for the card out and a swipe, and marks the swipe as a fallback', async (_name, card) => {
    const { sim, sale } = await rig();
    sim.insertCard(card);
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    await displayed(sim, /RETIRE O CARTAO/);
    sim.removeCard();
    await displayed(sim, /^FALHA NO CHIP\nPASSE O CARTAO$/);
    sim.swipeCard(card);
    const read = await reading;
    expect(read.card.entryMode).toBe('magstripe_fallback');
    expect(read.authorization.entry_mode).toBe('magstripe_fallback');
  });

  it('asks for an unreadable swipe again, and takes the next one', async () => {
    const { sim, sale, messages } = await rig();
    sim.swipeCard('visaUnreadableStripe');
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    await displayed(sim, /^ERRO DE LEITURA\nPASSE NOVAMENTE$/);
    sim.swipeCard('visaMagstripe');
    expect((await reading).card).toMatchObject({ entryMode: 'magstripe', maskedPan: '401288******1881' });
    expect(messages).toContain('Não foi possível ler a tarja. Passe o cartão novamente.');
  });

  it('gives up after a bounded number of unreadable swipes, with CARD_ERROR', async () => {
    const { sim, sale } = await rig({ autoCustomer: { delayMs: 5, card: 'visaUnreadableStripe' } });
    const error = await sale.readCard({ amount: centavos(1990), paymentType: 'credit' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error).toMatchObject({
      code: 'CARD_ERROR',
      step: 'read_card',
      cashierMessage: 'Não foi possível ler a tarja do cartão.',
    });
    expect(sim.display.lines.join('\n')).not.toContain('4012');
  });

  it('tells a PINPAD that refuses PIN entry for now (ST_PINBUSY) apart from a blocked PIN', async () => {
    const { sim, sale } = await rig({ pinBusy: true });
    sim.insertCard('visaCredit');
    const error = await sale.readCard({ amount: centavos(1990), paymentType: 'credit' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PIN_ENTRY_BUSY', step: 'chip' });
  });
});

describe('a PIN the chip verifies (offline PIN)', () => {
  it('asks again after a wrong PIN, saying how many tries are left, and goes on with the right one', async () => {
    const { sim, sale, messages } = await rig();
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    await displayed(sim, /INSIRA/);
    sim.insertCard('eloOfflinePin');
    await displayed(sim, /^VALOR: 19,90\nSENHA:/);
    sim.keypad.type('9999');
    sim.keypad.press('enter');
    await displayed(sim, /^SENHA INVALIDA\n\(\+2 TENTATIVAS\)$/);
    await displayed(sim, /^VALOR: 19,90\nSENHA:/);
    typePin(sim);
    const read = await reading;
    expect(read.authorization).toMatchObject({ entry_mode: 'chip', cardholder_verification: 'offline_pin' });
    // The chip checked the PIN: nothing of it travels to the authorizer.
    expect(read.authorization.pin_block).toBeUndefined();
    expect(messages.some((text) => /SENHA INVALIDA/.test(text))).toBe(true);
  });

  it('ends with PIN_BLOCKED when the last try is wrong, after the PINPAD warned of it', async () => {
    const { sim, sale, messages } = await rig();
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' }).catch((e: unknown) => e);
    await displayed(sim, /INSIRA/);
    sim.insertCard('eloOfflinePinLastTry');
    await displayed(sim, /SENHA:/);
    await expect.poll(() => messages.join(' | ')).toMatch(/PROX\. ERRO.*BLOQUEIA SENHA/);
    sim.keypad.type('9999');
    sim.keypad.press('enter');
    await displayed(sim, /^SENHA BLOQUEADA/);
    const error = await reading;
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error).toMatchObject({
      code: 'PIN_BLOCKED',
      step: 'chip',
      cashierMessage: 'Senha bloqueada. O cliente deve procurar o banco emissor do cartão.',
    });
  });

  it('ends with PIN_BLOCKED without asking for a PIN when the card’s PIN is already blocked', async () => {
    const { sim, sale } = await rig();
    sim.insertCard('eloOfflinePinLastTry');
    const first = sale.readCard({ amount: centavos(1990), paymentType: 'credit' }).catch((e: unknown) => e);
    await displayed(sim, /SENHA:/);
    sim.keypad.type('0000');
    sim.keypad.press('enter');
    expect(await first).toMatchObject({ code: 'PIN_BLOCKED' });
    sim.removeCard();

    const shown: string[] = [];
    sim.on('display', ({ lines }) => shown.push(lines.join('\n')));
    sim.insertCard('eloOfflinePinLastTry');
    const again = await sale.readCard({ amount: centavos(1990), paymentType: 'credit' }).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'PIN_BLOCKED', step: 'chip' });
    expect(shown).toContain('SENHA BLOQUEADA\n');
    expect(shown.some((screen) => /SENHA:/.test(screen))).toBe(false);
  });
});
