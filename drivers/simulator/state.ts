/**
 * Everything the simulated PINPAD remembers between commands: identity, what the display shows,
 * the keypad, the card slot and cards waiting to be presented, EMV tables, and the transaction in
 * progress (the card read by GCR/GCX and how far the chip processing went). Command handlers
 * read and change this state; `PinpadSimulator` exposes the customer-facing part of it.
 */
import { EventEmitter } from 'node:events';
import { silentLogger, type DriverLogger } from '../log.js';
import type { SimCard } from './cards.js';
import { CustomerEvents, Keypad } from './customer.js';
import { PROFILES, resolveKeys, type LoadedKeys, type SimulatorProfile } from './profiles.js';
import { SimulatedDukptKeys, type DukptCounterStore } from './keys.js';
import { EmvTableStore, type TableRecord } from './tables.js';
import { DISPLAY_COLUMNS, fixedLines } from './wire/text.js';
import { MediaStore } from './media-store.js';
import type { MediaFormat } from './wire/commands/media.js';

export interface SimulatorIdentity {
  readonly serialNumber: string;
  readonly manufacturer: string;
  readonly model: string;
  readonly firmware: string;
  readonly specVersion: string;
  readonly partNumber: string;
}

export interface SimulatorTimings {
  /** Contactless antenna cap: no tap within this time ends GCR/GCX/CEX (2 minutes). */
  readonly ctlsIdleMs: number;
  /** PIN entry inactivity limit of GPN/GOC/GOX when the host gives none (60 s). */
  readonly pinIdleMs: number;
  /** RMC alternates its message with "RETIRE O CARTAO" at this period (1.5 s). */
  readonly rmcAlternateMs: number;
  /** Time the "card" takes to answer (PROCESSANDO... on screen); 0 by default. */
  readonly processingMs: number;
  /** How long "SENHA INVALIDA" / "SENHA BLOQUEADA" stay on screen after an offline PIN (1.5 s). */
  readonly pinMessageMs: number;
}

export const DEFAULT_SIMULATOR_TIMINGS: SimulatorTimings = Object.freeze({
  ctlsIdleMs: 120_000,
  pinIdleMs: 60_000,
  rmcAlternateMs: 1_500,
  processingMs: 0,
  pinMessageMs: 1_500,
});

/** What the unattended customer does when a command waits for them. */
export interface AutoCustomer {
  /** Delay before acting, in ms. */
  readonly delayMs: number;
  /** Digits typed for GCD (then ENTER); under a CNPJ prompt, `cnpj` when given. */
  readonly cpf?: string;
  /** Digits typed for a GCD CNPJ prompt (then ENTER); absent: as for any prompt. */
  readonly cnpj?: string;
  /** Digits typed for the GCD IDENTIFICACAO prompt (1Dh; then ENTER); absent: as for any prompt. */
  readonly identification?: string;
  /** Keys for GKY/CEX/MNU (default: ENTER for keys, "1" for menus). */
  readonly keys?: string;
  /** The card presented to GCR/GCX/CEX (default: the catalogue's visaCredit). */
  readonly card?: SimCard;
  /**
   * Hands over the catalogue's debit (or credit) card when `card` lacks the application the
   * PINPAD asks for: a training customer pays a debit sale with a debit card. Off by default, so
   * a test can still present the wrong card on purpose.
   */
  readonly matchApplication?: boolean;
  /** PIN typed for GPN/GOC/GOX (default: the card's PIN, else "1234"). */
  readonly pin?: string;
}

export type Presentation = 'insert' | 'tap' | 'swipe';

export type CardTypeCode = '00' | '03' | '05' | '06';

/** The card read by GCR/GCX and what has happened to it since. */
export interface Transaction {
  readonly card: SimCard;
  readonly source: 'GCR' | 'GCX';
  readonly cardType: CardTypeCode;
  /** Amount in centavos; GOC/GOX may change it for chip cards. */
  amount: number;
  readonly acquirer: number;
  /** "YYMMDD" from the card-read command. */
  readonly date: string;
  /** ISO 8583 transaction type (tag 9C). */
  readonly transactionType: number;
  /** Application transaction counter (tag 9F36) of this read. */
  readonly atc: number;
  readonly record: string;
  readonly appType: string;
  /**
   * PP_AIDTABINFO: the loaded AID records the card's application matched (several when their
   * AIDs conflict, S220 §6.9.1.2); absent when the simulator invented the match (no tables).
   */
  readonly aidTableInfo?: ReadonlyArray<{
    readonly acquirer: number;
    readonly record: string;
    readonly appType: number;
  }>;
  /** GTK may read the tracks once per read. */
  tracksRead: boolean;
  /** Chip decision taken by GOC/GOX. */
  decision?: 'approvedOffline' | 'declined' | 'goOnline';
  /** The chip's offline PIN verification in GOC/GOX, for a card whose CVM is offline PIN. */
  offlinePin?: 'verified' | 'blocked';
  /** Set by FNC/FCX: the chip transaction is over. */
  finished: boolean;
}

