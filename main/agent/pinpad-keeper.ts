/**
 * Keeps one PINPAD connected while the agent runs: opens it, shows the idle text, hands it over
 * (`connected`), and when it goes away (unplugged, switched off) says so (`lost`) and tries again
 * until it answers. When the agent stops, the PINPAD is left showing that Pinbridge is off.
 *
 * Quiet while it waits (issue 19): the attempts back off exponentially (1 s doubling to 60 s), and
 * a PINPAD that is not there is logged once when that starts and once when it is back, not at every
 * attempt (LoggedCondition). `retryNow()` — the hot-plug watcher saw the PINPAD's port appear —
 * cuts the wait short, so a replugged PINPAD is back within a second whatever the backoff reached.
 * Its state (`status`) is what the ready line and the window say when there is no PINPAD. The
 * keeper holds no copy of it: it writes it into the link it is given — the PINPAD registry's
 * (`PinpadRegistry.link`), which the POS API and the window follow — and reads it back from there.
 */
import type { PinpadInfo } from '../../drivers/abecs/pinpad.js';
import type { DukptCounterStore } from '../../drivers/simulator/index.js';
import { backoffDelay } from '../../lib/backoff.js';
import { messageOf } from '../../lib/errors.js';
import { LoggedCondition, type Logger } from '../log.js';
import { failureState, PinpadLink, type PinpadLinkState, type PinpadLinkStatus } from '../pinpad/link-status.js';
import { connectPinpad, type PinpadConnection } from '../pinpad/connection.js';
import { TRAINING_SUPERVISOR_PIN } from './supervisor-pin.js';
import { tracePinpadOf, type TraceFolder, type TraceSession } from '../support/trace-folder.js';

const CLOSED_TEXT = 'PINBRIDGE\nDESLIGADO';
// The idle texts are the PINPAD adapter's (the POS server's Pix shows return to them too).
import { DISK_FULL_IDLE_TEXT, idleText } from '../pinpad/display-text.js';
export { DISK_FULL_IDLE_TEXT, idleText };

/** The first wait after a failure; each further failure doubles it, up to RECONNECT_MAX_DELAY_MS. */
export const RECONNECT_INITIAL_DELAY_MS = 1_000;
export const RECONNECT_MAX_DELAY_MS = 60_000;

/**
 * The simulated customer of training mode: a Visa card shortly after each prompt, the debit one
 * for a debit sale. When asked for a CPF or CNPJ it types a valid one — those of the
 * sandbox's example buyers Maria Aparecida Souza and Padaria Pão Dourado (main/sandbox/seed-records.ts),
 * so buyer.search with from_pinpad finds someone; without them it would type 1s, which no check
 * digit accepts. Asked for a supervisor's PIN it types training's own (1234).
 */
export const TRAINING_CUSTOMER = {
  delayMs: 1_500,
  card: 'visaCredit',
  matchApplication: true,
  cpf: '52998224725',
  cnpj: '45339827000162',
  // Under IDENTIFICACAO, where a void asks for the supervisor's PIN: the training PIN, which
  // training mode takes (supervisor-pin.ts), so the supervisor's step can be practised too.
  identification: TRAINING_SUPERVISOR_PIN,
} as const;

export interface PinpadHooks {
  /** The PINPAD answered: put it to work (attach it to the engine). */
  readonly connected: (connection: PinpadConnection) => Promise<void>;
  /** The PINPAD went away (or the agent is stopping). */
  readonly lost: (info: PinpadInfo) => void;
  /** Once, the first time the PINPAD is ready. */
  readonly ready: (info: PinpadInfo) => void;
  /**
   * The link's state (or its failure's code) changed, after the link holds it (its `change` event
   * came first); not called for a repeat of the same failure.
   */
  readonly status?: (status: PinpadLinkStatus) => void;
}

export interface KeeperOptions {
  /** The first wait after a failure (default 1 s); each further one doubles it. */
  readonly reconnectDelayMs?: number;
  /** The longest wait between attempts (default 60 s). */
  readonly maxReconnectDelayMs?: number;
  /** Opens the PINPAD (default connectPinpad; tests count attempts). */
  readonly connect?: typeof connectPinpad;
  readonly now?: () => number;
  /**
   * Where the link's state is kept: the PINPAD registry's link, in the agent. Default: a link of
   * the keeper's own, for a keeper run on its own.
   */
  readonly link?: PinpadLink;
  /** Where the simulated PINPAD (address `sim`) keeps its DUKPT counters across restarts. */
  readonly simulatorCounters?: DukptCounterStore;
  /**
   * How long the simulated PINPAD's customer takes at each prompt (default TRAINING_CUSTOMER's
   * 1.5 s, a pace a cashier in training can follow): a demo or a test that runs many sales asks
   * for less.
   */
  readonly simulatedCustomerDelayMs?: number;
  /** What it shows once opened (default idleText(training)): the agent's, which knows the disk. */
  readonly idleText?: () => string;
  /** Where each connection's ABECS exchanges are recorded, masked (the agent's ~/.pinbridge/traces/); none: not recorded. */
  readonly traces?: TraceFolder;
}

