/**
 * English words that have no business in a sentence the cashier reads: common function words and
 * the vocabulary of the drivers', the network's and the validator's English messages. Words
 * Portuguese shares ("a", "no", "do", "for", "data", "chip", "PINPAD") are left out on purpose.
 */
const ENGLISH_WORDS = new Set(
  `the is are was were be been not could cannot can't should must will would has have had did does
  with and or of to in on at by from into an this that these those it its please again
  failed failure error timeout timed out device port link cable connection connected refused busy
  found invalid response answer command request unavailable denied permission payment payments
  card cards sale sales try retry sent settings printer paper reached missing wrong unknown
  allowed enabled server service network key keys lost closed open ready support call store customer
  cashier amount approved declined cancelled canceled required range value field must between
  expected unexpected malformed empty large too while during after before nothing charged`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

/** The English words found in `text` (lower-cased, in order). */
export function englishWordsIn(text: string): string[] {
  return (text.toLowerCase().match(/[a-z']+/g) ?? []).filter((word) => ENGLISH_WORDS.has(word));
}
