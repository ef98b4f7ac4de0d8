/**
 * The card-data corpus (test/fixtures/card-data-corpus.ts) against the search itself and the POS
 * API's guard: every disguised card number is found — in the field it is sent in, and by the
 * search over its text — and masked beyond recognition; every legitimate value passes in its
 * field; random ids trip the strict search as rarely as its comment computes, UUIDs never.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cardDataIn, looksLikeCardNumber, luhnValid, maskCardData } from '../../drivers/card-number.js';
import { findHeaderCardData, findPosCardData } from '../../main/pos/server/card-data-guard.js';
import { compacted } from '../helpers/card-data-scan.js';
import {
  CORPUS_CARD_NUMBERS,
  DIGITS_BY_NATURE,
  DISGUISED,
  LEGITIMATE,
  type CorpusField,
  type DisguisedCard,
  type LegitimateValue,
} from '../fixtures/card-data-corpus.js';

/** The params a POS would send a corpus value in (metadata under a key, or as the key). */
function paramsOf(field: CorpusField | LegitimateValue['field'], value: string): Record<string, unknown> {
  if (field === 'metadata') return { metadata: { nota: value } };
  if (field === 'metadata key') return { metadata: { [value]: 'x' } };
  if (field === 'first_name') return { changes: { first_name: value } };
  return { [field]: value };
}

const single = DISGUISED.filter((entry) => Object.keys(entry.fields).length === 1);
const split = DISGUISED.filter((entry) => Object.keys(entry.fields).length > 1);
const onlyValue = (entry: DisguisedCard): [CorpusField, string] =>
  Object.entries(entry.fields)[0] as [CorpusField, string];

describe('the corpus', () => {
  it('holds at least 50 disguised card numbers of several brands, each Luhn-valid, and 50 legitimate values', () => {
    expect(DISGUISED.length).toBeGreaterThanOrEqual(50);
    expect(LEGITIMATE.length).toBeGreaterThanOrEqual(50);
    for (const pan of CORPUS_CARD_NUMBERS) expect(luhnValid(pan), pan.slice(0, 6)).toBe(true);
    expect(new Set(CORPUS_CARD_NUMBERS.map((pan) => pan[0]))).toEqual(new Set(['2', '3', '4', '5', '6']));
    expect(new Set(DISGUISED.map((entry) => entry.label)).size).toBe(DISGUISED.length);
    expect(new Set(LEGITIMATE.map((entry) => entry.label)).size).toBe(LEGITIMATE.length);
  });

  it('keeps every legitimate value free of the corpus numbers, however read', () => {
    for (const { label, value } of LEGITIMATE) {
      for (const pan of CORPUS_CARD_NUMBERS) expect(compacted(value).includes(pan), label).toBe(false);
    }
  });
});

describe('every disguised card number is refused', () => {
  it.each(single.map((entry) => [entry.label, entry] as const))('%s', (_, entry) => {
    const [field, value] = onlyValue(entry);
    if (field === 'origin') {
      expect(findHeaderCardData({ origin: value, host: '127.0.0.1:17301' })).toBe('origin');
    } else {
      const found = findPosCardData(paramsOf(field, value));
      expect(found?.field).toBe(
        field === 'metadata'
          ? 'metadata.nota'
          : field === 'metadata key'
            ? 'metadata.(key)'
            : field === 'first_name'
              ? 'changes.first_name'
              : field,
      );
    }
    // The search over the text alone finds it too, strictly (the POS API) and widely (the journal).
    expect(cardDataIn(value), 'strict').toBeDefined();
    expect(looksLikeCardNumber(value) || cardDataIn(value) === 'track', 'wide').toBe(true);
  });

  it.each(split.map((entry) => [entry.label, entry] as const))(
    '%s: found in the concatenation, named by every field it is split over',
    (_, entry) => {
      for (const value of Object.values(entry.fields)) expect(cardDataIn(value)).toBeUndefined();
      expect(findPosCardData({ ...entry.fields })).toEqual({
        field: Object.keys(entry.fields).join(' + '),
        kind: 'card_number',
      });
    },
  );

  it.each(single.map((entry) => [entry.label, entry] as const))('%s: masked beyond recognition', (_, entry) => {
    const [, value] = onlyValue(entry);
    const { text, masked } = maskCardData(value);
    expect(masked).toBeGreaterThanOrEqual(1);
    expect(compacted(text).includes(entry.pan)).toBe(false);
    expect(cardDataIn(text)).toBeUndefined();
  });
});

describe('every legitimate value passes in its field', () => {
  it.each(LEGITIMATE.map((entry) => [entry.label, entry] as const))('%s', (_, entry) => {
    expect(findPosCardData(paramsOf(entry.field, entry.value))).toBeUndefined();
    // Free text also passes the log's masking untouched (a tax id or a serial may not: digits by nature).
    if (!DIGITS_BY_NATURE.includes(entry.field))
      expect(maskCardData(entry.value)).toEqual({ text: entry.value, masked: 0 });
  });

  it('passes all together too: every reference with every description and notification, as a POS sends them', () => {
    const of = (field: LegitimateValue['field']): string[] =>
      LEGITIMATE.filter((entry) => entry.field === field).map((entry) => entry.value);
    for (const reference of of('reference_id')) {
      for (const description of of('description')) {
        for (const notification of of('notification')) {
          const params = { reference_id: reference, description, notification };
          expect(findPosCardData(params), `${reference} | ${description} | ${notification}`).toBeUndefined();
        }
      }
    }
  });
});

describe('random ids and the strict search', () => {
  /** Deterministic random hex (SHA-256 of a counter): the same ids every run. */
  function hexIds(count: number, length: number, seed: string): string[] {
    return Array.from({ length: count }, (_, n) =>
      createHash('sha256').update(`${seed}-${n}`).digest('hex').slice(0, length),
    );
  }
  const uuid = (hex: string): string =>
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  const rate = (ids: readonly string[]): number => ids.filter((id) => cardDataIn(id) !== undefined).length / ids.length;

  it('never takes a UUID for a card number', () => {
    expect(rate(hexIds(20_000, 32, 'uuid').map(uuid))).toBe(0);
  });

  it('takes about one 32-hex id in 1 000 for one, and about one cli_ id in 4 000 (the rates card-number.ts computes)', () => {
    expect(rate(hexIds(20_000, 32, 'hex'))).toBeLessThan(0.002);
    expect(rate(hexIds(20_000, 16, 'cli').map((hex) => `cli_${hex}`))).toBeLessThan(0.001);
  });
});