export interface DisplayState {
  /**
   * Every text line of the display, top to bottom (as many as the profile's PP_DSPTXTSZ says:
   * 2 for training and legacy, 4 strict, 8 ppc930), each ≤ 16 columns, trailing spaces trimmed.
   * All blank while an image is shown.
   */
  readonly lines: readonly string[];
  /**
   * The image DSI (or CLX with SPE_MFNAME) put on a graphic display, in place of any text, until
   * the next command that writes the display (S220 §6.6.6, §7.3.1): its name, format, the file's
   * bytes exactly as loaded (for a window's mirror to decode) and its size in pixels.
   */
  readonly image?: DisplayedImage;
}

export interface DisplayedImage {
  readonly name: string;
  readonly format: MediaFormat;
  readonly bytes: Buffer;
  readonly width: number;
  readonly height: number;
}

/** Scenario switches that are not card behaviour. */
export interface DeviceScenario {
  /** GPN/GOX/GOC answer ST_PINBUSY (044) instead of opening a PIN screen (S220 §3.1.1). */
  readonly pinBusy?: boolean;
  /**
   * With no AID record loaded, chip and contactless reads find no application (ST_CARDAPPNAV),
   * as on a real PINPAD (S220 §6.8.1, §6.9.1: the candidates come from the AID tables). Off by
   * default; see `PinpadSimulatorOptions.requireTables`.
   */
  readonly requireTables?: boolean;
}

export class DeviceState extends EventEmitter<{ display: [DisplayState] }> {
  readonly events = new CustomerEvents();
  readonly keypad = new Keypad(this.events);
  readonly tables: EmvTableStore;
  /** DUKPT keys of the loaded slots and their counters (keys.ts). */
  readonly dukpt: SimulatedDukptKeys;
  /** The card sitting in the ICC slot. */
  slotCard: SimCard | undefined;
  /** A card that appears when the next card read waits (tap, swipe or insertion). */
  nextCard: { readonly card: SimCard; readonly how: Presentation } | undefined;
  /** The transaction in progress (card read by GCR/GCX). */
  transaction: Transaction | undefined;
  /** Tracks captured by CEX (swipe) for GTK. */
  swipedCard: SimCard | undefined;
  /** GTK took the swiped card's tracks: neither GTK nor GPN "00" can use them again. */
  swipedTracksRead = false;
  /**
   * The last CEX/GCX read a swipe with no readable track: GTK answers ST_OK with no card data,
   * once (S220 §6.5.12).
   */
  emptySwipe = false;
  /** GCR parameters saved with a 020 answer, for the bare GCR that resumes. */
  gcrResume: { readonly request: unknown; readonly card: SimCard } | undefined;
  /** Last application transaction counter handed out. */
  atc = 0;
  /** An OPN (or, on a profile that does it, an implicit one) came since power-on or the last CLO/CLX. */
  opened = false;
  backlight = false;
  /**
   * KSEC while secure communication is on (S220 §5.2): set by a secure OPN, erased by OPN,
   * CLO/CLX and the failures of §6.3.2. One per PINPAD, whichever cable the host uses.
   */
  ksec: Buffer | undefined;
  /**
   * RSP_STAT of the last GCR, GOC, GCX or GOX that answered: GCR_STATCHIP / PP_ICCSTAT of a later
   * magnetic read is derived from it (S220 §6.8.1.1, §6.9.1.1). Undefined before any.
   */
  lastCardStatus: { readonly command: 'GCR' | 'GOC' | 'GCX' | 'GOX'; readonly status: number } | undefined;
  /**
   * The card whose chip failed on the last card read (ST_DUMBCARD, ST_ERRCARD, ST_ERRFALLBACK):
   * the scripted customer swipes it when asked for the card again. Cleared by a card read.
   */
  failedChip: SimCard | undefined;
  /** Swipes seen per card, for `SimCard.unreadableSwipes`. */
  readonly swipes = new Map<SimCard, number>();
  /** Offline PIN tries left per card (its chip's PIN try counter), once the card was used. */
  readonly pinTries = new Map<SimCard, number>();
  /** Key slots holding keys (profile defaults, or the `keySlots` option). */
  readonly keys: LoadedKeys;
  /** The media memory of a graphic PINPAD (S220 §6.6); undefined on a text-only one. */
  readonly media: MediaStore | undefined;
  #shown: readonly string[];
  #image: DisplayedImage | undefined;

