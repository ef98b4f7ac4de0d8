/**
 * Device profiles: how far the simulated PINPAD departs from "answer whatever the host sends".
 *
 * - `training` — the lenient simulator Pinbridge's training mode and most tests use: every key
 *   slot loaded, a parameterless GIX answered, a 2×16 display.
 * - `strict` — an Abecs 2.20 PINPAD that reads the spec literally (GIX without SPE_IDLIST is
 *   ST_MANDAT, S220 §6.4.3; the strict side of every lenient or inconsistent field rule,
 *   `strictReading`; keys only where loaded, ST_ERRKEY before any PIN screen, §6.5.11 and
 *   §6.9.3.1; a command without an OPN before it gets an implicit classic OPN, §6.4.1; a 4-line
 *   display).
 * - `ppc930` — what the Gertec PPC-930 of the TRACE (abecs.md §0) answered: its identity, its
 *   8×16 display, its key maps and table versions, AID records for acquirers 02 and 04, spec 2.12;
 *   its colour graphic display (240 × 320) shows PNG and JPG images loaded with MLI/MLR/MLE — the
 *   only profile with the optional multimedia commands (the others answer them ERR010);
 *   it replays the TRACE's 25 host commands with the statuses the real one answered.
 * - `legacy` — a BibComp 1.08 PINPAD: no Abecs (TLV) command at all, no secure communication (a
 *   secure OPN is answered as a classic one), GIN reports "1.08".
 *
 * Every 2.x profile answers a secure OPN with CRKSEC and then speaks secure communication
 * (S220 §5.2), and implements every key method (MK/WK, DUKPT, random key); `keySlots` or a named
 * loadout (KEY_LOADOUTS) says which slots hold keys.
 *
 * A profile is data the handlers consult (`DeviceState.profile`); the handlers themselves stay
 * one implementation of the spec.
 */

import type { CardBrand } from './cards.js';

export type SimulatorProfileName = 'training' | 'strict' | 'ppc930' | 'legacy';

/** Every profile, with a one-line description (for `--help` and status screens). */
export const SIMULATOR_PROFILES: Readonly<Record<SimulatorProfileName, string>> = Object.freeze({
  training: 'lenient simulator (default): answers what the host sends, every key slot loaded, 2x16 display',
  strict:
    'Abecs 2.20 PINPAD read literally: GIX needs SPE_IDLIST, strict field formats, DUKPT keys only in slot 01, ST_ERRKEY, implicit OPN, 4x16 display',
  ppc930:
    'Gertec PPC-930 as recorded in a real session (spec 2.12): its GIX answers, key maps, tables for acquirers 02 and 04, 8x16 text and 240x320 colour graphic display (PNG, JPG images)',
  legacy: 'BibComp 1.08 PINPAD: ERR010 to every Abecs (TLV) command, no secure OPN, GIN spec "1.08", 2x16 display',
});

export const SIMULATOR_PROFILE_NAMES: readonly SimulatorProfileName[] = Object.freeze(
  Object.keys(SIMULATOR_PROFILES) as SimulatorProfileName[],
);

export function isSimulatorProfileName(name: string): name is SimulatorProfileName {
  return Object.prototype.hasOwnProperty.call(SIMULATOR_PROFILES, name);
}

/** AID records a PINPAD holds for one acquirer when it reaches the store (factory-tables.ts). */
export interface FactoryTable {
  readonly acquirer: number;
  /** The brands' credit and debit records in this order (records 01, 02, …); visa, mastercard, elo by default. */
  readonly brands?: readonly CardBrand[];
}

/** Key slots (00–99) holding a key, per key type (S220 §5.1, §6.1.2). */
export interface SimulatorKeySlots {
  readonly dukptPin?: readonly number[];
  readonly dukptData?: readonly number[];
  readonly mkPin?: readonly number[];
  readonly mkData?: readonly number[];
}

/**
 * The ways acquirers and TEFs key the PINPADs stores really have, by name — for tests, training and
 * `pinbridge simulator --keys`. Each names all four key types (a type it leaves empty has no key).
 */
export type KeyLoadoutName = 'dukpt' | 'mkwk' | 'pinOnly' | 'trace';

