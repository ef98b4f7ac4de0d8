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

export type { CardDataKeyMethod, PinKeyMethod };

/** What the provider's host opens for one acquirer, in its order of preference. */
export interface KeyOffer {
  readonly cardData: readonly CardDataKeyMethod[];
  readonly pin: readonly PinKeyMethod[];
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

/** "DUKPT data slot 01", "MK/WK with PIN master key slot 02", "the random-key method (RSA key k1)". */
export function describeMethod(method: CardDataKeyMethod | PinKeyMethod, use: KeyUse): string {
  const kind = use === 'pin' ? 'PIN' : 'data';
  switch (method.method) {
    case 'dukpt':
      return `DUKPT ${kind} slot ${two(method.slot)}`;
    case 'mkwk':
      return `MK/WK with ${kind} master key slot ${two(method.slot)}`;
    default:
      return `the random-key method (RSA key ${method.key_id})`;
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
 * Why no method of `offered` can be used for `use` and how to fix it, in English, e.g.
 * "DUKPT data slot 01 is empty — load a DUKPT data key in slot 01, or have the provider offer
 * MK/WK for data master key slot 02 or the random-key method". `maps` are the PINPAD's key maps
 * (what it holds that the provider could offer instead); `fromSettings`: the methods are the
 * settings' DUKPT slots (no list in the tables), so another slot can be named there.
 */
export function missingKeyProblem(
  offered: readonly (CardDataKeyMethod | PinKeyMethod)[],
  use: KeyUse,
  maps: PinpadKeySlots | undefined,
  options: { readonly fromSettings: boolean },
): string {
  const kind = use === 'pin' ? 'PIN' : 'data';
  const empty = offered.map((method) => describeMethod(method, use));
  const loads = offered.flatMap((method) => {
    if (method.method === 'dukpt') return [`a DUKPT ${kind} key in slot ${two(method.slot)}`];
    if (method.method === 'mkwk') return [`a ${kind} master key in slot ${two(method.slot)}`];
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
  const instead: string[] = [];
  if (options.fromSettings && dukptHeld.length > 0)
    instead.push(
      `name a slot that holds one in pinpad.key_slots.${use} (DUKPT ${kind} keys are in slot ${slotList(dukptHeld)})`,
    );
  const provider: string[] = [];
  if (!options.fromSettings && dukptHeld.length > 0) provider.push(`DUKPT for ${kind} slot ${slotList(dukptHeld)}`);
  if (masterHeld.length > 0) provider.push(`MK/WK for ${kind} master key slot ${slotList(masterHeld)}`);
  if (use === 'data' && !offered.some((method) => method.method === 'random_key'))
    provider.push('the random-key method');
  if (provider.length > 0)
    instead.push(
      `have the provider offer ${provider.join(' or ')}${options.fromSettings ? ' in its EMV tables (keys)' : ''}`,
    );
  const fix = [loads.length > 0 ? `load ${loads.join(' or ')}` : undefined, ...instead].filter(
    (part): part is string => part !== undefined,
  );
  return `${empty.join(' and ')} ${empty.length === 1 ? 'is' : 'are'} empty — ${fix.join(', or ')}`;
}