interface Attempt {
  readonly connection: PinpadConnection;
  readonly info: PinpadInfo;
  readonly lost: Promise<void>;
  readonly trace: TraceSession | undefined;
}

/** Resolves when `signal` aborts; `off` removes the listener once something else won the race. */
function whenAborted(signal: AbortSignal): { readonly promise: Promise<void>; off(): void } {
  let listener: (() => void) | undefined;
  const promise = new Promise<void>((resolve) => {
    // Already stopped while the PINPAD was opening: a listener added now would never fire.
    if (signal.aborted) return resolve();
    listener = () => resolve();
    signal.addEventListener('abort', listener, { once: true });
  });
  return { promise, off: () => listener && signal.removeEventListener('abort', listener) };
}

export class PinpadKeeper {
  readonly address: string;
  readonly #logger: Logger;
  readonly #hooks: PinpadHooks;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #connect: typeof connectPinpad;
  readonly #simulatorCounters: DukptCounterStore | undefined;
  readonly #simulatedCustomer: Omit<typeof TRAINING_CUSTOMER, 'delayMs'> & { readonly delayMs: number };
  readonly #idleText: () => string;
  readonly #traces: TraceFolder | undefined;
  readonly #now: () => number;
  readonly #unavailable: LoggedCondition;
  readonly #link: PinpadLink;
  /** Ends the current wait early (retryNow); set only while waiting. */
  #wakeUp: (() => void) | undefined;
  /** retryNow() came during an attempt: the wait after it is skipped. */
  #wokenDuringAttempt = false;

  constructor(address: string, training: boolean, logger: Logger, hooks: PinpadHooks, options: KeeperOptions = {}) {
    this.address = address;
    this.#logger = logger;
    this.#hooks = hooks;
    this.#initialDelayMs = options.reconnectDelayMs ?? RECONNECT_INITIAL_DELAY_MS;
    this.#maxDelayMs = Math.max(this.#initialDelayMs, options.maxReconnectDelayMs ?? RECONNECT_MAX_DELAY_MS);
    this.#connect = options.connect ?? connectPinpad;
    this.#simulatorCounters = options.simulatorCounters;
    this.#simulatedCustomer =
      options.simulatedCustomerDelayMs === undefined
        ? TRAINING_CUSTOMER
        : { ...TRAINING_CUSTOMER, delayMs: options.simulatedCustomerDelayMs };
    this.#idleText = options.idleText ?? (() => idleText(training));
    this.#traces = options.traces;
    this.#now = options.now ?? Date.now;
    this.#unavailable = new LoggedCondition(logger, this.#now);
    this.#link = options.link ?? new PinpadLink(address, new Date(this.#now()));
  }

  /** Where the link stands now. */
  get status(): PinpadLinkStatus {
    return this.#link.status;
  }

