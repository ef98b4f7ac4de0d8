/**
 * The card brand, as the payments API spells it, from the first six digits of the PAN (the BIN)
 * and, when the BIN says nothing, the chip application's label.
 *
 * Order matters: Elo and Hipercard were carved out of ranges that look like Visa (4…),
 * Mastercard (5…) or other prefixes, so their explicit BIN lists are checked before the broad
 * Visa/Mastercard prefixes. The lists are the published ones; a BIN missing from them falls to
 * the broad prefix, which is why a label naming Elo or Hipercard wins over a Visa/Mastercard
 * prefix match (an issuer names its own application; a co-branded range we do not list would
 * otherwise be sent as Visa).
 */

export type CardBrandName = 'visa' | 'mastercard' | 'elo' | 'amex' | 'hipercard' | 'unknown';

/** Inclusive BIN ranges (six digits). A single BIN is a range of one. */
type BinRange = readonly [from: number, to: number];

const ELO_BINS: readonly BinRange[] = [
  [401178, 401179],
  [431274, 431274],
  [438935, 438935],
  [451416, 451416],
  [457393, 457393],
  [457631, 457632],
  [504175, 504175],
  [506699, 506778],
  [509000, 509999],
  [627780, 627780],
  [636297, 636297],
  [636368, 636368],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650920],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];

const HIPERCARD_BINS: readonly BinRange[] = [
  [606282, 606282],
  [384100, 384100],
  [384140, 384140],
  [384160, 384160],
];

function inRanges(bin: number, ranges: readonly BinRange[]): boolean {
  return ranges.some(([from, to]) => bin >= from && bin <= to);
}

/** The brand the BIN alone gives; 'unknown' when it matches nothing. */
function brandOfBin(digits: string): CardBrandName {
  if (/^[0-9]{6}/.test(digits)) {
    const bin = Number(digits.slice(0, 6));
    if (inRanges(bin, ELO_BINS)) return 'elo';
    if (inRanges(bin, HIPERCARD_BINS)) return 'hipercard';
  }
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^5[1-5]/.test(digits)) return 'mastercard';
  if (/^[0-9]{4}/.test(digits)) {
    const four = Number(digits.slice(0, 4));
    if (four >= 2221 && four <= 2720) return 'mastercard';
  }
  if (digits.startsWith('4')) return 'visa';
  return 'unknown';
}

/** The brand a chip application label names ("ELO CREDITO", "VISA ELECTRON", "MAESTRO"…). */
function brandOfLabel(label: string | undefined): CardBrandName {
  if (label === undefined) return 'unknown';
  const upper = label
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  if (/\bELO\b/.test(upper)) return 'elo';
  if (/\bHIPER/.test(upper)) return 'hipercard';
  if (/\bAMEX\b|AMERICAN EXPRESS/.test(upper)) return 'amex';
  if (/\bMASTER|\bMAESTRO\b/.test(upper)) return 'mastercard';
  if (/\bVISA\b/.test(upper)) return 'visa';
  return 'unknown';
}

/**
 * 'visa' | 'mastercard' | 'elo' | 'amex' | 'hipercard' | 'unknown' for a card whose PAN starts
 * with `first6` (a masked PAN works too: only its leading digits are read).
 */
export function brandOf(first6: string, applicationLabel?: string): CardBrandName {
  const byBin = brandOfBin(first6);
  const byLabel = brandOfLabel(applicationLabel);
  if (byBin === 'unknown') return byLabel;
  if ((byBin === 'visa' || byBin === 'mastercard') && (byLabel === 'elo' || byLabel === 'hipercard')) return byLabel;
  return byBin;
}
