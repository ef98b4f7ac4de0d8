/**
 * What the blocking commands do with the customer: read a key, read digits (GCD, PIN), wait for a
 * card, and the scripted customer (`autoCustomer`) acting when nobody is at the keypad. Every wait
 * ends early with CommandAborted on CAN or a new command.
 */
import { pinBlockFormat0, tdesEncrypt } from '../crypto/dukpt.js';
import { applicationTypeOf, resolveCard, TEST_CARDS, type SimCard } from './cards.js';
import { isDigitKey, waitFor, TIMED_OUT, type SimKey, type TimedOut, type WaitOptions } from './customer.js';
import { ST, StatusReply, type CommandContext } from './handler.js';
import { openWorkingKey } from './keys.js';
import type { DeviceState, Presentation } from './state.js';

function autoAction(
  device: DeviceState,
  act: (auto: NonNullable<DeviceState['autoCustomer']>) => void,
): WaitOptions['auto'] {
  const auto = device.autoCustomer;
  if (!auto) return undefined;
  return { afterMs: auto.delayMs, act: () => act(auto) };
}

/** Types keys given as text: digits, or names in braces, e.g. "123{enter}". */
export function typeScript(device: DeviceState, script: string): void {
  for (const match of script.matchAll(/\{([a-z0-9]+)\}|([0-9])/g)) {
    device.keypad.press((match[1] ?? match[2]) as SimKey);
  }
}

/**
 * The next key, or TIMED_OUT after `idleMs` without one. `autoKeys` is what the scripted customer
 * types when the wait starts unsatisfied.
 */
export function nextKey(
  ctx: CommandContext,
  idleMs: number | undefined,
  autoKeys?: string,
): Promise<SimKey | TimedOut> {
  const { device, signal } = ctx;
  return waitFor(device.events, () => device.keypad.take(), {
    signal,
    ...(idleMs === undefined ? {} : { timeoutMs: idleMs }),
    auto: autoKeys === undefined ? undefined : autoAction(device, () => typeScript(device, autoKeys)),
  });
}

export interface DigitEntry {
  readonly min: number;
  readonly max: number;
  /** Inactivity limit (each key restarts it); undefined = none. */
  readonly idleMs: number | undefined;
  /** Shows the entry so far (masked or not, as the command wants). */
  readonly render: (typed: string) => void;
  /** What the scripted customer types, ENTER included. */
  readonly autoKeys?: string;
}

/**
 * Collects digits: CLEAR erases the entry, ENTER confirms once at least `min` digits are in,
 * CANCEL answers ST_CANCEL, inactivity answers ST_TIMEOUT. Digits beyond `max` are ignored.
 */
export async function readDigits(ctx: CommandContext, entry: DigitEntry): Promise<string> {
  let typed = '';
  entry.render(typed);
  for (;;) {
    const key = await nextKey(ctx, entry.idleMs, entry.autoKeys);
    if (key === TIMED_OUT) throw new StatusReply(ST.TIMEOUT);
    if (isDigitKey(key)) {
      if (typed.length < entry.max) typed += key;
    } else if (key === 'clear') {
      typed = '';
    } else if (key === 'cancel') {
      throw new StatusReply(ST.CANCEL);
    } else if (key === 'enter') {
      if (typed.length >= entry.min) return typed;
    }
    entry.render(typed);
  }
}

export interface CardWait {
  readonly icc: boolean;
  readonly ctls: boolean;
  readonly mag: boolean;
  readonly timeoutMs: number | undefined;
  /** The application types the command asks for (1 credit, 2 debit); undefined: any. */
  readonly appTypes?: readonly number[];
}

/** The scripted customer's card for this wait (see AutoCustomer.matchApplication). */
function scriptedCard(auto: NonNullable<DeviceState['autoCustomer']>, wait: CardWait): SimCard {
  const card = auto.card ? resolveCard(auto.card) : TEST_CARDS.visaCredit;
  const wanted: readonly number[] = wait.appTypes?.filter((type) => type === 1 || type === 2) ?? [];
  if (auto.matchApplication !== true || wanted.length === 0 || wanted.includes(Number(applicationTypeOf(card))))
    return card;
  return wanted.includes(2) ? TEST_CARDS.visaDebit : TEST_CARDS.visaCredit;
}

export interface PresentedCard {
  readonly card: SimCard;
  readonly how: Presentation;
}

function presentationOf(card: SimCard): Presentation {
  return card.entry === 'chip' ? 'insert' : card.entry === 'contactless' ? 'tap' : 'swipe';
}

/** The display asks for a swipe and nothing else (the host's "FALHA NO CHIP / PASSE O CARTAO"). */
function askedToSwipe(device: DeviceState): boolean {
  const text = device.display.lines.join(' ');
  return /PASSE/.test(text) && !/INSIRA|APROXIME/.test(text);
}

/**
 * How the scripted customer presents `card` to a command waiting for one, following the PINPAD:
 * a card whose chip just failed is swiped (the fallback the PINPAD or the host asks for), and so
 * is any card when the display asks for a swipe only; a contactless card taps only where the
 * antenna is on, else it is inserted (or swiped); every other card goes in by its entry mode.
 */
function customerPresentation(device: DeviceState, card: SimCard, wait: CardWait): Presentation {
  if (wait.mag && (device.failedChip === card || askedToSwipe(device))) return 'swipe';
  const own = presentationOf(card);
  if (own === 'tap' && !wait.ctls) return wait.icc ? 'insert' : 'swipe';
  return own;
}

