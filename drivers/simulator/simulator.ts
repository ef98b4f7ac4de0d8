/**
 * A simulated ABECS PINPAD (the device side): what Pinbridge's training mode, technicians and the
 * tests talk to. It answers every command of abecs.md §3 that Pinbridge uses, with the display,
 * keypad and card slot a customer would see and use, and scriptable test cards (cards.ts).
 *
 * - `serve(transport)` attaches it to a byte transport (memory link, pty, TCP socket); one
 *   command runs at a time, CAN or a new command aborts a blocking one (abecs.md §1.6).
 * - The customer acts through `keypad`, `insertCard`/`tapCard`/`swipeCard`/`removeCard` or
 *   `presentNextCard`, or unattended through the `autoCustomer` option.
 * - Time limits (2-minute contactless cap, 60 s PIN idle, 1.5 s RMC alternation) come from
 *   `timings`, scaled by `timeScale`, so tests run in milliseconds.
 *
 * The simulator never logs PAN, PIN or track data: logs carry command ids, lengths and statuses.
 */
import { EventEmitter } from 'node:events';
import { InvalidArgumentError } from '../errors.js';
import { silentLogger, type DriverLogger } from '../log.js';
import type { ByteTransport } from '../transports/transport.js';
import { resolveCard, type SimCard } from './cards.js';
import type { Keypad } from './customer.js';
import type { DeviceLinkOptions } from './device-link.js';
import type { CommandHandler } from './handler.js';
import { BASIC_HANDLERS, removeFromSlot } from './handlers/basic.js';
import { CARD_HANDLERS } from './handlers/card.js';
import { ENCRYPTION_HANDLERS } from './handlers/encryption.js';
import { TABLE_HANDLERS } from './handlers/tables.js';
import { MEDIA_HANDLERS } from './handlers/media.js';
import type { AidEntry } from './tables.js';
import type { MediaFormat } from './wire/commands/media.js';
import { queueCard } from './interaction.js';
import type { DukptCounterStore } from './keys.js';
import { replayHandlers, replayScript, type ReplayExchange, type ReplayTrace } from './replay.js';
import {
  isKeyLoadoutName,
  isSimulatorProfileName,
  KEY_LOADOUT_NAMES,
  PROFILES,
  resolveKeys,
  SIMULATOR_PROFILE_NAMES,
  type KeyLoadoutName,
  type SimulatorKeySlots,
  type SimulatorProfileName,
} from './profiles.js';
import { SimulatorSession } from './session.js';
import { factoryAidRecords } from './factory-tables.js';
import {
  DEFAULT_SIMULATOR_TIMINGS,
  DeviceState,
  type AutoCustomer,
  type DisplayState,
  type Presentation,
  type SimulatorTimings,
  type Transaction,
} from './state.js';

export interface AutoCustomerOptions extends Omit<AutoCustomer, 'card'> {
  /** A card, or the name of one in the catalogue (TEST_CARDS). */
  readonly card?: SimCard | string;
}

