/**
 * When a card read (GCX) fails in a way the customer can fix, the read is issued again instead
 * of ending the sale (abecs.md §3.17, S220 §3.7.1 Obs. 1–2):
 *
 * - a contactless card the PINPAD could not use (ST_CTLSPROBLEMS, ST_CARDBLOCKED, ST_CTLSAPPNAV,
 *   ST_CTLSAPPNAUT, ST_CTLSINVALIDAT, ST_CTLSIFCHG, or a second ST_CTLSCOMMERR in a row): read
 *   again with contactless off, so the customer inserts or swipes;
 * - several cards in the field, or a first communication error: read again unchanged;
 * - the phone asks its owner to confirm (ST_CTLSEXTCVM): read again, asking to tap again;
 * - a chip that failed in a way that allows the stripe (ST_DUMBCARD: a mute chip, ST_ERRCARD: a
 *   communication error, ST_ERRFALLBACK; S220 §6.9.1.1): the card is asked out of the slot, then
 *   read again with contactless off, asking for a swipe; the swipe that follows is a fallback;
 * - a chip card swiped outside a fallback (service code 2xx / 6xx, CHIP_CARD_SWIPED): card
 *   schemes forbid reading its stripe, so the customer is asked to insert it;
 * - a swipe the PINPAD could not read (ST_OK with no track, UNREADABLE_SWIPE; on a legacy
 *   PINPAD's GCR, which has no "swiped, nothing read" answer, ST_MCDATAERR 041, abecs.md §3.14):
 *   swiped again.
 *
 * Everything else ends the read. The number of reads is bounded so a card that keeps failing
 * cannot hold the sale forever.
 */

/** Reads of one card step, the first included. */
export const MAX_CARD_READS = 4;

/** Custom GCX prompt after ST_CTLSEXTCVM: 2 × 16, lines split by CR as SPE_DSPMSG wants. */
export const TAP_AGAIN_PROMPT = 'VEJA O CELULAR E\rAPROXIME DE NOVO';
/** After a chip failure that allows the stripe. */
export const FALLBACK_PROMPT = 'FALHA NO CHIP\rPASSE O CARTAO';
/** After a chip card was swiped outside a fallback. */
export const INSERT_CHIP_PROMPT = 'CARTAO COM CHIP\rINSIRA O CARTAO';
/** After a swipe with no readable track. */
export const SWIPE_AGAIN_PROMPT = 'ERRO DE LEITURA\rPASSE NOVAMENTE';

/** What a read that "worked" may still say that calls for another read (not ABECS statuses). */
export const CHIP_CARD_SWIPED = 'CHIP_CARD_SWIPED';
export const UNREADABLE_SWIPE = 'UNREADABLE_SWIPE';

/** Chip failures after which the magnetic stripe may be read (S220 §6.9.1.1). */
export const FALLBACK_STATUSES: ReadonlySet<string> = new Set(['ST_DUMBCARD', 'ST_ERRCARD', 'ST_ERRFALLBACK']);

export interface CardReadAttempt {
  /** Reads made so far, the failed one included. */
  readonly reads: number;
  /** Whether the failed read had contactless on. */
  readonly contactless: boolean;
  /** ST_CTLSCOMMERR answers in a row, the failed read included. */
  readonly contactlessCommErrors: number;
}

export type CardReadRetry =
  | { readonly retry: false }
  | {
      readonly retry: true;
      readonly contactless: boolean;
      /** A custom card prompt for the next read; the PINPAD's own when absent. */
      readonly prompt?: string;
      /** The next read follows a chip failure: a swipe then is a fallback. */
      readonly fallback: boolean;
      /** The card is still in the slot and must come out first (RMC) for the swipe. */
      readonly removeCardFirst?: boolean;
    };

const CTLS_OFF = new Set([
  'ST_CTLSPROBLEMS',
  'ST_CARDBLOCKED',
  'ST_CTLSAPPNAV',
  'ST_CTLSAPPNAUT',
  'ST_CTLSINVALIDAT',
  'ST_CTLSIFCHG',
]);

/**
 * What to do after a GCX that failed with the ABECS status named `status` (e.g.
 * "ST_CTLSCOMMERR"), or whose card cannot be taken as read (CHIP_CARD_SWIPED, UNREADABLE_SWIPE).
 */
export function cardReadRetryFor(status: string, attempt: CardReadAttempt): CardReadRetry {
  if (attempt.reads >= MAX_CARD_READS) return { retry: false };
  if (FALLBACK_STATUSES.has(status))
    return { retry: true, contactless: false, prompt: FALLBACK_PROMPT, fallback: true, removeCardFirst: true };
  if (status === CHIP_CARD_SWIPED)
    return { retry: true, contactless: attempt.contactless, prompt: INSERT_CHIP_PROMPT, fallback: false };
  if (status === UNREADABLE_SWIPE || status === 'ST_MCDATAERR')
    return { retry: true, contactless: attempt.contactless, prompt: SWIPE_AGAIN_PROMPT, fallback: false };
  if (!attempt.contactless) return { retry: false };
  if (CTLS_OFF.has(status)) return { retry: true, contactless: false, fallback: false };
  if (status === 'ST_CTLSCOMMERR') {
    return { retry: true, contactless: attempt.contactlessCommErrors < 2, fallback: false };
  }
  if (status === 'ST_CTLSMULTIPLE') return { retry: true, contactless: true, fallback: false };
  if (status === 'ST_CTLSEXTCVM') return { retry: true, contactless: true, prompt: TAP_AGAIN_PROMPT, fallback: false };
  return { retry: false };
}
