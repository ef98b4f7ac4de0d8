/**
 * What the PINPAD's display shows during a sale, and when (the texts' layout is display-text.ts):
 *
 * 1. Before the card (showAmount): the amount and the POS's notification — the card prompt's own
 *    screen where the display holds it (DEX), else amount and the notification's first line (DSP).
 * 2. While the card is asked for (cardPrompt): on an Abecs 2.x PINPAD, that same screen as GCX's
 *    prompt; on a display too small for it, the notification and GCX's own prompt with the amount
 *    in turns, ROTATION_SECONDS each (read-card.ts); with no notification, GCX's own prompt. On a
 *    legacy PINPAD, which has no custom prompt, the notification for a moment before GCR
 *    (legacyNoticeScreen).
 * 3. A swiped card's PIN (GPN): the amount and "SENHA:" (pinPrompt). A chip card's PIN screen is
 *    the PINPAD's own (GOX).
 * 4. The result (showResult) and the card-removal messages (finish-chip.ts removeCard), cut to 2 × 16.
 */
import type { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  amountLine,
  amountScreen,
  cardPromptScreen,
  fitLine,
  fitMessage,
  rotatingCardScreens,
  type DisplaySize,
} from '../display-text.js';
import { saleStepErrorOf } from '../sale-errors.js';
import type { SaleContext } from './context.js';

/** Seconds each screen stays while a small display takes turns showing notification and amount. */
export const ROTATION_SECONDS = 3;

/** The DSP display every PINPAD has: 2 lines of 16 columns. */
export const CLASSIC_DISPLAY: DisplaySize = Object.freeze({ lines: 2, columns: 16 });

/** RMC's message when a chip failed and the card must leave the slot before it is swiped (read-card.ts). */
export const CHIP_FAILED_REMOVE_CARD = 'FALHA NO CHIP\nRETIRE O CARTAO';

/** The text display's size (PP_DSPTXTSZ), from the identification read at attach; 2 × 16 when unknown. */
export async function displaySize(pinpad: Pinpad): Promise<DisplaySize> {
  try {
    return (await pinpad.info()).display ?? CLASSIC_DISPLAY;
  } catch {
    return CLASSIC_DISPLAY;
  }
}

/**
 * The amount and the notification before the card is asked for. Where the display holds the
 * card prompt's layout (cardPromptScreen), that same screen (DEX), so nothing changes when GCX
 * takes over; else line 1 "R$ 1.234,56" and line 2 the notification's first 16 columns (DSP),
 * until readCard shows it whole in turns.
 */
export async function showAmount(context: SaleContext, amount: number, notification: string | null): Promise<void> {
  const text = notification?.trim() ?? '';
  const screen =
    text === '' ? undefined : cardPromptScreen(await displaySize(context.pinpad), amount, text, { contactless: true });
  await context.step('show_amount', () =>
    screen === undefined
      ? context.pinpad.display(amountScreen(amount, notification))
      : context.pinpad.displayExtended(screen.replaceAll('\r', '\n')),
  );
}

/** How an Abecs 2.x PINPAD asks for the card, with the POS's notification kept readable. */
export interface CardPrompt {
  /** GCX's SPE_DSPMSG for a read (the notification's screen with the amount), or undefined: the PINPAD's own prompt. */
  readonly promptFor: (contactless: boolean) => string | undefined;
  /**
   * The screens (DSP) shown in turns with GCX's own prompt during the first read, when the
   * display cannot hold the notification's prompt; undefined otherwise.
   */
  readonly rotation: readonly string[] | undefined;
}

/**
 * The card prompt of an Abecs 2.x PINPAD: the notification's screen with the amount as GCX's
 * prompt where `display` holds it (the screen showAmount left, so nothing changes), else the
 * notification shown in turns with GCX's own prompt; no notification (or no display size asked):
 * GCX's own prompt, after the amount showAmount showed.
 */
export function cardPrompt(display: DisplaySize | undefined, amount: number, notification: string | null): CardPrompt {
  const promptFor = (contactless: boolean): string | undefined =>
    notification === null || display === undefined
      ? undefined
      : cardPromptScreen(display, amount, notification, { contactless });
  const rotation =
    notification !== null && display !== undefined && promptFor(true) === undefined
      ? rotatingCardScreens(notification)
      : undefined;
  return { promptFor, rotation };
}

/**
 * What a legacy PINPAD shows for a moment before GCR: with the amount when the notification fits
 * one line (as showAmount laid it out), else the notification whole on both lines.
 */
export function legacyNoticeScreen(amount: number, notification: string): string {
  return fitLine(notification) === notification
    ? amountScreen(amount, notification)
    : rotatingCardScreens(notification)[0];
}

/** GPN's message for a swiped card's PIN: "VALOR: R$ 12,34" and "SENHA:". */
export function pinPrompt(amount: number): string {
  return `${amountLine(amount, 'VALOR: ')}\nSENHA:`;
}

/**
 * Shows `text` (2 × 16, cut to fit) on the display, best effort: a display that fails must not
 * break a sale that is already decided, so this never throws; failures are logged.
 */
export async function showResult(context: SaleContext, text: string): Promise<void> {
  try {
    await context.pinpad.display(fitMessage(text));
  } catch (error) {
    const failure = saleStepErrorOf(error, 'show_result');
    context.logger.warn({ step: 'show_result', code: failure.code }, 'the PINPAD did not show the result');
  }
}
