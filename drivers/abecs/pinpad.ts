/**
 * The high-level PINPAD API: what the rest of Pinbridge (and technicians, through the CLI) use.
 * It turns typed requests into commands through the codecs, runs them on the link, and maps
 * answers to typed results or errors:
 *
 * - `AbecsStatusError` (code = the spec's status name, e.g. ST_CANCEL) for a status ≠ 000;
 * - `LinkError` (BUSY, DISCONNECTED, RESPONSE_TIMEOUT, CANCELLED…) from the link layer;
 * - `AbecsFormatError` for answers that do not follow the layout;
 * - `InvalidArgumentError` before anything is sent, for requests the codec refuses (a display
 *   text over 32 characters, for instance).
 *
 * Abecs 2.x PINPADs get the TLV commands (GIX, CEX, GCX/GOX/FCX); older PINPADs the BibComp
 * ones (GIN, GKY). Which kind this is comes from `info()`: a PINPAD that answers GIX is Abecs.
 */
import { EventEmitter } from 'node:events';
import { InvalidArgumentError } from '../errors.js';
import type { DriverLogger } from '../log.js';
import { silentLogger } from '../log.js';
import type { ByteTransport } from '../transports/transport.js';
import type { CommandCodec } from './codec.js';
import { decodeResponsePacket, encodeCommandPacket } from './envelope.js';
import { AbecsFormatError } from './format-error.js';
import { HostLink, type LinkTimings, type ResetResult } from './link.js';
import { AbecsStatusError } from './status.js';
import { parseDisplay2x16 } from './text.js';
import { cexCommand, type CexEvent, type CexRequest, type CexResult } from './commands/cex.js';
import { cloCommand } from './commands/clo.js';
import { dexCommand, type DexOptions } from './commands/dex.js';
import { dspCommand } from './commands/dsp.js';
import { fcxCommand, type FcxRequest, type FcxResult } from './commands/fcx.js';
import { fncCommand, type FncRequest, type FncResult } from './commands/fnc.js';
import { gcdCommand, gcdRequestFor, GCD_MESSAGES, type GcdMessageName } from './commands/gcd.js';
import { gcrCommand, type GcrRequest, type GcrResult } from './commands/gcr.js';
import { gcxCommand, type GcxRequest, type GcxResult } from './commands/gcx.js';
import { ginCommand, type GinGeneralInfo } from './commands/gin.js';
import { gixCommand, GIX_MAX_IDS, type CommLink, type GixResult } from './commands/gix.js';
import { gocCommand, type GocRequest, type GocResult } from './commands/goc.js';
import { gpnCommand, type GpnRequest, type GpnResult } from './commands/gpn.js';
import { gtkCommand, type GtkRequest, type GtkResult } from './commands/gtk.js';
import { gtsCommand } from './commands/gts.js';
import { PP, ppKsnTdesData, ppKsnTdesPin, ppTableVersion } from './ids.js';
import { gkyCommand } from './commands/gky.js';
import { goxCommand, type GoxRequest, type GoxResult } from './commands/gox.js';
import { mnuCommand } from './commands/mnu.js';
import { opnCommand } from './commands/opn.js';
import { rmcCommand } from './commands/rmc.js';
import { tleCommand } from './commands/tle.js';
import { tliCommand } from './commands/tli.js';
import { tlrBatches, tlrCommand, type TableRecord } from './commands/tlr.js';
import { dmfCommand } from './commands/dmf.js';
import { dsiCommand } from './commands/dsi.js';
import { lmfCommand } from './commands/lmf.js';
import { loadMediaFile, mediaSupportOf, type MediaLoadOptions, type MediaSupport, type MediaType } from './media.js';

/** ST_INVCALL: what a PINPAD answers (as ERR010) to a command it does not know. */
const ST_INVCALL = 10;

