/**
 * Which key method seals a sale's card data and PIN, per acquirer: the provider says which
 * methods its host opens, in its order of preference (the EMV tables' `keys`), and the PINPAD
 * says which keys it holds (GIX key maps PP_MKTDESP/D, PP_DKPTTDESP/D; else, for DUKPT, the
 * slots' KSNs). Pure: the session (sale-session.ts) and `pinbridge doctor` ask the PINPAD and
 * hand the answers in.
 *
 * The fallback order, for card data and for the PIN alike:
 *
 * 1. The acquirer's list in the tables (`keys.card_data`, `keys.pin`), in the provider's order:
 *    the first method whose key the PINPAD holds — DUKPT: a DUKPT key of that kind in the slot;
 *    MK/WK: a master key of that kind in the slot; the random-key method (card data only): always,
 *    since the PINPAD makes that key itself for each card (GTK "90").
 * 2. Without a list: DUKPT in the acquirer's `key_slots`, else the settings' `pinpad.key_slots`,
 *    else slot 01 — what Pinbridge did before the provider could name methods.
 *
 * A PINPAD that cannot say whether it holds a key (no key map of that kind: a master key has no
 * KSN to ask for; a BibComp 1.08 PINPAD has no GIX at all) is not refused for it: a method whose
 * key is unknown is chosen only when no method's key is known to be held, and the PINPAD itself
 * answers ST_ERRKEY at the command if the key is not there.
 */
import type { PinpadKeySlots } from '../../drivers/abecs/pinpad.js';
import type { CardDataKeyMethod, PinKeyMethod } from '../contract/emv-tables.js';
import type { EmvTables } from './emv-tables.js';

export type { CardDataKeyMethod, PinKeyMethod };

/** What the provider's host opens for one acquirer, in its order of preference. */
export interface KeyOffer {
  readonly cardData: readonly CardDataKeyMethod[];
  readonly pin: readonly PinKeyMethod[];
}

/** One acquirer's offer, and whether each use's came from the settings (no list or slot in the tables). */
export interface AcquirerOffer extends KeyOffer {
  /** The acquirer the tables name methods or slots for; undefined where the settings' slots apply. */
  readonly acquirer: number | undefined;
  readonly settings: { readonly data: boolean; readonly pin: boolean };
}

/** The tables' one acquirer, when they have exactly one (a swipe, GCX's SPE_ACQREF). */
export function onlyAcquirer(tables: EmvTables | undefined): number | undefined {
  if (tables === undefined || tables.records.size !== 1) return undefined;
  return [...tables.records.keys()][0];
}

/**
 * An acquirer's offer: the tables' `keys`, else DUKPT in its `key_slots`, else in the settings'
 * slots (`settingsSlots`: pinpad.key_slots, else 01). Without an acquirer: the tables' one
 * acquirer when they have exactly one, else the settings'.
 */
export function offerOf(
  tables: EmvTables | undefined,
  settingsSlots: { readonly pin: number; readonly data: number },
  acquirer: number | undefined,
): AcquirerOffer {
  const index = acquirer ?? onlyAcquirer(tables) ?? 0;
  const methods = tables?.keyMethods.get(index);
  const tableSlots = tables?.keySlots.get(index);
  const slots = { ...settingsSlots, ...tableSlots };
  return {
    acquirer: methods !== undefined || tableSlots !== undefined ? index : undefined,
    cardData: methods?.cardData ?? [{ method: 'dukpt', slot: slots.data }],
    pin: methods?.pin ?? [{ method: 'dukpt', slot: slots.pin }],
    settings: {
      data: methods?.cardData === undefined && tableSlots?.data === undefined,
      pin: methods?.pin === undefined && tableSlots?.pin === undefined,
    },
  };
}

/** Every offer a sale may use: each acquirer of the tables, or the settings' slots without tables. */
export function offersInUse(
  tables: EmvTables | undefined,
  settingsSlots: { readonly pin: number; readonly data: number },
): AcquirerOffer[] {
  if (tables === undefined || tables.records.size === 0) return [offerOf(undefined, settingsSlots, undefined)];
  return [...tables.records.keys()].sort((a, b) => a - b).map((acquirer) => offerOf(tables, settingsSlots, acquirer));
}

/** What a sale uses for one acquirer. */
export interface ChosenMethods {
  readonly cardData: CardDataKeyMethod;
  readonly pin: PinKeyMethod;
}