export interface KeyLoadout {
  readonly description: string;
  readonly slots: Required<SimulatorKeySlots>;
}

export const KEY_LOADOUTS: Readonly<Record<KeyLoadoutName, KeyLoadout>> = Object.freeze({
  dukpt: {
    description: 'DUKPT only: DUKPT PIN key 01 and DUKPT data key 01',
    slots: { dukptPin: [1], dukptData: [1], mkPin: [], mkData: [] },
  },
  mkwk: {
    // Slot 02 is where the PPC-930 of the trace keeps its data master key, and the slot the
    // sandbox's tables name for MK/WK; 01 beside it for hosts that use the first slot.
    description: 'MK/WK only: PIN and data master keys in slots 01 and 02, no DUKPT key',
    slots: { dukptPin: [], dukptData: [], mkPin: [1, 2], mkData: [1, 2] },
  },
  pinOnly: {
    description: 'DUKPT PIN key 01 and no data key: card data only by the random-key method (SPE_MTHDDAT 9x)',
    slots: { dukptPin: [1], dukptData: [], mkPin: [], mkData: [] },
  },
  trace: {
    description: 'the real PPC-930 trace: DUKPT PIN key 01, data master key 02 (MK/WK), no DUKPT data key',
    slots: { dukptPin: [1], dukptData: [], mkPin: [], mkData: [2] },
  },
} satisfies Record<KeyLoadoutName, KeyLoadout>);

export const KEY_LOADOUT_NAMES: readonly KeyLoadoutName[] = Object.freeze(
  Object.keys(KEY_LOADOUTS) as KeyLoadoutName[],
);

export function isKeyLoadoutName(name: string): name is KeyLoadoutName {
  return Object.prototype.hasOwnProperty.call(KEY_LOADOUTS, name);
}

/** Slots loaded per key type; `'all'` = every slot (the training simulator). */
export interface LoadedKeys {
  readonly dukptPin: ReadonlySet<number> | 'all';
  readonly dukptData: ReadonlySet<number> | 'all';
  readonly mkPin: ReadonlySet<number> | 'all';
  readonly mkData: ReadonlySet<number> | 'all';
}

export function keyLoaded(slots: ReadonlySet<number> | 'all', slot: number): boolean {
  return slots === 'all' || slots.has(slot);
}

/** A PP_MKTDESP-style map: 100 characters, '1' loaded, '0' absent (S220 §3.1.3.2). */
export function keyMapOf(slots: ReadonlySet<number> | 'all'): string {
  let map = '';
  for (let slot = 0; slot < 100; slot++) map += keyLoaded(slots, slot) ? '1' : '0';
  return map;
}

/** Slots marked '1' in a 100-character key map. */
function slotsOfMap(map: string): number[] {
  const slots: number[] = [];
  for (let slot = 0; slot < map.length; slot++) if (map[slot] === '1') slots.push(slot);
  return slots;
}