/** Makes `card` appear the next time a command waits for one (the way its entry mode says). */
export function queueCard(device: DeviceState, card: SimCard, how: Presentation = presentationOf(card)): void {
  device.nextCard = { card, how };
  device.changed();
}

/** Waits for a card by one of the allowed interfaces; an inserted card is found at once. */
export function waitForCard(ctx: CommandContext, wait: CardWait): Promise<PresentedCard | TimedOut> {
  const { device, signal } = ctx;
  const check = (): PresentedCard | undefined => {
    if (wait.icc && device.slotCard) return { card: device.slotCard, how: 'insert' };
    const next = device.nextCard;
    if (!next) return undefined;
    const allowed = next.how === 'insert' ? wait.icc : next.how === 'tap' ? wait.ctls : wait.mag;
    if (!allowed) return undefined;
    device.nextCard = undefined;
    if (next.how === 'insert') device.slotCard = next.card;
    return next;
  };
  return waitFor(device.events, check, {
    signal,
    ...(wait.timeoutMs === undefined ? {} : { timeoutMs: wait.timeoutMs }),
    auto: autoAction(device, (auto) => {
      const card = scriptedCard(auto, wait);
      queueCard(device, card, customerPresentation(device, card, wait));
    }),
  });
}

/**
 * Whether this swipe of `card` reads a track: an `unreadableSwipe` card never does, an
 * `unreadableSwipes: n` card fails its first n swipes on this PINPAD. Counts the swipe.
 */
export function swipeReadable(device: DeviceState, card: SimCard): boolean {
  const count = (device.swipes.get(card) ?? 0) + 1;
  device.swipes.set(card, count);
  return card.unreadableSwipe !== true && count > (card.unreadableSwipes ?? 0);
}

/** "1.234,56" for 123456 centavos. */
export function formatAmount(centavos: number): string {
  const reais = Math.floor(centavos / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${reais},${String(centavos % 100).padStart(2, '0')}`;
}

export interface PinCapture {
  /**
   * The encrypted PIN block, 16 hex digits: the ISO 9564 format 0 block of the PIN and the card's
   * PAN, encrypted (TDES ECB) under DUKPT with the slot's PIN key of this use (keys.ts), under
   * MK/WK with the working key opened from the slot's test master key (S220 §5.3).
   */
  readonly pinBlock: string;
  /** 20 hex digits: the DUKPT KSN of this use, or zeros for MK/WK. */
  readonly ksn: string;
}

/**
 * PIN entry: line 1 shows `prompt` (the amount or the host's message), line 2 "SENHA:" and one
 * asterisk per digit. The PIN is dropped as soon as it is encrypted.
 */
/**
 * The PIN screen and the digits typed, in the clear: for the chip's offline verification (which
 * happens inside the PINPAD) and for capturePin to encrypt. Cleared from the display at once.
 */
export async function readPin(
  ctx: CommandContext,
  options: { prompt: string; label?: string; min: number; max: number; idleMs: number; cardPin?: string },
): Promise<string> {
  const auto = ctx.device.autoCustomer;
  const autoPin = auto?.pin ?? options.cardPin ?? '1234';
  const pin = await readDigits(ctx, {
    min: options.min,
    max: options.max,
    idleMs: options.idleMs,
    render: (entry) => ctx.device.setLines(options.prompt, `${options.label ?? 'SENHA:'} ${'*'.repeat(entry.length)}`),
    autoKeys: `${autoPin}{enter}`,
  });
  ctx.device.clearDisplay();
  return pin;
}

export async function capturePin(
  ctx: CommandContext,
  options: {
    prompt: string;
    label?: string;
    min: number;
    max: number;
    idleMs: number;
    /** The PIN key; `workingKey` is the encrypted WK (SPE_WKENC, GPN_WKENC, GOC_WKENC) under MK/WK. */
    key: { readonly method: 'dukpt' | 'mkwk'; readonly index: number; readonly workingKey?: Buffer };
    /** The PAN the block is bound to (format 0). */
    pan: string;
    cardPin?: string;
  },
): Promise<PinCapture> {
  const pin = await readPin(ctx, options);
  return encryptPin(ctx.device, options.key, pin, options.pan);
}

/**
 * The PIN block of `pin` for `pan` (ISO 9564 format 0) under the PIN key: MK/WK with the working
 * key opened from the slot's test master key, or DUKPT with the slot's PIN key of a new use.
 */
export function encryptPin(
  device: DeviceState,
  key: { readonly method: 'dukpt' | 'mkwk'; readonly index: number; readonly workingKey?: Buffer },
  pin: string,
  pan: string,
): PinCapture {
  if (key.method === 'mkwk') {
    const { workingKey } = key;
    if (workingKey === undefined) throw new RangeError('An MK/WK PIN needs the encrypted working key.');
    const block = tdesEncrypt(openWorkingKey('pin', key.index, workingKey), pinBlockFormat0(pin, pan));
    // No KSN under MK/WK: GPN_KSN and GOC_KSN are zeros, GOX sends no PP_KSN (S220 §3.3.11, §3.7.3).
    return { pinBlock: block.toString('hex').toUpperCase(), ksn: '0'.repeat(20) };
  }
  const { ksn, key: pinKey } = device.dukpt.use('pin', key.index);
  const block = tdesEncrypt(pinKey, pinBlockFormat0(pin, pan));
  return { pinBlock: block.toString('hex').toUpperCase(), ksn: ksn.toString('hex').toUpperCase() };
}