/**
 * The PP_* items identification asks GIX for, by name (S220 §3.2.4). Always an explicit
 * SPE_IDLIST: §3.2.4 calls the list optional but §6.4.3 answers ST_MANDAT without it, so a PINPAD
 * that reads the spec literally refuses a bare GIX; the Scope TEF in the real trace also names
 * its items, and a parameterless GIX took about 8 s on a real PPC-930.
 */
export const IDENTIFICATION_ITEMS: readonly number[] = Object.freeze([
  PP.SERNUM,
  PP.PARTNBR,
  PP.MODEL,
  PP.MNNAME,
  PP.CAPAB,
  PP.SOVER,
  PP.SPECVER,
  PP.MANVERS,
  PP.APPVERS,
  PP.DSPTXTSZ,
  PP.MKTDESP,
  PP.MKTDESD,
  PP.DKPTTDESP,
  PP.DKPTTDESD,
  PP.TLRMEM,
  PP.COMMINFO,
  ppTableVersion(0),
]);

/** Key slots that hold a key, by kind (PP_MKTDESP/D, PP_DKPTTDESP/D: '1' = loaded). */
export interface PinpadKeySlots {
  readonly masterKeyPin?: readonly number[];
  readonly masterKeyData?: readonly number[];
  readonly dukptPin?: readonly number[];
  readonly dukptData?: readonly number[];
}

export type PinpadProtocol = 'abecs' | 'legacy';

/** What a technician and the payment engine need to know about a PINPAD. */
export interface PinpadInfo {
  readonly manufacturer: string;
  /** The model's name, e.g. "PPC-930" (PP_MODEL without its memory). */
  readonly model: string;
  /** The memory PP_MODEL gives after its ";", e.g. "192MB", where it gives one. */
  readonly memory?: string;
  readonly firmware: string;
  /** ABECS specification version, "V.VV" (e.g. "2.12"). */
  readonly specVersion: string;
  /** The serial number: the `terminal` of a pinpad transaction. */
  readonly serialNumber: string;
  /** "abecs" when the PINPAD answers the 2.x TLV commands (GIX), "legacy" when only GIN. */
  readonly protocol: PinpadProtocol;
  readonly partNumber?: string;
  readonly contactless?: boolean;
  readonly managerVersion?: string;
  readonly appVersion?: string;
  readonly display?: { readonly lines: number; readonly columns: number };
  /** EMV table versions by acquirer index (0 = global); identification reads the global one. */
  readonly tableVersions?: Readonly<Record<number, string>>;
  /** How the PINPAD says it is connected (2.20). */
  readonly link?: CommLink;
  /** Which key slots hold keys, where the PINPAD reports its key maps (GIX). */
  readonly keySlots?: PinpadKeySlots;
  /** PP_TLRMEM: bytes free for EMV table records. */
  readonly tableMemoryFree?: number;
}

export type PinpadKey = 'enter' | 'cancel' | 'clear' | 'f1' | 'f2' | 'f3' | 'f4' | 'up' | 'down';

export type CustomerDataKind = GcdMessageName;
export const CUSTOMER_DATA_KINDS = Object.keys(GCD_MESSAGES) as CustomerDataKind[];

export interface PinpadNotification {
  readonly text: string;
  readonly lines: readonly [string, string];
}

export interface PinpadEvents {
  /** An NTM message the PINPAD sent during a blocking command (show it to the operator). */
  notification: [notification: PinpadNotification];
  /** The link went away without `close()`: unplugged, powered off, connection lost. */
  disconnected: [error: Error | undefined];
}

export interface PinpadOptions {
  readonly logger?: DriverLogger;
  /** Link-layer timings; the spec's values by default. */
  readonly timings?: Partial<LinkTimings>;
}

/** Options of every command that waits for the cardholder. */
export interface WaitOptions {
  /** Abort: the command is cancelled on the PINPAD (CAN) and rejects with CANCELLED. */
  readonly signal?: AbortSignal;
  /** Overall limit in ms, enforced by the host (CAN, then TIMEOUT); the PINPAD's own limits still apply. */
  readonly timeoutMs?: number;
  /**
   * The NTM messages the PINPAD sends during this command only ("SOLICITE A SENHA"…), for a
   * caller that shows the progress of its own command; `notification` events hear every command's.
   */
  readonly onNotification?: (notification: PinpadNotification) => void;
}