export interface PinpadSimulatorOptions {
  /**
   * How literally the device reads the spec (profiles.ts, SIMULATOR_PROFILES): 'training' (the
   * default, lenient), 'strict' (Abecs 2.20 to the letter), 'ppc930' (the Gertec PPC-930 of a
   * real session), 'legacy' (BibComp 1.08). Identity options below win over the profile's.
   */
  readonly profile?: SimulatorProfileName;
  /**
   * Which key slots hold keys, per type, or a named loadout (KEY_LOADOUTS: 'dukpt', 'mkwk',
   * 'pinOnly', 'trace'); overrides the profile's (training: every slot). DUKPT slots hold keys
   * derived from the ANSI test BDK (keys.ts), MK slots the published test master keys
   * (drivers/crypto/master-keys.ts).
   */
  readonly keySlots?: SimulatorKeySlots | KeyLoadoutName;
  /** GPN/GOX/GOC refuse PIN entry with ST_PINBUSY (044), as a PINPAD rate-limiting PINs does. */
  readonly pinBusy?: boolean;
  /**
   * A profile that needs EMV tables (strict, ppc930, legacy: `requiresAidTables`) selects chip
   * and contactless applications only from its loaded AID records, as a real PINPAD does (S220
   * §6.8.1, §6.9.1), and answers ST_CARDAPPNAV when none matches. By default (undefined) it
   * holds the factory tables a store's TEF would have loaded (factory-tables.ts); true: it holds
   * none until a host loads some (a PINPAD fresh from the box); false: the simulator invents the
   * match from the card's brand, as the training profile always does.
   */
  readonly requireTables?: boolean;
  readonly serialNumber?: string;
  readonly manufacturer?: string;
  readonly model?: string;
  readonly firmware?: string;
  /** PP_SPECVER / GIN_SPECVER, the profile's by default ("2.20"; ppc930 "2.12"; legacy "1.08"). */
  readonly specVersion?: string;
  readonly partNumber?: string;
  /** EMV table versions already loaded, by acquirer (0 = global); overrides the profile's. */
  readonly tableVersions?: Readonly<Record<number, string>>;
  readonly logger?: DriverLogger;
  /** Multiplies every default time limit and host-given SPE_TIMEOUT (e.g. 0.001 in tests). */
  readonly timeScale?: number;
  /** Explicit time limits (ms); they win over `timeScale`. */
  readonly timings?: Partial<SimulatorTimings>;
  /** Answer for the customer after `delayMs` whenever a command waits for them. */
  readonly autoCustomer?: AutoCustomerOptions;
  /** Options of each session's DeviceLink (link timings). */
  readonly link?: DeviceLinkOptions;
  /** Pace every session's output like a serial line at this speed (bits per second, 8N1). */
  readonly paceBaud?: number;
  /**
   * Answer as the PINPAD of this recorded session did (replay.ts), instead of simulating one:
   * the profile, cards and customer options then play no part; `timeScale` scales the
   * recorded delays.
   */
  readonly replay?: ReplayTrace;
  /**
   * With `replay`: the test card whose data replaces the recording's masked and zeroed card data,
   * sealed for real under the keys the host's commands name and the published test keys
   * (replay-reseal.ts) — so a replayed sale is one the sandbox authorizes.
   */
  readonly resealCard?: SimCard | string;
  /**
   * Where the DUKPT transaction counters are kept (keys.ts): by default shared by every simulator
   * of this process with the same serial number; `fileCounterStore(path)` keeps them across runs,
   * as a real PINPAD does, so a host that refuses a replayed KSN keeps taking this one's sales.
   */
  readonly dukptCounters?: DukptCounterStore;
  /**
   * Bytes of media memory of a graphic profile (ppc930: 2 MiB), shared by the stored files and a
   * load in progress; what does not fit is refused with ST_INTERR (S220 §6.6.2, §6.6.3).
   */
  readonly mediaMemoryBytes?: number;
}

/** A media file the simulated PINPAD holds, as MLE stored it. */
export interface SimulatorMediaFile {
  readonly name: string;
  /** The format SPE_MFINFO named; undefined for a RUF type byte. */
  readonly format: MediaFormat | undefined;
  readonly bytes: Buffer;
}

export interface PinpadSimulatorEvents {
  /** The display changed. */
  display: [display: DisplayState];
  /** A host connected (`serve`) or went away. */
  session: [event: { readonly kind: 'open' | 'close'; readonly address: string }];
}

/** What the simulated card slot and transaction look like, without card data. */
export interface SimulatorCardStatus {
  readonly cardInSlot: boolean;
  readonly cardWaiting: Presentation | undefined;
  readonly transaction: { readonly source: Transaction['source']; readonly cardType: string } | undefined;
}

const HANDLERS: ReadonlyMap<string, CommandHandler> = new Map(
  [...BASIC_HANDLERS, ...TABLE_HANDLERS, ...CARD_HANDLERS, ...ENCRYPTION_HANDLERS, ...MEDIA_HANDLERS].map((handler) => [
    handler.id,
    handler,
  ]),
);

/** Command ids the simulator implements. */
export const SIMULATED_COMMANDS: readonly string[] = [...HANDLERS.keys()].sort();

function scaledTimings(timeScale: number, overrides: Partial<SimulatorTimings> | undefined): SimulatorTimings {
  const scale = (ms: number): number => Math.max(1, Math.round(ms * timeScale));
  return {
    ctlsIdleMs: overrides?.ctlsIdleMs ?? scale(DEFAULT_SIMULATOR_TIMINGS.ctlsIdleMs),
    pinIdleMs: overrides?.pinIdleMs ?? scale(DEFAULT_SIMULATOR_TIMINGS.pinIdleMs),
    rmcAlternateMs: overrides?.rmcAlternateMs ?? scale(DEFAULT_SIMULATOR_TIMINGS.rmcAlternateMs),
    processingMs: overrides?.processingMs ?? Math.round(DEFAULT_SIMULATOR_TIMINGS.processingMs * timeScale),
    pinMessageMs: overrides?.pinMessageMs ?? scale(DEFAULT_SIMULATOR_TIMINGS.pinMessageMs),
  };
}

