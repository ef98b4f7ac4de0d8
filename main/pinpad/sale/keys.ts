/**
 * The keys of a PINPAD's sales: which key method (DUKPT, MK/WK, random key) serves an acquirer's
 * card data and PIN on this PINPAD (key-methods.ts chooses; this asks the PINPAD), and why none
 * does — KEYS_MISSING, naming the fix. The settings' DUKPT slots serve where the tables name no
 * method for an acquirer.
 */
import type { DukptKsns } from '../../../drivers/abecs/pinpad.js';
import {
  chooseMethod,
  missingKeyProblem,
  neededKey,
  offerOf,
  offersInUse,
  statusFromMaps,
  type AcquirerOffer,
  type CardDataKeyMethod,
  type ChosenMethods,
  type KeyStatus,
  type KeyUse,
  type NeededKey,
  type PinKeyMethod,
} from '../key-methods.js';
import { SaleStepError } from '../sale-errors.js';
import type { SaleContext } from './context.js';
import type { SaleTables } from './tables.js';

export interface KeySlots {
  /** DUKPT TDES slot of the PIN key (00–99). */
  readonly pin: number;
  /** DUKPT TDES slot of the card data key (00–99). */
  readonly data: number;
}

export const DEFAULT_KEY_SLOTS: KeySlots = Object.freeze({ pin: 1, data: 1 });

/** Whether each configured slot holds a key. */
export interface KeyCheck {
  readonly pin: boolean;
  readonly data: boolean;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** The settings' slots over DEFAULT_KEY_SLOTS; RangeError for a slot outside 00–99. */
export function keySlotsOf(slots: Partial<KeySlots> | undefined): KeySlots {
  const merged = { ...DEFAULT_KEY_SLOTS, ...slots };
  for (const [name, slot] of Object.entries(merged)) {
    if (!Number.isInteger(slot) || slot < 0 || slot > 99)
      throw new RangeError(`keySlots.${name} must be an integer from 0 to 99, got ${slot}.`);
  }
  return merged;
}

/** KEYS_MISSING for the problems of missingKeyProblem, each naming its fix. */
export function keysMissing(problems: readonly string[]): SaleStepError {
  return new SaleStepError('KEYS_MISSING', 'prepare', {
    message: `the PINPAD holds no usable key for ${problems.join('; ')}.`,
  });
}

export class SaleKeys {
  readonly #context: SaleContext;
  readonly #tables: SaleTables;
  readonly #slots: KeySlots;
  /** The DUKPT KSNs of a slot (PIN and data), once asked of a PINPAD without key maps (they do not change while attached). */
  readonly #ksnsAsked = new Map<number, Promise<DukptKsns>>();

  constructor(context: SaleContext, tables: SaleTables, slots: KeySlots) {
    this.#context = context;
    this.#tables = tables;
    this.#slots = slots;
  }

  /** Why the card data or PIN of any acquirer in use has no usable method (every acquirer of the tables, else the settings' slots). */
  async problemsOfAcquirersInUse(): Promise<string[]> {
    const problems = new Set<string>();
    for (const offer of offersInUse(this.#tables.usable(), this.#slots))
      for (const problem of await this.#problems(offer)) problems.add(problem);
    return [...problems];
  }

  /** The methods of an acquirer's card data and PIN this PINPAD can use; KEYS_MISSING naming the fix when there is none. */
  async methodsFor(acquirer: number | undefined): Promise<ChosenMethods> {
    const offer = this.#offerOf(acquirer);
    const cardData = await this.#choose(offer.cardData, 'data');
    const pin = await this.#choose(offer.pin, 'pin');
    if (cardData !== undefined && pin !== undefined) return { cardData, pin };
    throw keysMissing(await this.#problems(offer));
  }

  /**
   * Whether the DUKPT slots hold keys (the settings' slots unless said): from the key maps read
   * at attach (PP_DKPTTDESP / PP_DKPTTDESD), else by asking GIX for the slots' KSNs.
   */
  async check(slots: KeySlots = this.#slots): Promise<KeyCheck> {
    const pin = await this.#status({ kind: 'dukptPin', slot: slots.pin });
    const data = await this.#status({ kind: 'dukptData', slot: slots.data });
    return { pin: pin === 'held', data: data === 'held' };
  }

  /** The key methods an acquirer's host opens, in the provider's order (key-methods.ts offerOf). */
  #offerOf(acquirer: number | undefined): AcquirerOffer {
    return offerOf(this.#tables.usable(), this.#slots, acquirer);
  }

  /** Why an acquirer's card data or PIN has no usable method (none when both have one). */
  async #problems(offer: AcquirerOffer): Promise<string[]> {
    const problems: string[] = [];
    const whose = offer.acquirer === undefined ? '' : ` of acquirer ${two(offer.acquirer)}`;
    for (const use of ['data', 'pin'] as const) {
      const offered = use === 'data' ? offer.cardData : offer.pin;
      if ((await this.#choose(offered, use)) !== undefined) continue;
      const maps = (await this.#context.pinpad.info()).keySlots;
      const what = use === 'pin' ? 'the PIN' : 'card data';
      problems.push(`${what}${whose}: ${missingKeyProblem(offered, use, maps, { fromSettings: offer.settings[use] })}`);
    }
    return problems;
  }

  /** The first method of `offered` whose key the PINPAD holds (key-methods.ts chooseMethod). */
  async #choose<M extends CardDataKeyMethod | PinKeyMethod>(
    offered: readonly M[],
    use: KeyUse,
  ): Promise<M | undefined> {
    const statuses = new Map<string, KeyStatus>();
    for (const method of offered) {
      const key = neededKey(method, use);
      if (key !== undefined) statuses.set(`${key.kind}:${key.slot}`, await this.#status(key));
    }
    return chooseMethod(offered, use, (key) => statuses.get(`${key.kind}:${key.slot}`) ?? 'unknown');
  }

  /**
   * Whether the PINPAD holds a key: from the key maps read at attach (PP_MKTDESP/D,
   * PP_DKPTTDESP/D); for DUKPT without a map, by asking GIX for the slot's KSNs (PP_KSNTDESPnn /
   * PP_KSNTDESDnn), which a PINPAD returns only for loaded slots; unknown for a master key
   * without a map, and for everything on a legacy PINPAD (no GIX).
   */
  async #status(key: NeededKey): Promise<KeyStatus> {
    if (await this.#context.isLegacy()) return 'unknown';
    const fromMaps = statusFromMaps((await this.#context.pinpad.info()).keySlots, key);
    if (fromMaps !== 'unknown' || (key.kind !== 'dukptPin' && key.kind !== 'dukptData')) return fromMaps;
    let asked = this.#ksnsAsked.get(key.slot);
    if (asked === undefined) {
      asked = this.#context.pinpad.dukptKsns({ pin: key.slot, data: key.slot });
      this.#ksnsAsked.set(key.slot, asked);
      // A failed question is asked again next time.
      asked.catch(() => this.#ksnsAsked.delete(key.slot));
    }
    const ksns = await asked;
    return (key.kind === 'dukptPin' ? ksns.pin : ksns.data)[key.slot] !== undefined ? 'held' : 'empty';
  }
}