/** Whether a PINPAD's DUKPT slots hold keys, by the KSN it reports for each (absent: empty slot). */
export interface DukptKsns {
  readonly pin: Readonly<Record<number, string>>;
  readonly data: Readonly<Record<number, string>>;
}

export interface CustomerDataOptions extends WaitOptions {
  /** The PINPAD's inactivity limit in seconds (0–255). */
  readonly timeoutSeconds?: number;
  readonly minDigits?: number;
  readonly maxDigits?: number;
}

const CEX_KEYS: Partial<Record<CexEvent, PinpadKey>> = {
  enter: 'enter',
  cancel: 'cancel',
  clear: 'clear',
  f1: 'f1',
  f2: 'f2',
  f3: 'f3',
  f4: 'f4',
  up: 'up',
  down: 'down',
};

export class Pinpad extends EventEmitter<PinpadEvents> {
  readonly transport: ByteTransport;
  readonly #link: HostLink;
  readonly #logger: DriverLogger;
  #cachedInfo: PinpadInfo | undefined;
  #closing = false;

  constructor(transport: ByteTransport, options: PinpadOptions = {}) {
    super();
    this.transport = transport;
    this.#logger = options.logger ?? silentLogger;
    this.#link = new HostLink(transport, {
      logger: this.#logger,
      ...(options.timings ? { timings: options.timings } : {}),
    });
    this.#link.on('notification', ({ text }) => {
      this.emit('notification', toNotification(text));
    });
    transport.on('close', ({ expected, error }) => {
      if (!expected && !this.#closing) {
        this.#logger.warn({ address: transport.address, code: errorCode(error) }, 'PINPAD link lost');
        this.emit('disconnected', error);
      }
    });
  }

  get address(): string {
    return this.transport.address;
  }

  get isOpen(): boolean {
    return this.transport.isOpen;
  }

  /** True while a command runs. */
  get busy(): boolean {
    return this.#link.busy;
  }

  /**
   * Opens the link and the PINPAD: a CAN first, to end any blocking command a previous session
   * left running (abecs.md §1.6 start-up), then OPN.
   */
  async open(): Promise<void> {
    this.#closing = false;
    if (!this.transport.isOpen) await this.transport.open();
    const reset: ResetResult = await this.#link.reset();
    this.#logger.debug({ address: this.address, eot: reset.eot }, 'PINPAD reset');
    await this.execute(opnCommand, {});
  }

  /**
   * Runs one command and returns its typed result. Pinbridge itself goes through the methods
   * below, one per thing a PINPAD is asked to do; this stays public for what they do not wrap
   * (key loading…), for a technician's tools and for specs of the wire.
   */
  async execute<Req, Res>(codec: CommandCodec<Req, Res>, request: Req, options: WaitOptions = {}): Promise<Res> {
    // Encoding validates the request: nothing is sent when it is refused.
    const packet = encodeCommandPacket(codec.encodeRequest(request));
    const { onNotification } = options;
    const started = performance.now();
    const answer = await this.#link.exchange(packet, {
      blocking: codec.blocking,
      label: codec.id,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(onNotification ? { onNotification: ({ text }) => onNotification(toNotification(text)) } : {}),
    });
    const response = decodeResponsePacket(answer);
    const ms = Math.round(performance.now() - started);
    this.#logger.debug({ command: codec.id, status: response.status, ms }, 'PINPAD command');
    if (response.id === 'ERR') throw new AbecsStatusError(codec.id, response.status);
    if (response.id !== codec.id) {
      throw new AbecsFormatError('MALFORMED_RESPONSE', `The PINPAD answered ${response.id} to ${codec.id}.`);
    }
    if (response.status !== 0 && !codec.resultStatuses?.includes(response.status)) {
      throw new AbecsStatusError(codec.id, response.status);
    }
    return codec.decodeResponse(response);
  }

  /**
   * Identification, cached until `refresh`: GIX with an explicit list of items
   * (IDENTIFICATION_ITEMS), or GIN "00" on a PINPAD that does not know GIX (ERR010 / ST_INVCALL:
   * a BibComp PINPAD). A PINPAD that refuses the list itself (ST_INVPARM, ST_MANDAT) is asked once
   * more without it, the other reading of the spec.
   */
  async info(options: { refresh?: boolean } = {}): Promise<PinpadInfo> {
    if (this.#cachedInfo && !options.refresh) return this.#cachedInfo;
    let info: PinpadInfo;
    try {
      info = fromGix(await this.execute(gixCommand, { ids: IDENTIFICATION_ITEMS }));
    } catch (error) {
      if (!(error instanceof AbecsStatusError)) throw error;
      if (error.status === ST_INVCALL) {
        info = fromGin(await this.#generalInfo());
      } else {
        this.#logger.info(
          { address: this.address, code: error.code },
          'GIX with an item list refused; asking without one',
        );
        info = fromGix(await this.execute(gixCommand, {}));
      }
    }
    this.#cachedInfo = info;
    return info;
  }

  /**
   * The EMV table versions stored for `acquirers` (0 = the global, "unified" version): GIX
   * PP_TABVERnn on Abecs PINPADs, GTS on legacy ones. An acquirer with nothing loaded is absent
   * (GIX returns only loaded versions) or, from GTS, all zeros.
   */
  async tableVersions(acquirers: readonly number[]): Promise<Record<number, string>> {
    for (const acquirer of acquirers) {
      if (!Number.isInteger(acquirer) || acquirer < 0 || acquirer > 99) {
        throw new InvalidArgumentError(`An acquirer index is an integer from 0 to 99, got ${acquirer}.`);
      }
    }
    const { protocol } = await this.info();
    const versions: Record<number, string> = {};
    if (protocol === 'legacy') {
      for (const acquirer of acquirers)
        versions[acquirer] = (await this.execute(gtsCommand, { acquirer })).tableVersion;
      return versions;
    }
    for (let at = 0; at < acquirers.length; at += GIX_MAX_IDS) {
      const ids = acquirers.slice(at, at + GIX_MAX_IDS).map((acquirer) => ppTableVersion(acquirer));
      Object.assign(versions, (await this.execute(gixCommand, { ids })).tableVersions ?? {});
    }
    return versions;
  }

  async #generalInfo(): Promise<GinGeneralInfo> {
    const general = await this.execute(ginCommand, { acquirer: 0 });
    if (general.kind !== 'general') {
      throw new AbecsFormatError('MALFORMED_RESPONSE', 'The PINPAD answered GIN 00 without its general information.');
    }
    return general;
  }

  /**
   * Shows up to 32 characters: two lines of 16, "\n" splits them (DSP). `stripAccents` is for
   * PINPADs that cannot show ISO-8859-1 accents.
   */
  async display(text: string, options: { stripAccents?: boolean } = {}): Promise<void> {
    await this.execute(dspCommand, { message: text, ...(options.stripAccents ? { stripAccents: true } : {}) });
  }

  /**
   * Shows free text laid out by the PINPAD (DEX, 2.x): up to 160 characters, "\n" between lines,
   * on as many lines as its display has (PP_DSPTXTSZ), where DSP has only 2 × 16.
   */
  async displayExtended(message: string, options?: DexOptions): Promise<void> {
    await this.execute(dexCommand, { message, ...(options ? { options } : {}) });
  }

  /**
   * Waits for whichever of the events `request` asks for comes first (CEX, 2.x): a key, a swipe
   * (its truncated tracks), a chip card inserted or removed, a contactless card near the antenna.
   */
  async waitForEvent(request: CexRequest, options: WaitOptions = {}): Promise<CexResult> {
    return this.execute(cexCommand, request, options);
  }

  /** Waits for a key (CEX on Abecs PINPADs, GKY on older ones). */
  async readKey(options: WaitOptions & { timeoutSeconds?: number } = {}): Promise<PinpadKey> {
    const { protocol } = await this.info();
    if (protocol === 'legacy') {
      const { key } = await this.execute(gkyCommand, {}, options);
      return key;
    }
    const result = await this.execute(
      cexCommand,
      {
        key: true,
        magstripe: false,
        icc: 'ignore',
        contactless: false,
        ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
      },
      options,
    );
    const key = CEX_KEYS[result.event];
    if (!key) {
      throw new AbecsFormatError(
        'MALFORMED_RESPONSE',
        `The PINPAD answered a key request with the event ${result.event}.`,
      );
    }
    return key;
  }

  /**
   * Asks the customer to type data on the keypad under one of the spec's fixed prompts (GCD):
   * CPF, CNPJ, phone… Returns what was typed: digits, the keypad has no letters (so a CNPJ read
   * here is always a numeric one, never the alphanumeric CNPJ).
   */
  async readCustomerData(kind: CustomerDataKind, options: CustomerDataOptions = {}): Promise<string> {
    const request = {
      ...gcdRequestFor(kind, options.timeoutSeconds),
      ...(options.minDigits !== undefined ? { minDigits: options.minDigits } : {}),
      ...(options.maxDigits !== undefined ? { maxDigits: options.maxDigits } : {}),
    };
    const { value } = await this.execute(gcdCommand, request, options);
    return value;
  }

  /** Offers 1–20 options on the PINPAD; returns the chosen one's index (0-based). */
  async menu(
    title: string | undefined,
    choices: readonly string[],
    options: WaitOptions & { timeoutSeconds?: number } = {},
  ): Promise<number> {
    const { index } = await this.execute(
      mnuCommand,
      {
        options: choices,
        ...(title !== undefined ? { title } : {}),
        ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
      },
      options,
    );
    return index - 1;
  }

  /** Card step 1: waits for a card (chip, contactless or stripe) and reads it (GCX). */
  async readCard(
    request: Omit<GcxRequest, 'date' | 'time'> & { readonly date?: string; readonly time?: string },
    options: WaitOptions = {},
  ): Promise<GcxResult> {
    const now = localDateTime(new Date());
    return this.execute(gcxCommand, { date: now.date, time: now.time, ...request }, options);
  }

  /** Card step 2: chip risk management, PIN entry and the card's decision (GOX). */
  async goOnChip(request: GoxRequest, options: WaitOptions = {}): Promise<GoxResult> {
    return this.execute(goxCommand, request, options);
  }

  /** Card step 3: gives the card the host's answer; the card may still refuse (FCX). */
  async finishChip(request: FcxRequest, options: WaitOptions = {}): Promise<FcxResult> {
    return this.execute(fcxCommand, request, options);
  }

  /** Card step 4: asks for the card to be removed and waits until it is (RMC). */
  async removeCard(message: string, options: WaitOptions = {}): Promise<void> {
    await this.execute(rmcCommand, { message }, options);
  }

  /** The PIN of a card that has no chip to check it (a swiped card): encrypted PIN block and KSN (GPN). */
  async readPin(request: GpnRequest, options: WaitOptions = {}): Promise<GpnResult> {
    return this.execute(gpnCommand, request, options);
  }

  /**
   * The PAN and tracks of the card just read, encrypted by the PINPAD under one of its keys
   * (GTK, 2.x): what an authorizer receives instead of the clear card data.
   */
  async readEncryptedTracks(request: GtkRequest): Promise<GtkResult> {
    return this.execute(gtkCommand, request);
  }

  /**
   * The KSNs of the DUKPT TDES slots `pin` and `data` (GIX PP_KSNTDESPnn / PP_KSNTDESDnn, 2.x):
   * a PINPAD reports a KSN only for a slot that holds a key.
   */
  async dukptKsns(slots: { readonly pin: number; readonly data: number }): Promise<DukptKsns> {
    const { dukptKsns } = await this.execute(gixCommand, { ids: [ppKsnTdesPin(slots.pin), ppKsnTdesData(slots.data)] });
    return dukptKsns ?? { pin: {}, data: {} };
  }

  /**
   * Loads one acquirer's EMV tables (abecs.md §3.13): TLI with the new version, TLR with the
   * records (as many per command as one block holds), TLE to commit. Nothing changes on the
   * PINPAD until TLE, so a load cut short leaves the old tables.
   */
  async loadTables(acquirer: number, tableVersion: string, records: readonly TableRecord[]): Promise<void> {
    await this.execute(tliCommand, { acquirer, tableVersion });
    for (const batch of tlrBatches(records)) await this.execute(tlrCommand, { records: batch });
    await this.execute(tleCommand, {});
  }

  /**
   * What the PINPAD's graphic display can show (GIX PP_CAPAB, PP_DSPGRSZ, PP_MFSUP; media.ts):
   * its size in pixels, colour, the image formats. Null for a text-only PINPAD, one that reports
   * no format, and a BibComp PINPAD (no GIX, no multimedia).
   */
  async mediaSupport(): Promise<MediaSupport | null> {
    if ((await this.info()).protocol === 'legacy') return null;
    try {
      return mediaSupportOf(await this.execute(gixCommand, { ids: [PP.CAPAB, PP.DSPGRSZ, PP.MFSUP] }));
    } catch (error) {
      if (error instanceof AbecsStatusError && error.status === ST_INVCALL) return null;
      throw error;
    }
  }

  /**
   * Loads an image under `name` (1–8 letters or digits, upper-cased; it replaces a file of that
   * name): MLI with its size, CRC-16 and type, the bytes in MLR packets of 2 × 995, MLE. Name,
   * type and bytes are checked before anything is sent. `signal` stops it between packets; a load
   * that stops short or fails leaves no file of that name (media.ts). A PINPAD without room
   * answers ST_INTERR; one without multimedia ERR010 (ST_INVCALL).
   */
  async loadMedia(name: string, type: MediaType, bytes: Uint8Array, options: MediaLoadOptions = {}): Promise<void> {
    await loadMediaFile((codec, request) => this.execute(codec, request), name, type, bytes, options);
  }

  /** The names of the media files the PINPAD holds (LMF), upper case, in the PINPAD's order. */
  async listMedia(): Promise<string[]> {
    return [...(await this.execute(lmfCommand, {})).names];
  }

  /** Deletes media files (DMF); a name the PINPAD does not hold is no error. */
  async deleteMedia(names: string | readonly string[]): Promise<void> {
    await this.execute(dmfCommand, { names: typeof names === 'string' ? [names] : names });
  }

  /**
   * Shows a loaded image in place of whatever the display held (DSI); it stays until the next
   * command that writes the display. ST_MFNFOUND: no such file; ST_MFERRFMT: a format the PINPAD
   * does not show, or larger than its display.
   */
  async displayImage(name: string): Promise<void> {
    await this.execute(dsiCommand, { name });
  }

  /** Card step 1 on a legacy (BibComp 1.08) PINPAD, which has no GCX (GCR). */
  async readCardLegacy(request: GcrRequest, options: WaitOptions = {}): Promise<GcrResult> {
    return this.execute(gcrCommand, request, options);
  }

  /** Card step 2 on a legacy (BibComp 1.08) PINPAD, which has no GOX (GOC). */
  async goOnChipLegacy(request: GocRequest, options: WaitOptions = {}): Promise<GocResult> {
    return this.execute(gocCommand, request, options);
  }

  /** Card step 3 on a legacy (BibComp 1.08) PINPAD, which has no FCX (FNC). */
  async finishChipLegacy(request: FncRequest, options: WaitOptions = {}): Promise<FncResult> {
    return this.execute(fncCommand, request, options);
  }

  /** Aborts the blocking command in flight (CAN → EOT). */
  async cancel(): Promise<void> {
    await this.#link.cancel();
  }

  /**
   * Leaves `message` on the idle display (CLO) and closes the link; `null` closes the link
   * without CLO, leaving the display as it is. A PINPAD that is already gone is closed quietly.
   */
  async close(message?: string | null): Promise<void> {
    this.#closing = true;
    try {
      if (message !== null && this.transport.isOpen && !this.#link.busy) {
        await this.execute(cloCommand, message === undefined ? {} : { message });
      }
    } finally {
      this.#link.dispose();
      await this.transport.close();
    }
  }
}