  constructor(
    readonly identity: SimulatorIdentity,
    readonly timings: SimulatorTimings,
    readonly logger: DriverLogger = silentLogger,
    tableVersions: Readonly<Record<number, string>> = {},
    preloadedTables: readonly TableRecord[] = [],
    readonly autoCustomer: AutoCustomer | undefined = undefined,
    /** Multiplies time limits the host gives in seconds (SPE_TIMEOUT), so tests can run fast. */
    readonly timeScale = 1,
    readonly profile: SimulatorProfile = PROFILES.training,
    keys: LoadedKeys = resolveKeys(profile, undefined),
    readonly scenario: DeviceScenario = {},
    dukptCounters?: DukptCounterStore,
    /** Bytes of media memory instead of the profile's (a graphic profile only). */
    mediaMemory?: number,
  ) {
    super();
    this.media = profile.graphic ? new MediaStore(mediaMemory ?? profile.graphic.mediaMemory) : undefined;
    this.tables = new EmvTableStore(tableVersions, preloadedTables);
    this.dukpt = new SimulatedDukptKeys(identity.serialNumber, dukptCounters);
    this.keys = keys;
    this.#shown = Array.from({ length: profile.display.lines }, () => '');
  }

  /** Text lines of the display (PP_DSPTXTSZ). */
  get lineCount(): number {
    return this.profile.display.lines;
  }

  /** A host-given time limit in seconds, as milliseconds on this simulator's clock. */
  hostSeconds(seconds: number): number {
    return seconds * 1000 * this.timeScale;
  }

  get display(): DisplayState {
    return { lines: [...this.#shown], ...(this.#image ? { image: this.#image } : {}) };
  }

  /** Shows an image in place of everything the display held (DSI, CLX with SPE_MFNAME). */
  showImage(image: DisplayedImage): void {
    this.#image = image;
    this.#shown = Array.from({ length: this.lineCount }, () => '');
    this.emit('display', this.display);
  }

  /**
   * Shows a fixed 2×16 message given as 32 characters (DSP, CLO, RMC: chars 1–16 line 1, 17–32
   * line 2); the lines below are cleared.
   */
  show2x16(message: string): void {
    this.setLines(...fixedLines(message));
  }

  /**
   * Shows lines from the top, each cut to 16 columns (control characters shown as spaces); lines
   * beyond the display are dropped, the display's other lines are cleared.
   */
  setLines(...lines: readonly string[]): void {
    const blankControls = (ch: string): string => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? ' ' : ch);
    const clean = (line: string): string => [...line].map(blankControls).join('').slice(0, DISPLAY_COLUMNS).trimEnd();
    const next = Array.from({ length: this.lineCount }, (_, index) => clean(lines[index] ?? ''));
    if (this.#image === undefined && next.every((line, index) => line === this.#shown[index])) return;
    // Text replaces an image (any command that writes the display, S220 §7.3.1).
    this.#image = undefined;
    this.#shown = next;
    this.emit('display', this.display);
  }

  clearDisplay(): void {
    this.setLines();
  }

  /** CLO/CLX/OPN: stored tracks and the transaction are forgotten, the ICC is powered off. */
  endSession(): void {
    this.transaction = undefined;
    this.swipedCard = undefined;
    this.emptySwipe = false;
    this.gcrResume = undefined;
  }

  /**
   * What a classic OPN does (S220 §6.4.1, §7.3.1): resources set up again (tracks, transaction and
   * a table load in progress dropped), secure communication off, backlight on, display cleared.
   */
  open(): void {
    this.endSession();
    this.tables.abort();
    this.ksec = undefined;
    this.opened = true;
    this.backlight = true;
    this.clearDisplay();
  }

  /**
   * What CLO and CLX do besides their message (S220 §6.4.5), and what §6.3.2 asks after a broken
   * secure packet or an encrypted OPN: secure communication off and KSEC erased, stored tracks
   * erased, ICC and antenna off, backlight off — the PINPAD is closed.
   */
  close(): void {
    this.endSession();
    this.ksec = undefined;
    this.opened = false;
    this.backlight = false;
  }

  /** Customer-facing changes call this so waiting commands re-check. */
  changed(): void {
    this.events.emit('change');
  }
}
