/**
 * Card brands as the NFC-e payment group codes them (`tBand`, the national portal's table of card
 * operators: 01 Visa, 02 Mastercard, 03 American Express, 04 Sorocred… 99 others; a code not in
 * the table is rejected by SEFAZ with 443), and as a receipt prints them.
 */

const T_BAND: Readonly<Record<string, string>> = {
  visa: '01',
  mastercard: '02',
  amex: '03',
  'american express': '03',
  sorocred: '04',
  diners: '05',
  elo: '06',
  hipercard: '07',
  aura: '08',
  cabal: '09',
  alelo: '10',
  banescard: '11',
  calcard: '12',
  credz: '13',
  discover: '14',
  goodcard: '15',
  greencard: '16',
  hiper: '17',
  jcb: '18',
  mais: '19',
  maxvan: '20',
  policard: '21',
  redecompras: '22',
  sodexo: '23',
  valecard: '24',
  verocheque: '25',
  vr: '26',
  ticket: '27',
};

const key = (brand: string): string =>
  brand
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/** The NFC-e `tBand` of a brand name ("Visa", "MasterCard", "elo"…); "99" (others) when unknown. */
export function nfceBrandCode(brand: string): string {
  const normalized = key(brand);
  return T_BAND[normalized] ?? T_BAND[normalized.replace(/ /g, '')] ?? '99';
}

/** The brand as printed: upper case ("VISA", "MASTERCARD"). */
export const printedBrand = (brand: string): string => brand.trim().toUpperCase();
