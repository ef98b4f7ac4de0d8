/**
 * The attached PINPADs: the one record of which PINPADs are connected and can sell, each with the
 * run holding it. The PinpadRegistry describes them (model, address, tables) and reads
 * "connected" from here rather than keeping its own set. The set lives in the engine, not behind
 * a port the registry implements, because the engine must act at the moment one comes or goes (a
 * poll timer, aborting the run on it), the registry is built on the engine (it holds PINPADs
 * through `withTerminal`), and the engine's specs, the bench and the crash agent attach with no
 * registry at all.
 */
import { EngineError } from '../errors.js';
import type { SaleDevice } from '../ports.js';
import { RunStopped } from '../sale-problems.js';
import type { ScheduledTimer } from '../scheduler.js';
import { onlyTerminal } from '../terminals.js';
import { busyError, newRun, type Run } from './run.js';
import type { TerminalState } from './types.js';

export interface Terminal {
  readonly serial: string;
  readonly device: SaleDevice;
  busy: Run | undefined;
  /** The next poll for pending transactions, when polling is on. */
  poll: ScheduledTimer | undefined;
  /** The last poll failed (logged once, not at every tick). */
  pollFailing: boolean;
}

export class AttachedTerminals {
  readonly #terminals = new Map<string, Terminal>();
  /** Told when an attached PINPAD becomes busy or free. */
  readonly #changed: (state: TerminalState) => void;

  constructor(changed: (state: TerminalState) => void) {
    this.#changed = changed;
  }

  /** Makes a PINPAD available under its serial number (a new one replaces a free one). */
  attach(serial: string, device: SaleDevice): Terminal {
    const existing = this.#terminals.get(serial);
    if (existing?.busy)
      throw new EngineError('BUSY', `PINPAD ${serial} is running a payment; it cannot be replaced now`);
    existing?.poll?.cancel();
    const terminal: Terminal = { serial, device, busy: undefined, poll: undefined, pollFailing: false };
    this.#terminals.set(serial, terminal);
    return terminal;
  }

  /** Stops its poll and the run on it (PINPAD_DISCONNECTED: a pulled cable is not a cancel). */
  detach(serial: string): void {
    const terminal = this.#terminals.get(serial);
    terminal?.poll?.cancel();
    terminal?.busy?.abort.abort(new RunStopped('PINPAD_DISCONNECTED', 'PINPAD detached'));
    this.#terminals.delete(serial);
  }

  get(serial: string): Terminal | undefined {
    return this.#terminals.get(serial);
  }

  /** Whether `terminal` is still the one attached under its serial (not detached or replaced). */
  isAttached(terminal: Terminal): boolean {
    return this.#terminals.get(terminal.serial) === terminal;
  }

  all(): Terminal[] {
    return [...this.#terminals.values()];
  }

  states(): TerminalState[] {
    return this.all().map(stateOf);
  }

  state(serial: string): TerminalState | undefined {
    const terminal = this.#terminals.get(serial);
    return terminal && stateOf(terminal);
  }

  /** The PINPAD named, or the only one attached when none is (terminals.ts). */
  pick(serial: string | undefined): Terminal {
    if (serial === undefined) return this.#terminals.get(onlyTerminal([...this.#terminals.keys()], 'attached'))!;
    const terminal = this.#terminals.get(serial);
    if (!terminal) throw new EngineError('PINPAD_NOT_FOUND', `No PINPAD with serial ${serial} is attached`);
    return terminal;
  }

  setBusy(terminal: Terminal, run: Run | undefined): void {
    terminal.busy = run;
    if (this.isAttached(terminal)) this.#changed(stateOf(terminal));
  }

  /**
   * Runs an operation that is not a payment on a PINPAD, holding it as a payment would: another
   * operation meanwhile gets BUSY, and so does a payment — unless the operation is `brief` (a
   * message on the display, one command), which a payment's start waits out (start.ts).
   */
  async hold<T>(
    serial: string | undefined,
    operation: (serial: string, signal: AbortSignal) => Promise<T>,
    options: { readonly brief?: boolean; readonly yieldsToPayment?: boolean } = {},
  ): Promise<T> {
    const terminal = this.pick(serial);
    if (terminal.busy) throw busyError(terminal.serial, terminal.busy);
    const reservation = newRun(terminal.serial, false);
    let settle = (): void => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    if (options.brief === true)
      reservation.brief = { settled, ...(options.yieldsToPayment === true ? { yieldsToPayment: true } : {}) };
    this.setBusy(terminal, reservation);
    try {
      return await operation(terminal.serial, reservation.signal);
    } finally {
      if (terminal.busy === reservation) this.setBusy(terminal, undefined);
      settle();
    }
  }

  /** Aborts the operation `hold` runs on a PINPAD; never a payment (that is `cancel`). */
  abortOperation(serial: string | undefined): boolean {
    const terminal = this.pick(serial);
    const run = terminal.busy;
    // A payment (journaled, or only reserved by its start) is cancel's, not this.
    if (run === undefined || run.paymentId !== '' || run.referenceId !== '') return false;
    run.abort.abort(new Error('aborted by the POS'));
    return true;
  }
}

function stateOf(terminal: Terminal): TerminalState {
  const run = terminal.busy;
  return {
    serial: terminal.serial,
    busy: run !== undefined,
    payment: run !== undefined && run.paymentId !== '' ? { id: run.paymentId, referenceId: run.referenceId } : null,
  };
}