export interface SimulatorProfile {
  readonly name: SimulatorProfileName;
  /** Identity defaults; PinpadSimulatorOptions win over them. */
  readonly identity: {
    readonly serialNumber: string;
    readonly manufacturer: string;
    readonly model: string;
    /** The "memory" half of PP_MODEL ("name;memory"). */
    readonly memory: string;
    readonly firmware: string;
    readonly specVersion: string;
    readonly partNumber: string;
  };
  /** PP_DSPTXTSZ: text lines × columns. */
  readonly display: { readonly lines: number; readonly columns: number };
  /**
   * The graphic display and the optional multimedia commands (S220 §3.4, §6.6), or null for a
   * text-only PINPAD: GIX then reports no PP_DSPGRSZ / PP_MFSUP, and MLI, MLR, MLE, LMF, DMF and
   * DSI answer ERR010, as a PINPAD without the feature does (§3.4).
   */
  readonly graphic: SimulatorGraphic | null;
  /** PP_CAPAB (d1 CTLS, d2 display, d3 ICC, d4 magnetic, d5 SAM; d3–d5 from 2.20). */
  readonly capabilities: string;
  readonly contactless: boolean;
  /** Abecs (TLV) commands exist (false: BibComp, answers ERR010 to them). */
  readonly abecsCommands: boolean;
  /** GIX without SPE_IDLIST answers ST_MANDAT (S220 §6.4.3) instead of every † item. */
  readonly gixNeedsIdList: boolean;
  /**
   * Reads commands on the strict side wherever the spec is lenient or contradicts itself
   * (wire/command.ts `Reading`, abecs.md §8.14): e.g. GOC_RUF1 must be "0", a parameterless
   * command takes no data, SPE_DSPMSG breaks lines with CR only.
   */
  readonly strictReading: boolean;
  /**
   * A packet whose N3 block lengths do not parse but whose first three bytes are a known command
   * id answers `<ID>011` (ST_INVPARM, S220 §6.2.2: an integrity error in a known command);
   * false keeps the training simulator's ERR010.
   */
  readonly envelopeErrorIsInvparm: boolean;
  /**
   * A secure OPN gets CRKSEC and secure communication follows (S220 §3.2.2, §5.2): every 2.x
   * PINPAD. False: a BibComp PINPAD, which answers it as a classic OPN — what tells a host not to
   * use Abecs commands.
   */
  readonly secureCommunication: boolean;
  /**
   * A command arriving while the PINPAD is not open (never opened, or closed by CLO/CLX) first
   * gets the processing of a classic OPN (S220 §6.4.1: "ele deve antes efetuar internamente os
   * processamentos equivalentes a um OPN (clássico)") — the display cleared and the backlight on
   * (§7.3.1) — and is then processed. False keeps the training simulator's display as it was.
   */
  readonly implicitOpen: boolean;
  /** Default key slots (overridden by `keySlots`). */
  readonly keys: LoadedKeys;
  /** EMV table versions loaded at power-on (overridden by `tableVersions`). */
  readonly tableVersions: Readonly<Record<number, string>>;
  /** The reserved key maps 8030h/8031h/8034h the PPC-930 sends in its parameterless GIX. */
  readonly reservedKeyMaps: boolean;
  /**
   * Like a real PINPAD, this device selects chip applications only from loaded AID tables
   * (S220 §6.8.1, §6.9.1): with none, a chip or contactless read answers ST_CARDAPPNAV. The
   * training simulator invents the match instead, so training works without tables.
   */
  readonly requiresAidTables: boolean;
  /**
   * The acquirers whose AID records the device holds when it arrives at the store (loaded by the
   * store's TEF; factory-tables.ts), each with the order its records list the brands in, unless
   * `requireTables` says otherwise. Undefined: none.
   */
  readonly factoryTables?: readonly FactoryTable[];
}

/** A graphic display and its media memory. */
export interface SimulatorGraphic {
  /** PP_DSPGRSZ "LLLLCCCC": lines (height) then columns (width), in pixels. */
  readonly size: string;
  /** PP_MFSUP: "1" in position 1 PNG, 2 JPG, 3 GIF (S220 §3.1.3.2); a missing position is "not supported". */
  readonly mediaSupport: string;
  /** Bytes of media memory: stored files and a load in progress share it. */
  readonly mediaMemory: number;
}

const SLOT_01: ReadonlySet<number> = new Set([1]);
const NONE: ReadonlySet<number> = new Set();

/*
 * PPC-930 key maps, copied from the TRACE's parameterless GIX (17:36:29). That answer is 930 bytes
 * in block 1 (8001h–8022h plus the maps 8030h–8035h: 306 + 6 × 104 bytes) and a second block of
 * "112" bytes = 8036h (104) + PP_TLRMEM (8) of which the log shows only the first 77 map
 * characters; the rest of 8036h is taken as '0'.
 *   8032h PP_MKTDESP  → MK PIN slots 02–04, 08–15, 22, 23, 29
 *   8033h PP_MKTDESD  → MK data slots 02, 04, 08–17, 19, 21–23, 25, 26, 29
 *   8035h PP_DKPTTDESP → DUKPT PIN slots 01–03, 08, 10, 12–14, 16–23, 25, 26, 29
 *   8036h PP_DKPTTDESD → DUKPT data slots 01, 08, 10, 12–14, 16, 18–20, 22, 23, 29
 * They agree with the rest of the session: the listed GIX asking 9101h and 9105h got back only
 * 9101h (DUKPT PIN slot 01 loaded, 05 absent); a later GIX got 9102h (slot 02, the key index of
 * the Scope TEF's GOX with SPE_MTHDPIN "3"); EBX with SPE_MTHDDAT "10" (MK/WK) and key 02 worked
 * (MK data slot 02).
 */
