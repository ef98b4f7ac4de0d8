/**
 * The PINPADs the agent knows: attached to the payment engine under their serial numbers, with
 * what a POS or a technician asks about them (model, where it is connected, connected or not,
 * busy with which payment), and the operations a POS may run on an idle PINPAD outside a
 * payment — a message, a key, a CPF typed by the customer. Those hold the PINPAD through the
 * engine (`withTerminal`), so they and payments never interleave: either gets BUSY.
 *
 * The one owner of what is known of each PINPAD. Everything else asks it or follows its events:
 * - attach/detach go through here; which PINPADs are attached (can sell: "connected") is the
 *   engine's set of terminals, read from it, never copied; so are whether one is busy, and with
 *   which payment, and the rule picking a PINPAD left unnamed (core/terminals.ts);
 * - the link to the PINPAD the agent keeps at its address (`link`: connecting, not found…) is
 *   written by the agent's keeper and read by the POS API, the window and the doctor.
 *
 * A PINPAD that goes away stays listed as disconnected, so the POS sees "unplugged" rather than
 * "unknown"; it comes back under the same serial when it is reopened.
 */
import { EventEmitter } from 'node:events';
import type { CustomerDataKind, Pinpad, PinpadKey } from '../../drivers/abecs/pinpad.js';
import type { PaymentEngine, TerminalState } from '../core/engine.js';
import { DriverError } from '../../drivers/errors.js';
import { EngineError } from '../core/errors.js';
import { onlyTerminal } from '../core/terminals.js';
import { attachPinpad, type AttachOptions } from './attach.js';
import { PinpadLink } from './link-status.js';
import type { TablesStatus } from './sale-session.js';

export interface PinpadEntry {
  readonly serialNumber: string;
  readonly manufacturer: string;
  readonly model: string;
  readonly firmware: string;
  /** Where it is connected: a serial port, tcp://…, ble:…, sim. */
  readonly address: string;
  readonly connected: boolean;
  readonly busy: boolean;
  /** The reference of the payment it runs. */
  readonly paymentReference: string | null;
  /** Its EMV tables (a load in progress, the version held, why they fail); null: the agent manages none. */
  readonly tables: TablesStatus | null;
}

export interface PinpadRegistryEvents {
  connected: [entry: PinpadEntry];
  disconnected: [entry: PinpadEntry];
  /** Became busy or free. */
  busy: [entry: PinpadEntry];
  /** Its EMV tables started loading, were loaded, or failed. */
  tables: [entry: PinpadEntry];
}

interface Known {
  info: { manufacturer: string; model: string; firmware: string };
  address: string;
  /** The driver it was last opened with; used only while the engine has it attached. */
  pinpad: Pinpad;
  /**
   * Being attached (its EMV tables loading before the engine has it): shown connected meanwhile,
   * as it is — opened and answering. Once attached, "connected" is the engine's to say.
   */
  attaching: boolean;
  tables: TablesStatus | null;
}

/** How long a customer has to answer a prompt when the POS does not say. */
export const DEFAULT_PROMPT_SECONDS = 60;

/** How long the PINPAD shows why a typed value was refused before asking again. */
export const RETYPE_PAUSE_MS = 2_000;

/** Waits `ms`; an abort meanwhile rejects as a cancelled PINPAD command would (CANCELLED). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  const cancelled = (): DriverError => new DriverError('CANCELLED', 'The customer prompt was cancelled.');
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(cancelled());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PinpadRegistryOptions {
  /** Where the agent keeps its PINPAD (the `--port` syntax): the address `link` reports. */
  readonly address?: string;
}

export class PinpadRegistry extends EventEmitter<PinpadRegistryEvents> {
  /**
   * The link to the PINPAD at `address`: its state while there is none (not found, unreachable…),
   * set by whoever keeps it connected (the agent's PinpadKeeper). Without an address nothing
   * keeps one (a one-off CLI sale, a spec): it stays "connecting" to "" and nobody reads it.
   */
  readonly link: PinpadLink;
  readonly #engine: PaymentEngine;
  readonly #known = new Map<string, Known>();

  constructor(engine: PaymentEngine, options: PinpadRegistryOptions = {}) {
    super();
    this.#engine = engine;
    this.link = new PinpadLink(options.address ?? '');
    engine.on('terminal', (state) => {
      const entry = this.#entry(state.serial, state);
      if (entry) this.emit('busy', entry);
    });
  }

