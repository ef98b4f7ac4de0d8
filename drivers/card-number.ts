/**
 * Card numbers and magnetic tracks recognised in text: the Luhn (mod 10) check the simulator
 * refuses bad test cards with, the run search the journal uses to keep a full PAN off disk, and
 * the stricter search the POS API uses to refuse card data in what a POS sends.
 */

const PAN_MIN_DIGITS = 13;
const PAN_MAX_DIGITS = 19;

/** Digit groups joined by at most one space or dash, not glued to other digits. */
const DIGIT_SEQUENCE = /\d+(?:[ -]\d+)*/g;

/**
 * Track data by its shape: track 2 ("PAN=YYMM…", with or without its ";" sentinel) and track 1
 * ("%BPAN^NAME^…", the B format code after an optional "%").
 */
const TRACK = /(?<!\d)\d{12,19}=\d{4}|%?B\d{12,19}\^/;

/** True for a string of at least two digits whose Luhn sum is a multiple of 10. */
export function luhnValid(pan: string): boolean {
  if (!/^[0-9]{2,}$/.test(pan)) return false;
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let digit = pan.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export interface CardNumberSearch {
  /**
   * Only what is written like a payment card: a run that starts with a major industry identifier
   * of 2 to 6 (ISO/IEC 7812: 2 and 5 Mastercard, 3 Amex/JCB/Diners/Hipercard, 4 Visa and Elo, 6
   * Elo/Discover), bare or in the groups cards are printed in (3 to 6 digits: 4-4-4-4, 4-6-5).
   * A POS's order numbers and timestamps (13 digits starting with 1), and references such as
   * "pedido-5-1764150000008" (a lone digit glued to a timestamp), then pass; the journal, the
   * last line of defence, takes every first digit and every grouping.
   */
  readonly paymentCardsOnly?: boolean;
}

/** A group a printed card number is made of. */
const CARD_GROUP = /^\d{3,6}$/;

/**
 * True when `text` holds a card-number-looking run: 13 to 19 digits, bare or grouped by single
 * spaces or dashes ("4111 1111 1111 1111"), passing the Luhn check. Within one sequence of groups
 * every run of consecutive whole groups is tried, so "PAN 4111111111111111 CVV 123" and
 * "4111 1111 1111 1111 12/29" are both caught although the whole sequence is longer than a PAN.
 * A masked PAN ("411111******1111") never matches: its asterisks break the run.
 */
export function looksLikeCardNumber(text: string, search: CardNumberSearch = {}): boolean {
  for (const match of text.matchAll(DIGIT_SEQUENCE)) {
    const groups = match[0].split(/[ -]/);
    const strict = search.paymentCardsOnly === true;
    for (let first = 0; first < groups.length; first++) {
      if (strict && !/^[2-6]/.test(groups[first]!)) continue;
      let digits = '';
      for (let last = first; last < groups.length; last++) {
        // Strictly, groups join only when each is a card's group (3–6 digits).
        if (strict && last > first && !(CARD_GROUP.test(groups[last]!) && CARD_GROUP.test(groups[first]!))) break;
        digits += groups[last]!;
        if (digits.length > PAN_MAX_DIGITS) break;
        if (digits.length >= PAN_MIN_DIGITS && luhnValid(digits)) return true;
      }
    }
  }
  return false;
}

/** What card data `text` holds, if any: a magnetic track's shape, or a payment card's number. */
export function cardDataIn(text: string): 'track' | 'card_number' | undefined {
  if (TRACK.test(text)) return 'track';
  return looksLikeCardNumber(text, { paymentCardsOnly: true }) ? 'card_number' : undefined;
}