const PPC930_MAPS = {
  mkPin: '0011100011111111' + '0000001100000100' + '0'.repeat(68),
  mkData: '00101000' + '1111111111010111' + '0110010000000000' + '0'.repeat(60),
  dukptPin: '01110000' + '1010111011111111' + '0110010000000000' + '0'.repeat(60),
  dukptData: '0100000010101' + '1101011101100000' + '1000000000000000' + '0'.repeat(55),
} as const;

export const PROFILES: Readonly<Record<SimulatorProfileName, SimulatorProfile>> = Object.freeze({
  training: {
    name: 'training',
    identity: {
      serialNumber: 'SIM0000000000001',
      manufacturer: 'PINBRIDGE SIM',
      model: 'PBSIM-1',
      memory: '64MB',
      firmware: 'SIMOS 1.0',
      specVersion: '2.20',
      partNumber: 'PBSIM-1',
    },
    display: { lines: 2, columns: 16 },
    graphic: null,
    capabilities: '1011000000',
    contactless: true,
    abecsCommands: true,
    gixNeedsIdList: false,
    strictReading: false,
    envelopeErrorIsInvparm: false,
    secureCommunication: true,
    implicitOpen: false,
    keys: { dukptPin: 'all', dukptData: 'all', mkPin: 'all', mkData: 'all' },
    tableVersions: {},
    reservedKeyMaps: false,
    requiresAidTables: false,
  },
  strict: {
    name: 'strict',
    identity: {
      serialNumber: 'SIM0000000000220',
      manufacturer: 'PINBRIDGE SIM',
      model: 'PBSIM-220',
      memory: '64MB',
      firmware: 'SIMOS 2.20',
      specVersion: '2.20',
      partNumber: 'PBSIM-220',
    },
    display: { lines: 4, columns: 16 },
    graphic: null,
    // CTLS, text display, ICC reader "1", magnetic reader "1", no SAM (S220 §3.1.3.2, 2.20 digits).
    capabilities: '1011000000',
    contactless: true,
    abecsCommands: true,
    gixNeedsIdList: true,
    strictReading: true,
    envelopeErrorIsInvparm: true,
    secureCommunication: true,
    implicitOpen: true,
    keys: { dukptPin: SLOT_01, dukptData: SLOT_01, mkPin: NONE, mkData: NONE },
    tableVersions: {},
    reservedKeyMaps: false,
    requiresAidTables: true,
    factoryTables: [{ acquirer: 1 }],
  },
  ppc930: {
    name: 'ppc930',
    identity: {
      // The trace's 16-digit format; a made-up number, not the recorded device's.
      serialNumber: '7200032299990001',
      manufacturer: 'GERTEC',
      model: 'PPC-930',
      memory: '192MB',
      firmware: '1400.12503.VR1115  @',
      specVersion: '2.12',
      partNumber: 'PPC-930',
    },
    display: { lines: 8, columns: 16 },
    // The TRACE's PP_DSPGRSZ "03200240" is 320 lines by 240 columns: a portrait 240 × 320 screen.
    // Its PP_MFSUP "11" says PNG and JPG, and nothing of GIF (no third digit): not supported. The
    // media memory is not reported by any GIX item; 2 MiB of the "192MB" is a plausible share.
    graphic: { size: '03200240', mediaSupport: '11', mediaMemory: 2 * 1024 * 1024 },
    // Spec 2.12: only d1 (CTLS) and d2 ("2": colour graphic display) are defined.
    capabilities: '1200000000',
    contactless: true,
    abecsCommands: true,
    // The real device answered the Scope TEF's parameterless GIX000 with every † item.
    gixNeedsIdList: false,
    strictReading: false,
    envelopeErrorIsInvparm: true,
    secureCommunication: true,
    implicitOpen: false,
    keys: {
      dukptPin: new Set(slotsOfMap(PPC930_MAPS.dukptPin)),
      dukptData: new Set(slotsOfMap(PPC930_MAPS.dukptData)),
      mkPin: new Set(slotsOfMap(PPC930_MAPS.mkPin)),
      mkData: new Set(slotsOfMap(PPC930_MAPS.mkData)),
    },
    // GIX016 answered 9300h, 9304h and 9306h with "1807202408" (global + acquirers 04 and 06).
    tableVersions: { 0: '1807202408', 4: '1807202408', 6: '1807202408' },
    reservedKeyMaps: true,
    requiresAidTables: true,
    // The TRACE's own card read: GCX with SPE_AIDLIST "02010204" answered PP_AIDTABINFO "020101" for
    // a contactless Mastercard credit card — acquirer 02's record 01 is Mastercard credit (and its
    // record 04 another application). Acquirer 04 is one of the trace's PP_TABVERnn.
    factoryTables: [{ acquirer: 2, brands: ['mastercard', 'visa', 'elo'] }, { acquirer: 4 }],
  },
  legacy: {
    name: 'legacy',
    identity: {
      serialNumber: 'SIM0000000000108',
      manufacturer: 'PINBRIDGE SIM',
      model: 'PBSIM-108',
      memory: '16MB',
      firmware: 'SIMOS 1.08',
      specVersion: '1.08',
      partNumber: 'PBSIM-108',
    },
    display: { lines: 2, columns: 16 },
    graphic: null,
    capabilities: '0000000000',
    // BibComp-era reader: magnetic stripe and ICC, no antenna (GIN_CTLSSUP blank).
    contactless: false,
    // TLV commands get ERR010, what hosts probe for. Strictly, S220 §7.4 lists the "ERR" answer
    // among the 2.x additions: what a BibComp device sent back for an unknown id is not in our
    // sources.

    abecsCommands: false,
    gixNeedsIdList: false,
    strictReading: false,
    envelopeErrorIsInvparm: false,
    secureCommunication: false,
    implicitOpen: false,
    keys: { dukptPin: 'all', dukptData: 'all', mkPin: 'all', mkData: 'all' },
    tableVersions: {},
    reservedKeyMaps: false,
    requiresAidTables: true,
    factoryTables: [{ acquirer: 1 }],
  },
} satisfies Record<SimulatorProfileName, SimulatorProfile>);

