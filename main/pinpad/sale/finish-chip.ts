/**
 * After the host answered: the chip's final word (the card's second GENERATE AC: FCX on an
 * Abecs 2.x PINPAD, FNC on a legacy one) and the card out of the slot (RMC).
 */
import type { FcxRequest } from '../../../drivers/abecs/commands/fcx.js';
import type { ChipFinish } from '../../core/ports.js';
import { CardDataError, COMPLETION_TAGS, emvDataHex } from '../card-data.js';
import { fitMessage } from '../display-text.js';
import { finishChipFnc } from '../legacy-sale.js';
import { HOST_GRACE_MS, pinpadSeconds, type SaleContext } from './context.js';

/** What the host (the terminal channel's authorization) answered, for the card's second GENERATE AC. */
export interface HostAnswer {
  readonly approved: boolean;
  /** Two-character response code ("00" approves): the ARC (tag 8A). */
  readonly responseCode: string;
  /** The authorization's issuer_emv_data (hex BER-TLV: 91, 71, 72…), or null. */
  readonly issuerEmvData: string | null;
}

/**
 * Gives the card the host's answer (FCX) and returns the card's final word: 'accepted' when
 * the card approved, 'refused' when it declined. Only for a CardRead with needsChipCompletion.
 *
 * - `answer` approved and 'refused': the card refused after an online approval — the sale
 *   must be reversed.
 * - `answer` declined: the card always ends declined too; 'refused' then only means the chip
 *   transaction is closed.
 * - `answer` null: the host could not be reached or its answer was lost (FCX "no host
 *   response"); the card declines, 'refused' comes back, and what happened at the host is for
 *   the caller to find out (never by authorizing again).
 *
 * Issuer data that is not hex is left out (and logged): the card then decides without it.
 */
export async function finishChip(
  context: SaleContext,
  answer: HostAnswer | null,
  signal: AbortSignal | undefined,
): Promise<ChipFinish> {
  const result = (await context.step('finish_chip', () => context.isLegacy()))
    ? await context.step('finish_chip', () =>
        finishChipFnc(context, answer && { ...answer, issuerData: issuerData(context, answer) }, signal),
      )
    : await fcx(context, answer, signal);
  // Chip data the PINPAD returns malformed must not turn an accepted card into a failed sale.
  let emvData: string | null = null;
  try {
    emvData = emvDataHex(result.emvData) ?? null;
  } catch (error) {
    context.logger.warn(
      { code: error instanceof CardDataError ? error.code : 'UNKNOWN' },
      'completion EMV data unreadable; reported without it',
    );
  }
  return { decision: result.approved ? 'accepted' : 'refused', emvData };
}

/** The issuer's EMV data as bytes; data that is not hex is left out (and logged). */
function issuerData(context: SaleContext, answer: HostAnswer): Buffer {
  const data = answer.issuerEmvData ?? '';
  if (/^(?:[0-9A-Fa-f]{2})*$/.test(data)) return Buffer.from(data, 'hex');
  context.logger.warn({ length: data.length }, 'issuer EMV data is not hex; finishing the chip without it');
  return Buffer.alloc(0);
}

/** FCX: the host's answer to an Abecs 2.x PINPAD. */
async function fcx(
  context: SaleContext,
  answer: HostAnswer | null,
  signal: AbortSignal | undefined,
): Promise<{ approved: boolean; emvData: Buffer | undefined }> {
  const { cardMs } = context.timeouts;
  let request: FcxRequest;
  if (answer === null) {
    request = { outcome: 'noHostResponse', tagList: COMPLETION_TAGS, timeout: pinpadSeconds(cardMs) };
  } else {
    const issuer = issuerData(context, answer);
    request = {
      outcome: answer.approved ? 'approved' : 'declined',
      arc: answer.responseCode,
      ...(issuer.length > 0 ? { emvData: issuer } : {}),
      tagList: COMPLETION_TAGS,
      timeout: pinpadSeconds(cardMs),
    };
  }
  const result = await context.step('finish_chip', () =>
    context.pinpad.finishChip(request, context.wait(signal, cardMs + HOST_GRACE_MS)),
  );
  return { approved: result.decision === 'approved', emvData: result.emvData };
}

/**
 * Shows `message` (2 × 16, cut to fit) and waits until the card leaves the slot (RMC), for at
 * most removalMs. With no card in the slot (contactless, swipe, or already pulled) the PINPAD
 * answers at once, so this is also safe after a failed read.
 */
export async function removeCard(
  context: SaleContext,
  message: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  await context.step('remove_card', () =>
    context.pinpad.removeCard(fitMessage(message), context.wait(signal, context.timeouts.removalMs)),
  );
}
