/**
 * When a card read (GCX) fails in a way the customer can fix, the read is issued again instead
 * of ending the sale (abecs.md §3.17, S220 §3.7.1 Obs. 1–2):
 *
 * - a contactless card the PINPAD could not use (ST_CTLSPROBLEMS, ST_CARDBLOCKED, ST_CTLSAPPNAV,
 *   ST_CTLSAPPNAUT, ST_CTLSINVALIDAT, ST_CTLSIFCHG, or a second ST_CTLSCOMMERR in a row): read
 *   again with contactless off, so the customer inserts or swipes;
 * - several cards in the field, or a first communication error: read again unchanged;
 * - the phone asks its owner to confirm (ST_CTLSEXTCVM): read again, asking to tap again;
 * - a chip that failed in a way that allows the stripe (ST_ERRFALLBACK): read again with
 *   contactless off; the swipe that follows is a fallback.
 *
 * Everything else ends the read. The number of reads is bounded so a card that keeps failing
 * cannot hold the sale forever.
 */

/** Reads of one card step, the first included. */
export const MAX_CARD_READS = 4;

/** Custom GCX prompt after ST_CTLSEXTCVM: 2 × 16, lines split by CR as SPE_DSPMSG wants. */
export const TAP_AGAIN_PROMPT = 'VEJA O CELULAR E\rAPROXIME DE NOVO';

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
    };

const CTLS_OFF = new Set(['ST_CTLSPROBLEMS', 'ST_CARDBLOCKED', 'ST_CTLSAPPNAV', 'ST_CTLSAPPNAUT', 'ST_CTLSINVALIDAT', 'ST_CTLSIFCHG']);

/** What to do after a GCX that failed with the ABECS status named `status` (e.g. "ST_CTLSCOMMERR"). */
export function cardReadRetryFor(status: string, attempt: CardReadAttempt): CardReadRetry {
  if (attempt.reads >= MAX_CARD_READS) return { retry: false };
  if (status === 'ST_ERRFALLBACK') return { retry: true, contactless: false, fallback: true };
  if (!attempt.contactless) return { retry: false };
  if (CTLS_OFF.has(status)) return { retry: true, contactless: false, fallback: false };
  if (status === 'ST_CTLSCOMMERR') {
    return { retry: true, contactless: attempt.contactlessCommErrors < 2, fallback: false };
  }
  if (status === 'ST_CTLSMULTIPLE') return { retry: true, contactless: true, fallback: false };
  if (status === 'ST_CTLSEXTCVM') return { retry: true, contactless: true, prompt: TAP_AGAIN_PROMPT, fallback: false };
  return { retry: false };
}