/**
 * The profile's key slots with `keySlots` (when given) overriding each type it names; a loadout
 * name stands for its slots (every type).
 */
export function resolveKeys(
  profile: SimulatorProfile,
  keySlots: SimulatorKeySlots | KeyLoadoutName | undefined,
): LoadedKeys {
  const overrides = typeof keySlots === 'string' ? KEY_LOADOUTS[keySlots].slots : keySlots;
  const pick = (
    given: readonly number[] | undefined,
    fallback: ReadonlySet<number> | 'all',
  ): ReadonlySet<number> | 'all' => (given === undefined ? fallback : new Set(given));
  return {
    dukptPin: pick(overrides?.dukptPin, profile.keys.dukptPin),
    dukptData: pick(overrides?.dukptData, profile.keys.dukptData),
    mkPin: pick(overrides?.mkPin, profile.keys.mkPin),
    mkData: pick(overrides?.mkData, profile.keys.mkData),
  };
}

/**
 * The Abecs (TLV) commands of S220 §3.1.3: a BibComp 1.08 PINPAD does not know them. DEX is not
 * among them: it is a fixed-field command and S220 §7.4, which lists every change from BibComp,
 * adds only the "Comandos Abecs" (and DEX_OPTIONS, an optional trailing field, in 2.20).
 */
export const ABECS_TLV_COMMANDS: ReadonlySet<string> = new Set([
  'GIX',
  'CLX',
  'CEX',
  'EBX',
  'GCD',
  'GTK',
  'MNU',
  'MLI',
  'MLR',
  'MLE',
  'LMF',
  'DMF',
  'DSI',
  'GCX',
  'GED',
  'GOX',
  'FCX',
]);
