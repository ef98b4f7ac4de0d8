/**
 * What the pinpads check says of a PINPAD's keys: its key maps (GIX PP_MKTDESP/D,
 * PP_DKPTTDESP/D, read at identification) and, per acquirer, the card data and PIN methods a sale
 * will use — chosen as the sale chooses them (main/pinpad/key-methods.ts) from the tables the
 * settings name (a file, or the provider's last tables cached beside the journal) and the
 * settings' DUKPT slots. An acquirer for which no method can be used is a failure whose fix is
 * the same sentence the refused sale logs.
 *
 * The doctor reads the key maps only: a PINPAD that reports no DUKPT map would be asked for its
 * slots' KSNs at the sale, so its DUKPT keys are reported here as "not reported".
 */
import type { PinpadInfo, PinpadKeySlots } from '../../drivers/abecs/pinpad.js';
import type { JsonValue } from './check.js';
import { bilingual, type Bilingual } from './check.js';
import type { EmvTables, TablesFileError } from '../pinpad/emv-tables.js';
import {
  chooseMethod,
  describeMethod,
  missingKeyProblem,
  neededKey,
  offersInUse,
  statusFromMaps,
  type CardDataKeyMethod,
  type KeyUse,
  type PinKeyMethod,
} from '../pinpad/key-methods.js';
import { DEFAULT_KEY_SLOTS } from '../pinpad/sale-session.js';

/** Where a sale's key methods come from, as the settings say. */
export interface PinpadKeysSource {
  /** The tables file the settings name, or why it cannot be read. */
  readonly tables?: EmvTables | TablesFileError;
  /** With `pinpad.tables: "provider"`: the provider's tables last cached for a PINPAD's serial. */
  readonly providerTables?: (serial: string) => EmvTables | undefined;
  /** The settings' DUKPT slots (pinpad.key_slots). */
  readonly keySlots?: { readonly pin?: number; readonly data?: number };
}

export interface PinpadKeysReport {
  /** "key maps: DUKPT PIN 01, 02; …", or that the PINPAD reports none. */
  readonly maps: Bilingual;
  /** "acquirer 02: card data by …, the PIN by …", one per acquirer. */
  readonly methods: Bilingual;
  /** Why an acquirer cannot sell, with the fix; undefined when every acquirer can. */
  readonly problem: Bilingual | undefined;
  readonly details: { readonly key_maps: JsonValue; readonly key_methods: JsonValue };
}

const two = (n: number): string => String(n).padStart(2, '0');

const MAPS: ReadonlyArray<readonly [keyof PinpadKeySlots, string, string, string]> = [
  ['dukptPin', 'dukpt_pin', 'DUKPT PIN', 'DUKPT de PIN'],
  ['dukptData', 'dukpt_data', 'DUKPT data', 'DUKPT de dados'],
  ['masterKeyPin', 'mk_pin', 'PIN master keys', 'chaves mestras de PIN'],
  ['masterKeyData', 'mk_data', 'data master keys', 'chaves mestras de dados'],
];

function mapsReport(maps: PinpadKeySlots | undefined): { text: Bilingual; details: JsonValue } {
  if (maps === undefined || MAPS.every(([kind]) => maps[kind] === undefined)) {
    return {
      text: bilingual(
        'it reports no key maps (its DUKPT slots are asked for their KSNs at each sale)',
        'ele não informa os mapas de chaves (os slots DUKPT são consultados pelo KSN a cada venda)',
      ),
      details: null,
    };
  }
  const slots = (list: readonly number[] | undefined, none: string, unknown: string): string =>
    list === undefined ? unknown : list.length === 0 ? none : runs(list);
  return {
    text: bilingual(
      `key maps: ${MAPS.map(([kind, , en]) => `${en} ${slots(maps[kind], 'none', 'not reported')}`).join('; ')}`,
      `mapas de chaves: ${MAPS.map(([kind, , , pt]) => `${pt} ${slots(maps[kind], 'nenhuma', 'não informado')}`).join('; ')}`,
    ),
    details: Object.fromEntries(MAPS.map(([kind, name]) => [name, maps[kind] === undefined ? null : [...maps[kind]]])),
  };
}