/** An NTM text (up to 32 characters, 2 × 16 with no separator) with its two lines. */
function toNotification(text: string): PinpadNotification {
  return { text, lines: parseDisplay2x16(text.padEnd(32, ' ')) };
}

function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String(error.code) : undefined;
}

/**
 * PP_MODEL is "name;memory" (abecs.md §2.5, e.g. "PPC-930;192MB"): the cashier and the POS are
 * shown the name; the memory is kept apart for a technician.
 */
function splitModel(text: string): { model: string; memory?: string } {
  const at = text.indexOf(';');
  if (at < 0) return { model: text.trim() };
  const memory = text.slice(at + 1).trim();
  return { model: text.slice(0, at).trim(), ...(memory === '' ? {} : { memory }) };
}

function fromGix(gix: GixResult): PinpadInfo {
  return {
    manufacturer: gix.manufacturer ?? '',
    ...splitModel(gix.model ?? ''),
    firmware: gix.osVersion ?? '',
    specVersion: gix.specVersion ?? '',
    serialNumber: gix.serialNumber ?? '',
    protocol: 'abecs',
    ...(gix.partNumber ? { partNumber: gix.partNumber } : {}),
    ...(gix.capabilities ? { contactless: gix.capabilities.contactless } : {}),
    ...(gix.managerVersion ? { managerVersion: gix.managerVersion } : {}),
    ...(gix.appVersion ? { appVersion: gix.appVersion } : {}),
    ...(gix.displayText ? { display: gix.displayText } : {}),
    ...(gix.tableVersions ? { tableVersions: gix.tableVersions } : {}),
    ...(gix.commInfo ? { link: gix.commInfo.link } : {}),
    ...(gix.keyMaps ? { keySlots: keySlotsOf(gix) } : {}),
    ...(gix.tableMemoryFree !== undefined ? { tableMemoryFree: gix.tableMemoryFree } : {}),
  };
}