  /** Attaches an opened PINPAD to the engine; returns its entry (connected). */
  async attach(pinpad: Pinpad, address: string, options: AttachOptions = {}): Promise<PinpadEntry> {
    const info = await pinpad.info();
    // Known before the engine has it, so a table load at attach shows in the window.
    const previous = this.#known.get(info.serialNumber);
    this.#known.set(info.serialNumber, {
      info: { manufacturer: info.manufacturer, model: info.model, firmware: info.firmware },
      address,
      pinpad,
      attaching: true,
      tables: previous?.tables ?? null,
    });
    const serial = await attachPinpad(this.#engine, pinpad, {
      ...options,
      onTablesStatus: (attached, status) => {
        options.onTablesStatus?.(attached, status);
        const current = this.#known.get(attached);
        if (current === undefined) return;
        current.tables = status;
        this.emit('tables', this.#entry(attached)!);
      },
    }).catch((error: unknown) => {
      if (previous === undefined) this.#known.delete(info.serialNumber);
      else this.#known.set(info.serialNumber, previous);
      throw error;
    });
    const attached = this.#known.get(serial);
    if (attached !== undefined) attached.attaching = false;
    const entry = this.#entry(serial)!;
    this.emit('connected', entry);
    return entry;
  }

  /** The PINPAD went away: it leaves the engine (a payment on it is aborted) and shows as disconnected. */
  detach(serial: string): void {
    const known = this.#known.get(serial);
    const wasConnected = this.#connected(serial);
    this.#engine.detachTerminal(serial);
    if (known === undefined || !wasConnected) return;
    known.attaching = false;
    this.emit('disconnected', this.#entry(serial)!);
  }

  list(): PinpadEntry[] {
    return [...this.#known.keys()].map((serial) => this.#entry(serial)!);
  }

  /** One PINPAD; without a serial, the only one there is (PINPAD_REQUIRED when several). */
  get(serial: string | undefined): PinpadEntry {
    if (serial !== undefined) {
      const entry = this.#entry(serial);
      if (entry === undefined) throw new EngineError('PINPAD_NOT_FOUND', `No PINPAD with serial ${serial} is known`);
      return entry;
    }
    // The engine's rule, over the connected ones; with none, over all known, so that a lone
    // unplugged PINPAD answers "unplugged" rather than "unknown".
    const known = [...this.#known.keys()];
    const connected = known.filter((serial) => this.#connected(serial));
    return this.#entry(onlyTerminal(connected.length > 0 ? connected : known, 'connected'))!;
  }

  /** Shows up to 32 characters ("\n" splits the two lines) on an idle PINPAD. */
  display(serial: string | undefined, text: string): Promise<void> {
    // One display command: a sale that starts meanwhile waits for it (brief) instead of BUSY.
    return this.#operate(serial, (pinpad) => pinpad.display(text), undefined, { brief: true });
  }

  /**
   * Optionally shows a prompt, then waits for a function key. `signal`: the caller's own way to
   * stop the wait (the POS that asked went away), beside `abort`.
   */
  readKey(
    serial: string | undefined,
    options: { prompt?: string; timeoutSeconds?: number; signal?: AbortSignal } = {},
  ): Promise<PinpadKey> {
    return this.#operate(
      serial,
      async (pinpad, signal) => {
        if (options.prompt !== undefined) await pinpad.display(options.prompt);
        return pinpad.readKey({ signal, timeoutSeconds: options.timeoutSeconds ?? DEFAULT_PROMPT_SECONDS });
      },
      options.signal,
    );
  }

  /**
   * The customer types a CPF, CNPJ, phone… under the PINPAD's own prompt (`signal` as for readKey);
   * `minDigits`/`maxDigits` narrow the prompt's own limits (a 4–8 digit supervisor PIN).
   */
  readCustomerData(
    serial: string | undefined,
    kind: CustomerDataKind,
    options: { timeoutSeconds?: number; signal?: AbortSignal; minDigits?: number; maxDigits?: number } = {},
  ): Promise<string> {
    const { minDigits, maxDigits } = options;
    return this.#operate(
      serial,
      (pinpad, signal) =>
        pinpad.readCustomerData(kind, {
          signal,
          timeoutSeconds: options.timeoutSeconds ?? DEFAULT_PROMPT_SECONDS,
          ...(minDigits === undefined ? {} : { minDigits }),
          ...(maxDigits === undefined ? {} : { maxDigits }),
        }),
      options.signal,
    );
  }

  /**
   * Like readCustomerData, asking again while `check` refuses what was typed (a CPF whose check
   * digits are wrong: a typo), at most `attempts` times in all, holding the PINPAD throughout so
   * no payment slips in between. Before each new try the PINPAD shows `check`'s message (two
   * lines of ≤ 16, "\n" between) for `pauseMs`, then asks under `againKind`'s prompt. Returns the
   * last value typed and whether it was accepted; a CANCEL or a timeout rejects as for
   * readCustomerData.
   */
  readCustomerDataChecked(
    serial: string | undefined,
    kind: CustomerDataKind,
    check: (value: string) => string | undefined,
    options: {
      attempts: number;
      againKind?: CustomerDataKind;
      pauseMs?: number;
      timeoutSeconds?: number;
      signal?: AbortSignal;
    },
  ): Promise<{ value: string; accepted: boolean; attempts: number }> {
    return this.#operate(
      serial,
      async (pinpad, signal) => {
        const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_PROMPT_SECONDS;
        let value = await pinpad.readCustomerData(kind, { signal, timeoutSeconds });
        let attempts = 1;
        for (let refusal = check(value); refusal !== undefined; refusal = check(value)) {
          if (attempts >= options.attempts) return { value, accepted: false, attempts };
          await pinpad.display(refusal);
          await pause(options.pauseMs ?? RETYPE_PAUSE_MS, signal);
          value = await pinpad.readCustomerData(options.againKind ?? kind, { signal, timeoutSeconds });
          attempts++;
        }
        return { value, accepted: true, attempts };
      },
      options.signal,
    );
  }

  /**
   * Runs a few multimedia commands (a Pix QR's files: list, delete, load, show; pix-display.ts) on
   * an idle PINPAD as a brief operation that yields to a payment: a sale starting meanwhile aborts
   * it (`signal`, which a load in flight obeys: the partial file is discarded) and waits for it
   * to end, so a sale never gets BUSY because of a QR.
   */
  withMedia<T>(serial: string | undefined, operation: (pinpad: Pinpad, signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.#operate(serial, operation, undefined, { brief: true, yieldsToPayment: true });
  }

  /** Stops a key or data request in progress; false when none runs. */
  abort(serial: string | undefined): boolean {
    return this.#engine.abortOperation(this.get(serial).serialNumber);
  }

  #operate<T>(
    serial: string | undefined,
    operation: (pinpad: Pinpad, signal: AbortSignal) => Promise<T>,
    callerSignal?: AbortSignal,
    options: { readonly brief?: boolean; readonly yieldsToPayment?: boolean } = {},
  ): Promise<T> {
    const entry = this.get(serial);
    // The engine refuses a PINPAD it does not have attached (PINPAD_NOT_FOUND): an unplugged one.
    return this.#engine.withTerminal(
      entry.serialNumber,
      (attached, signal) => {
        const known = this.#known.get(attached);
        // Only a PINPAD attached to the engine behind the registry's back (a spec's rig).
        if (known === undefined) throw new EngineError('PINPAD_NOT_FOUND', `PINPAD ${attached} is not known`);
        return operation(known.pinpad, callerSignal === undefined ? signal : AbortSignal.any([signal, callerSignal]));
      },
      options,
    );
  }

  /** Opened and answering: being attached, or attached to the engine. */
  #connected(serial: string): boolean {
    return this.#known.get(serial)?.attaching === true || this.#engine.terminal(serial) !== undefined;
  }

  #entry(serial: string, state?: TerminalState): PinpadEntry | undefined {
    const known = this.#known.get(serial);
    if (known === undefined) return undefined;
    const terminal = state ?? this.#engine.terminal(serial);
    return {
      serialNumber: serial,
      ...known.info,
      address: known.address,
      connected: known.attaching || terminal !== undefined,
      busy: terminal?.busy ?? false,
      paymentReference: terminal?.payment?.referenceId ?? null,
      tables: known.tables,
    };
  }
}