/** Slots as runs: "01, 03–31" (a PINPAD may hold dozens). */
function runs(slots: readonly number[]): string {
  const sorted = [...new Set(slots)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(
      j - i >= 2
        ? `${two(sorted[i]!)}–${two(sorted[j]!)}`
        : sorted
            .slice(i, j + 1)
            .map(two)
            .join(', '),
    );
    i = j + 1;
  }
  return parts.join(', ');
}

/** A method as the details carry it (the working key and the RSA modulus are the provider's, not secrets, but long: left out). */
function methodDetails(method: CardDataKeyMethod | PinKeyMethod | undefined): JsonValue {
  if (method === undefined) return null;
  if (method.method === 'random_key') return { method: method.method, key_id: method.key_id };
  return { method: method.method, slot: method.slot };
}

/** The key maps of an ABECS 2.x PINPAD and the method each acquirer's sales will use. */
export function pinpadKeysReport(info: PinpadInfo, source: PinpadKeysSource = {}): PinpadKeysReport {
  const maps = info.keySlots;
  const fromFile = source.tables !== undefined && !(source.tables instanceof Error) ? source.tables : undefined;
  const tables = fromFile ?? source.providerTables?.(info.serialNumber);
  const offers = offersInUse(tables, { ...DEFAULT_KEY_SLOTS, ...source.keySlots });
  const lines: Bilingual[] = [];
  const problems: Bilingual[] = [];
  const rows: JsonValue[] = [];
  for (const offer of offers) {
    const whoEn = offer.acquirer === undefined ? 'every sale' : `acquirer ${two(offer.acquirer)}`;
    const whoPt = offer.acquirer === undefined ? 'toda venda' : `adquirente ${two(offer.acquirer)}`;
    const ofWhoPt = offer.acquirer === undefined ? 'de toda venda' : `do adquirente ${two(offer.acquirer)}`;
    const choose = <M extends CardDataKeyMethod | PinKeyMethod>(offered: readonly M[], use: KeyUse) =>
      chooseMethod(offered, use, (key) => statusFromMaps(maps, key));
    const cardData = choose(offer.cardData, 'data');
    const pin = choose(offer.pin, 'pin');
    const said = (method: CardDataKeyMethod | PinKeyMethod | undefined, use: KeyUse): Bilingual => {
      if (method === undefined) return bilingual('nothing usable', 'nada utilizável');
      const key = neededKey(method, use);
      const unsure = key !== undefined && statusFromMaps(maps, key) === 'unknown';
      return bilingual(
        `${describeMethod(method, use)}${unsure ? ' (key not reported by the PINPAD)' : ''}`,
        `${describeMethod(method, use, 'pt')}${unsure ? ' (chave não informada pelo PINPAD)' : ''}`,
      );
    };
    const data = said(cardData, 'data');
    const pinText = said(pin, 'pin');
    lines.push(
      bilingual(
        `${whoEn}: card data by ${data.en}, the PIN by ${pinText.en}`,
        `${whoPt}: dados do cartão por ${data.pt}, a senha por ${pinText.pt}`,
      ),
    );
    rows.push({
      acquirer: offer.acquirer === undefined ? null : two(offer.acquirer),
      card_data: methodDetails(cardData),
      pin: methodDetails(pin),
    });
    for (const [use, chosen, offered] of [
      ['data', cardData, offer.cardData],
      ['pin', pin, offer.pin],
    ] as const) {
      if (chosen !== undefined) continue;
      const fromSettings = offer.settings[use];
      problems.push(
        bilingual(
          `${use === 'pin' ? 'the PIN' : 'card data'} of ${whoEn}: ${missingKeyProblem(offered, use, maps, { fromSettings })}`,
          `${use === 'pin' ? 'a senha' : 'os dados do cartão'} ${ofWhoPt}: ${missingKeyProblem(offered, use, maps, { fromSettings, language: 'pt' })}`,
        ),
      );
    }
  }
  const map = mapsReport(maps);
  return {
    maps: map.text,
    methods: bilingual(lines.map((line) => line.en).join('; '), lines.map((line) => line.pt).join('; ')),
    problem:
      problems.length === 0
        ? undefined
        : bilingual(problems.map((p) => p.en).join('; '), problems.map((p) => p.pt).join('; ')),
    details: { key_maps: map.details, key_methods: rows },
  };
}