function keySlotsOf(gix: GixResult): PinpadKeySlots {
  const maps = gix.keyMaps ?? {};
  return {
    ...(maps.masterKeyPin ? { masterKeyPin: maps.masterKeyPin.loaded } : {}),
    ...(maps.masterKeyData ? { masterKeyData: maps.masterKeyData.loaded } : {}),
    ...(maps.dukptPin ? { dukptPin: maps.dukptPin.loaded } : {}),
    ...(maps.dukptData ? { dukptData: maps.dukptData.loaded } : {}),
  };
}

function fromGin(gin: GinGeneralInfo): PinpadInfo {
  return {
    manufacturer: gin.manufacturer,
    ...splitModel(gin.model),
    firmware: gin.firmware,
    specVersion: gin.specVersion,
    serialNumber: gin.serialNumber,
    protocol: 'legacy',
    contactless: gin.contactless,
    managerVersion: gin.managerVersion,
  };
}

/** "YYMMDD" / "HHMMSS" in the machine's local time, as the PINPAD expects. */
export function localDateTime(at: Date): { date: string; time: string } {
  const two = (n: number): string => String(n).padStart(2, '0');
  return {
    date: `${two(at.getFullYear() % 100)}${two(at.getMonth() + 1)}${two(at.getDate())}`,
    time: `${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`,
  };
}