  /**
   * Tries the PINPAD now instead of at the end of the current wait (the hot-plug watcher saw its
   * port appear). During an attempt, the wait after it is skipped; nothing happens when it is ready.
   */
  retryNow(): void {
    if (this.#link.status.state === 'ready') return;
    if (this.#wakeUp !== undefined) this.#wakeUp();
    else this.#wokenDuringAttempt = true;
  }

  /** Keeps the PINPAD connected until `signal` aborts; resolves after closing it. */
  async run(signal: AbortSignal): Promise<void> {
    let announced = false;
    let failures = 0;
    while (!signal.aborted) {
      this.#wokenDuringAttempt = false;
      const attempt = await this.#attempt();
      if (signal.aborted) {
        // Stopped while it opened: let it go showing that the agent is off.
        if (attempt !== undefined) {
          this.#hooks.lost(attempt.info);
          await attempt.connection.close(CLOSED_TEXT).catch(() => {});
          await lastWrite(attempt.trace);
        }
        return;
      }
      if (attempt === undefined) {
        failures += 1;
        await this.#wait(this.#delayAfter(failures), signal);
        continue;
      }
      if (!announced) {
        announced = true;
        this.#hooks.ready(attempt.info);
      }
      const stopped = whenAborted(signal);
      await Promise.race([attempt.lost, stopped.promise]);
      stopped.off();
      this.#hooks.lost(attempt.info);
      if (signal.aborted) {
        await attempt.connection.close(CLOSED_TEXT).catch(() => {});
        await lastWrite(attempt.trace);
        return;
      }
      this.#setStatus('disconnected', null, null);
      this.#unavailable.holds(
        'DISCONNECTED',
        { port: this.address },
        'PINPAD disconnected; trying again with backoff until it is back',
      );
      await attempt.connection.close(null).catch(() => {});
      // Its last packets on disk; the write never holds the reconnection up.
      void attempt.trace?.close();
      // The loss is the first failure in a row: the backoff starts again from its shortest wait.
      failures = 1;
      await this.#wait(this.#delayAfter(failures), signal);
    }
  }

  /** One attempt: open, identify, show the idle text, hand over. Undefined when it failed (logged). */
  async #attempt(): Promise<Attempt | undefined> {
    let connection: PinpadConnection;
    const trace = this.#traces?.open(this.address);
    try {
      connection = await this.#connect(this.address, {
        logger: this.#logger,
        simulator: {
          autoCustomer: this.#simulatedCustomer,
          ...(this.#simulatorCounters === undefined ? {} : { dukptCounters: this.#simulatorCounters }),
        },
        ...(trace === undefined ? {} : { wrapTransport: (transport) => trace.wrap(transport) }),
      });
    } catch (error) {
      this.#failed('connect', error);
      void trace?.close();
      return undefined;
    }
    const lost = new Promise<void>((resolve) => connection.pinpad.once('disconnected', () => resolve()));
    try {
      const info = await connection.pinpad.info();
      trace?.identified(tracePinpadOf(info));
      await connection.pinpad.display(this.#idleText());
      await this.#hooks.connected(connection);
      this.#setStatus('ready', null, null);
      // One line either way: after a time without it, with how long that was.
      if (!this.#unavailable.ended({ port: this.address, pinpad: info }, 'PINPAD ready'))
        this.#logger.info({ port: this.address, pinpad: info }, 'PINPAD ready');
      return { connection, info, lost, trace };
    } catch (error) {
      this.#failed('answer', error);
      await connection.close(null).catch(() => {});
      void trace?.close();
      return undefined;
    }
  }

  #failed(stage: 'connect' | 'answer', error: unknown): void {
    const code = codeOf(error);
    const state = failureState(stage, code);
    this.#setStatus(state, code ?? null, messageOf(error));
    this.#unavailable.holds(
      `${state}:${code ?? ''}`,
      { port: this.address, code, err: messageOf(error) },
      stage === 'connect'
        ? 'PINPAD not available; trying again with backoff'
        : 'PINPAD did not answer; trying again with backoff',
    );
  }

  #setStatus(state: PinpadLinkState, code: string | null, error: string | null): void {
    const current = this.#link.status;
    if (current.state === state && current.code === code) return;
    const status: PinpadLinkStatus = { address: this.address, state, code, error, since: new Date(this.#now()) };
    this.#link.set(status);
    this.#hooks.status?.(status);
  }

  /** The wait after failure number `failures` (1-based): the initial delay doubled each time, capped. */
  #delayAfter(failures: number): number {
    if (this.#wokenDuringAttempt) return 0;
    return backoffDelay(failures, { baseMs: this.#initialDelayMs, capMs: this.#maxDelayMs });
  }

  /** Waits `ms`, less when the agent stops or retryNow() is called; leaves no listener behind. */
  #wait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted || ms <= 0) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.#wakeUp = done;
    });
  }
}

/** Keeps one PINPAD connected until `signal` aborts; resolves after closing it. */
export function keepPinpad(
  address: string,
  training: boolean,
  logger: Logger,
  signal: AbortSignal,
  hooks: PinpadHooks,
  options: KeeperOptions = {},
): Promise<void> {
  return new PinpadKeeper(address, training, logger, hooks, options).run(signal);
}

/** How long a stopping agent waits for its trace's last write (a disk that hangs does not hold the stop). */
const LAST_TRACE_WRITE_MS = 1_000;

/** The trace's last packets (the PINPAD's "PINBRIDGE DESLIGADO") on disk before the agent is gone, within LAST_TRACE_WRITE_MS. */
async function lastWrite(trace: TraceSession | undefined): Promise<void> {
  if (trace === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    trace.close(),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, LAST_TRACE_WRITE_MS);
    }),
  ]);
  clearTimeout(timer);
}

function codeOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String(error.code) : undefined;
}
