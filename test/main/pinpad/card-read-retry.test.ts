import { describe, expect, it } from 'vitest';
import {
  CHIP_CARD_SWIPED,
  FALLBACK_PROMPT,
  INSERT_CHIP_PROMPT,
  MAX_CARD_READS,
  SWIPE_AGAIN_PROMPT,
  TAP_AGAIN_PROMPT,
  UNREADABLE_SWIPE,
  cardReadRetryFor,
} from '../../../main/pinpad/card-read-retry.js';

const first = { reads: 1, contactless: true, contactlessCommErrors: 0 };

describe('cardReadRetryFor', () => {
  it.each(['ST_CTLSPROBLEMS', 'ST_CARDBLOCKED', 'ST_CTLSAPPNAV', 'ST_CTLSAPPNAUT', 'ST_CTLSINVALIDAT', 'ST_CTLSIFCHG'])(
    'reads again without contactless after %s',
    (status) => {
      expect(cardReadRetryFor(status, first)).toEqual({ retry: true, contactless: false, fallback: false });
    },
  );

  it('reads again unchanged after several cards in the field or a first communication error', () => {
    expect(cardReadRetryFor('ST_CTLSMULTIPLE', first)).toEqual({ retry: true, contactless: true, fallback: false });
    expect(cardReadRetryFor('ST_CTLSCOMMERR', { ...first, contactlessCommErrors: 1 })).toEqual({
      retry: true,
      contactless: true,
      fallback: false,
    });
  });

  it('turns contactless off after a second communication error in a row', () => {
    expect(cardReadRetryFor('ST_CTLSCOMMERR', { reads: 2, contactless: true, contactlessCommErrors: 2 })).toEqual({
      retry: true,
      contactless: false,
      fallback: false,
    });
  });

  it('asks the phone owner to confirm and tap again after ST_CTLSEXTCVM', () => {
    expect(cardReadRetryFor('ST_CTLSEXTCVM', first)).toEqual({
      retry: true,
      contactless: true,
      prompt: TAP_AGAIN_PROMPT,
      fallback: false,
    });
  });

  it.each(['ST_ERRFALLBACK', 'ST_DUMBCARD', 'ST_ERRCARD'])(
    'asks for the card out and a swipe, as a fallback, after %s (S220 §6.9.1.1)',
    (status) => {
      for (const contactless of [true, false]) {
        expect(cardReadRetryFor(status, { ...first, contactless })).toEqual({
          retry: true,
          contactless: false,
          prompt: FALLBACK_PROMPT,
          fallback: true,
          removeCardFirst: true,
        });
      }
    },
  );

  it('asks for a swiped chip card to be inserted, and for an unreadable swipe to be swiped again', () => {
    expect(cardReadRetryFor(CHIP_CARD_SWIPED, first)).toEqual({
      retry: true,
      contactless: true,
      prompt: INSERT_CHIP_PROMPT,
      fallback: false,
    });
    expect(cardReadRetryFor(UNREADABLE_SWIPE, { ...first, contactless: false })).toEqual({
      retry: true,
      contactless: false,
      prompt: SWIPE_AGAIN_PROMPT,
      fallback: false,
    });
    expect(cardReadRetryFor(UNREADABLE_SWIPE, { ...first, reads: MAX_CARD_READS })).toEqual({ retry: false });
  });

  it('takes a legacy GCR’s ST_MCDATAERR (no "swiped, nothing read" answer on GCR) as an unreadable swipe', () => {
    expect(cardReadRetryFor('ST_MCDATAERR', { ...first, contactless: false })).toEqual(
      cardReadRetryFor(UNREADABLE_SWIPE, { ...first, contactless: false }),
    );
    expect(cardReadRetryFor('ST_MCDATAERR', { ...first, reads: MAX_CARD_READS })).toEqual({ retry: false });
  });

  it('gives up on other statuses, on contactless statuses once contactless is off, and after the last read', () => {
    expect(cardReadRetryFor('ST_CANCEL', first)).toEqual({ retry: false });
    expect(cardReadRetryFor('ST_TIMEOUT', first)).toEqual({ retry: false });
    expect(cardReadRetryFor('ST_CARDAPPNAV', first)).toEqual({ retry: false });
    expect(cardReadRetryFor('ST_CTLSPROBLEMS', { ...first, contactless: false })).toEqual({ retry: false });
    expect(cardReadRetryFor('ST_CTLSMULTIPLE', { ...first, reads: MAX_CARD_READS })).toEqual({ retry: false });
  });
});