function checkKeySlots(slots: SimulatorKeySlots | KeyLoadoutName | undefined): void {
  if (typeof slots === 'string') {
    // Callers outside TypeScript (the CLI, settings) may pass any text.
    const name: string = slots;
    if (!isKeyLoadoutName(name)) {
      throw new InvalidArgumentError(
        `There is no key loadout named "${name}"; known: ${KEY_LOADOUT_NAMES.join(', ')}.`,
      );
    }
    return;
  }
  for (const [kind, list] of Object.entries(slots ?? {})) {
    for (const slot of (list as readonly number[] | undefined) ?? []) {
      if (!Number.isInteger(slot) || slot < 0 || slot > 99) {
        throw new InvalidArgumentError(`keySlots.${kind} lists ${slot}; key slots are integers from 0 to 99.`);
      }
    }
  }
}

function resolveAutoCustomer(auto: AutoCustomerOptions): AutoCustomer {
  const { card, ...rest } = auto;
  return card === undefined ? rest : { ...rest, card: resolveCard(card) };
}

export class PinpadSimulator extends EventEmitter<PinpadSimulatorEvents> {
  readonly #device: DeviceState;
  readonly #sessions = new Set<SimulatorSession>();
  readonly #linkOptions: DeviceLinkOptions | undefined;
  readonly #paceBaud: number | undefined;
  readonly #replay:
    | {
        readonly script: ReadonlyMap<string, readonly ReplayExchange[]>;
        readonly timeScale: number;
        readonly reseal?: SimCard;
      }
    | undefined;