export type KeyUse = 'pin' | 'data';

/** A key the PINPAD must hold for a method: its kind (the GIX key map that lists it) and slot. */
export interface NeededKey {
  readonly kind: keyof PinpadKeySlots;
  readonly slot: number;
}

/** Whether the PINPAD holds a key: held, empty, or unknown (it has no way to say). */
export type KeyStatus = 'held' | 'empty' | 'unknown';

const two = (n: number): string => String(n).padStart(2, '0');

/** The key `method` needs in the PINPAD for `use`; undefined for the random-key method, which needs none. */
export function neededKey(method: CardDataKeyMethod | PinKeyMethod, use: KeyUse): NeededKey | undefined {
  switch (method.method) {
    case 'dukpt':
      return { kind: use === 'pin' ? 'dukptPin' : 'dukptData', slot: method.slot };
    case 'mkwk':
      return { kind: use === 'pin' ? 'masterKeyPin' : 'masterKeyData', slot: method.slot };
    default:
      return undefined;
  }
}

/** What the key maps say of one key; unknown when the PINPAD gave no map of that kind. */
export function statusFromMaps(maps: PinpadKeySlots | undefined, key: NeededKey): KeyStatus {
  const map = maps?.[key.kind];
  if (map === undefined) return 'unknown';
  return map.includes(key.slot) ? 'held' : 'empty';
}

/**
 * The first method of `offered` whose key is held (a method that needs none counts as held); else
 * the first whose key is unknown; else undefined (every key it needs is known to be missing).
 */
export function chooseMethod<M extends CardDataKeyMethod | PinKeyMethod>(
  offered: readonly M[],
  use: KeyUse,
  statusOf: (key: NeededKey) => KeyStatus,
): M | undefined {
  const status = (method: M): KeyStatus => {
    const key = neededKey(method, use);
    return key === undefined ? 'held' : statusOf(key);
  };
  return offered.find((method) => status(method) === 'held') ?? offered.find((method) => status(method) === 'unknown');
}

export type Language = 'en' | 'pt';

/** The words of the sentences below, in English (logs, errors) and Brazilian Portuguese (the window, doctor). */
const WORDS = {
  en: {
    kind: (use: KeyUse) => (use === 'pin' ? 'PIN' : 'data'),
    dukpt: (kind: string, slot: string) => `DUKPT ${kind} slot ${slot}`,
    mkwk: (kind: string, slot: string) => `MK/WK with ${kind} master key slot ${slot}`,
    random: (keyId: string) => `the random-key method (RSA key ${keyId})`,
    randomOffer: 'the random-key method',
    and: ' and ',
    or: ' or ',
    empty: (count: number) => (count === 1 ? 'is empty' : 'are empty'),
    loadDukpt: (kind: string, slot: string) => `a DUKPT ${kind} key in slot ${slot}`,
    loadMaster: (kind: string, slot: string) => `a ${kind} master key in slot ${slot}`,
    load: (what: string) => `load ${what}`,
    nameSlot: (use: KeyUse, kind: string, slots: string) =>
      `name a slot that holds one in pinpad.key_slots.${use} (DUKPT ${kind} keys are in slot ${slots})`,
    offerDukpt: (kind: string, slots: string) => `DUKPT for ${kind} slot ${slots}`,
    offerMaster: (kind: string, slots: string) => `MK/WK for ${kind} master key slot ${slots}`,
    provider: (what: string, inTables: boolean) =>
      `have the provider offer ${what}${inTables ? ' in its EMV tables (keys)' : ''}`,
    orFix: ', or ',
  },
  pt: {
    kind: (use: KeyUse) => (use === 'pin' ? 'PIN' : 'dados'),
    dukpt: (kind: string, slot: string) => `DUKPT de ${kind} no slot ${slot}`,
    mkwk: (kind: string, slot: string) => `MK/WK com a chave mestra de ${kind} do slot ${slot}`,
    random: (keyId: string) => `o método de chave aleatória (chave RSA ${keyId})`,
    randomOffer: 'o método de chave aleatória',
    and: ' e ',
    or: ' ou ',
    empty: (count: number) => (count === 1 ? 'está vazio' : 'estão vazios'),
    loadDukpt: (kind: string, slot: string) => `uma chave DUKPT de ${kind} no slot ${slot}`,
    loadMaster: (kind: string, slot: string) => `uma chave mestra de ${kind} no slot ${slot}`,
    load: (what: string) => `carregue ${what}`,
    nameSlot: (use: KeyUse, kind: string, slots: string) =>
      `informe em pinpad.key_slots.${use} um slot que tenha uma (há chaves DUKPT de ${kind} no slot ${slots})`,
    offerDukpt: (kind: string, slots: string) => `DUKPT para o slot de ${kind} ${slots}`,
    offerMaster: (kind: string, slots: string) => `MK/WK para a chave mestra de ${kind} do slot ${slots}`,
    provider: (what: string, inTables: boolean) =>
      `peça ao provedor de pagamentos que ofereça ${what}${inTables ? ' nas tabelas EMV dele (keys)' : ''}`,
    orFix: ', ou ',
  },
} as const;