  constructor(options: PinpadSimulatorOptions = {}) {
    super();
    const timeScale = options.timeScale ?? 1;
    if (!(timeScale > 0) || !Number.isFinite(timeScale)) {
      throw new InvalidArgumentError(`timeScale must be a positive number, got ${timeScale}.`);
    }
    const auto = options.autoCustomer;
    if (auto && (!Number.isFinite(auto.delayMs) || auto.delayMs < 0)) {
      throw new InvalidArgumentError('autoCustomer.delayMs must be a number of milliseconds ≥ 0.');
    }
    // A replay answers from its recording; the lenient profile keeps NTM texts as recorded.
    const profileName = options.replay ? 'training' : (options.profile ?? 'training');
    if (!isSimulatorProfileName(profileName)) {
      throw new InvalidArgumentError(
        `There is no simulator profile named "${String(profileName)}"; known: ${SIMULATOR_PROFILE_NAMES.join(', ')}.`,
      );
    }
    const profile = PROFILES[profileName];
    checkKeySlots(options.keySlots);
    const memory = options.mediaMemoryBytes;
    if (memory !== undefined && (!Number.isInteger(memory) || memory < 0)) {
      throw new InvalidArgumentError(`mediaMemoryBytes must be a whole number of bytes ≥ 0, got ${memory}.`);
    }
    if (memory !== undefined && !profile.graphic) {
      throw new InvalidArgumentError(`The ${profile.name} profile has no graphic display and no media memory.`);
    }
    const defaults = profile.identity;
    this.#device = new DeviceState(
      {
        serialNumber: options.serialNumber ?? defaults.serialNumber,
        manufacturer: options.manufacturer ?? defaults.manufacturer,
        model: options.model ?? defaults.model,
        firmware: options.firmware ?? defaults.firmware,
        specVersion: options.specVersion ?? defaults.specVersion,
        partNumber: options.partNumber ?? defaults.partNumber,
      },
      scaledTimings(timeScale, options.timings),
      options.logger ?? silentLogger,
      options.tableVersions ?? profile.tableVersions,
      options.requireTables === undefined
        ? (profile.factoryTables ?? []).flatMap((table) => factoryAidRecords(table.acquirer, table.brands))
        : [],
      auto ? resolveAutoCustomer(auto) : undefined,
      timeScale,
      profile,
      resolveKeys(profile, options.keySlots),
      {
        pinBusy: options.pinBusy === true,
        requireTables: (options.requireTables ?? true) && profile.requiresAidTables,
      },
      options.dukptCounters,
      options.mediaMemoryBytes,
    );
    this.#linkOptions = options.link;
    if (options.paceBaud !== undefined && !(options.paceBaud > 0 && Number.isFinite(options.paceBaud))) {
      throw new InvalidArgumentError(`paceBaud must be a positive number, got ${options.paceBaud}.`);
    }
    this.#paceBaud = options.paceBaud;
    if (options.resealCard !== undefined && !options.replay)
      throw new InvalidArgumentError('resealCard re-seals a replayed session: it needs replay.');
    this.#replay = options.replay
      ? {
          script: replayScript(options.replay),
          timeScale,
          ...(options.resealCard === undefined ? {} : { reseal: resolveCard(options.resealCard) }),
        }
      : undefined;
    this.#device.on('display', (display) => this.emit('display', display));
  }

  /** The 16-column lines the customer sees (as many as the profile's display; trailing spaces removed). */
  get display(): DisplayState {
    return this.#device.display;
  }

  /** The device profile this simulator follows. */
  get profile(): SimulatorProfileName {
    return this.#device.profile.name;
  }

  /** Keys the customer presses: `keypad.type('12345678909')`, `keypad.press('enter')`. */
  get keypad(): Keypad {
    return this.#device.keypad;
  }

  get timings(): SimulatorTimings {
    return this.#device.timings;
  }

  /**
   * The media files the PINPAD holds (LMF's list with their bytes); empty on a text-only profile.
   * `display.image` is the one shown.
   */
  mediaFiles(): SimulatorMediaFile[] {
    const media = this.#device.media;
    if (!media) return [];
    return media.names().map((name) => {
      const file = media.get(name)!;
      return { name: file.name, format: file.format, bytes: file.bytes };
    });
  }

  /** Bytes of media memory in use (stored files and a load in progress); 0 on a text-only profile. */
  get mediaMemoryUsed(): number {
    return this.#device.media?.used ?? 0;
  }

  /** EMV table version stored for an acquirer (0 = global); zeros when none. */
  tableVersion(acquirer: number): string {
    return this.#device.tables.version(acquirer);
  }

  /**
   * The AID records the PINPAD holds (decoded from what TLR loaded and TLE committed), with their
   * contactless limits: what a table load really left in the device, for status screens and tests.
   */
  aidRecords(): readonly AidEntry[] {
    return this.#device.tables.aidRecords();
  }

  /** Slot and transaction state, free of card data (for status screens and tests). */
  get cardStatus(): SimulatorCardStatus {
    const t = this.#device.transaction;
    return {
      cardInSlot: this.#device.slotCard !== undefined,
      cardWaiting: this.#device.nextCard?.how,
      transaction: t ? { source: t.source, cardType: t.cardType } : undefined,
    };
  }

  /** Puts a chip card in the slot; it stays there until `removeCard()`. */
  insertCard(card: SimCard | string): void {
    const resolved = resolveCard(card);
    this.#device.slotCard = resolved;
    this.#device.changed();
  }

  /** Holds a card near the antenna: read by the next command with contactless enabled. */
  tapCard(card: SimCard | string): void {
    queueCard(this.#device, resolveCard(card), 'tap');
  }

  /** Swipes a card: read by the next command reading the magnetic stripe. */
  swipeCard(card: SimCard | string): void {
    queueCard(this.#device, resolveCard(card), 'swipe');
  }

  /** Takes the card out of the slot (RMC waits for this). */
  removeCard(): void {
    removeFromSlot(this.#device);
  }

  /** The card appears the next time a command waits for one, by its own entry mode. */
  presentNextCard(card: SimCard | string): void {
    queueCard(this.#device, resolveCard(card));
  }

  /**
   * Serves the commands arriving on `transport` (opened if needed). Several transports may be
   * served at once; they share this one device, as if several cables reached the same PINPAD.
   */
  serve(transport: ByteTransport): SimulatorSession {
    const handlers = this.#replay
      ? replayHandlers(this.#replay.script, {
          timeScale: this.#replay.timeScale,
          ...(this.#replay.reseal ? { reseal: this.#replay.reseal } : {}),
        })
      : HANDLERS;
    const session = new SimulatorSession(this.#device, transport, handlers, {
      ...(this.#linkOptions ? { link: this.#linkOptions } : {}),
    });
    session.link.faults.paceBaud = this.#paceBaud;
    this.#sessions.add(session);
    const address = transport.address;
    session.ready.then(
      () => this.emit('session', { kind: 'open', address }),
      () => this.#sessions.delete(session),
    );
    transport.once('close', () => {
      if (!this.#sessions.delete(session)) return;
      void session.close();
      this.emit('session', { kind: 'close', address });
    });
    return session;
  }

  /** Stops serving every transport (the transports themselves stay open). */
  async close(): Promise<void> {
    const sessions = [...this.#sessions];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.close()));
  }
}

export type { SimulatorSession };