/** "DUKPT data slot 01", "MK/WK with PIN master key slot 02", "the random-key method (RSA key k1)". */
export function describeMethod(
  method: CardDataKeyMethod | PinKeyMethod,
  use: KeyUse,
  language: Language = 'en',
): string {
  const words = WORDS[language];
  const kind = words.kind(use);
  switch (method.method) {
    case 'dukpt':
      return words.dukpt(kind, two(method.slot));
    case 'mkwk':
      return words.mkwk(kind, two(method.slot));
    default:
      return words.random(method.key_id);
  }
}

/** The offer without a list in the tables: DUKPT in the given slots. */
export function dukptOffer(slots: { readonly pin: number; readonly data: number }): KeyOffer {
  return { cardData: [{ method: 'dukpt', slot: slots.data }], pin: [{ method: 'dukpt', slot: slots.pin }] };
}

function slotList(slots: readonly number[]): string {
  return slots.map(two).join(', ');
}

/**
 * Why no method of `offered` can be used for `use` and how to fix it, e.g. "DUKPT data slot 01 is
 * empty — load a DUKPT data key in slot 01, or have the provider offer MK/WK for data master key
 * slot 02 or the random-key method". `maps` are the PINPAD's key maps (what it holds that the
 * provider could offer instead); `fromSettings`: the methods are the settings' DUKPT slots (no
 * list in the tables), so another slot can be named there.
 */
export function missingKeyProblem(
  offered: readonly (CardDataKeyMethod | PinKeyMethod)[],
  use: KeyUse,
  maps: PinpadKeySlots | undefined,
  options: { readonly fromSettings: boolean; readonly language?: Language },
): string {
  const words = WORDS[options.language ?? 'en'];
  const kind = words.kind(use);
  const empty = offered.map((method) => describeMethod(method, use, options.language));
  const loads = offered.flatMap((method) => {
    if (method.method === 'dukpt') return [words.loadDukpt(kind, two(method.slot))];
    if (method.method === 'mkwk') return [words.loadMaster(kind, two(method.slot))];
    return [];
  });
  const offeredKeys = new Set(
    offered.flatMap((method) => {
      const key = neededKey(method, use);
      return key === undefined ? [] : [`${key.kind}:${key.slot}`];
    }),
  );
  const notOffered = (mapKind: keyof PinpadKeySlots): number[] =>
    (maps?.[mapKind] ?? []).filter((slot) => !offeredKeys.has(`${mapKind}:${slot}`));
  const dukptHeld = notOffered(use === 'pin' ? 'dukptPin' : 'dukptData');
  const masterHeld = notOffered(use === 'pin' ? 'masterKeyPin' : 'masterKeyData');
  const fix: string[] = [];
  if (loads.length > 0) fix.push(words.load(loads.join(words.or)));
  if (options.fromSettings && dukptHeld.length > 0) fix.push(words.nameSlot(use, kind, slotList(dukptHeld)));
  const provider: string[] = [];
  if (!options.fromSettings && dukptHeld.length > 0) provider.push(words.offerDukpt(kind, slotList(dukptHeld)));
  if (masterHeld.length > 0) provider.push(words.offerMaster(kind, slotList(masterHeld)));
  if (use === 'data' && !offered.some((method) => method.method === 'random_key')) provider.push(words.randomOffer);
  if (provider.length > 0) fix.push(words.provider(provider.join(words.or), options.fromSettings));
  return `${empty.join(words.and)} ${words.empty(empty.length)} — ${fix.join(words.orFix)}`;
}
