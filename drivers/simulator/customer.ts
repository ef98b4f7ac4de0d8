/**
 * The customer's side of the simulated PINPAD: a keypad whose presses queue up until a command
 * reads them, and one primitive every blocking command waits with — `waitFor`, which re-checks a
 * condition whenever the customer does something, honours the command's abort signal (CAN or a
 * new command) and an optional time limit.
 *
 * Keys typed before a command asks for them are kept in order (a scripted customer "types
 * ahead"); the spec's PINPAD discards earlier events, but for tests and training a queue is the
 * useful model, and a command that reads keys only ever sees presses made after the previous
 * command consumed its own.
 */
import { EventEmitter } from 'node:events';
import { InvalidArgumentError } from '../errors.js';

export type FunctionKey = 'enter' | 'cancel' | 'clear' | 'f1' | 'f2' | 'f3' | 'f4' | 'up' | 'down';
export type DigitKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
export type SimKey = DigitKey | FunctionKey;

const FUNCTION_KEYS: ReadonlySet<string> = new Set(['enter', 'cancel', 'clear', 'f1', 'f2', 'f3', 'f4', 'up', 'down']);

export function isDigitKey(key: SimKey): key is DigitKey {
  return key.length === 1;
}

/** Emits `change` whenever anything the customer does may unblock a waiting command. */
export class CustomerEvents extends EventEmitter<{ change: [] }> {
  constructor() {
    super();
    // Every waiting command and every session listens; none of them leaks across commands.
    this.setMaxListeners(0);
  }
}

export class Keypad {
  readonly #queue: SimKey[] = [];
  readonly #events: CustomerEvents;

  constructor(events: CustomerEvents) {
    this.#events = events;
  }

  /** Digits (and spaces, ignored) as the customer would type them. */
  type(digits: string): void {
    const keys = [...digits.replace(/\s+/g, '')];
    for (const key of keys) {
      if (!/^[0-9]$/.test(key)) throw new InvalidArgumentError(`The simulated keypad types digits only, not "${key}".`);
    }
    this.#queue.push(...(keys as DigitKey[]));
    this.#events.emit('change');
  }

  /** One key: a digit or 'enter' | 'cancel' | 'clear' | 'f1'…'f4' | 'up' | 'down'. */
  press(key: SimKey): void {
    if (!(FUNCTION_KEYS.has(key) || /^[0-9]$/.test(key))) {
      throw new InvalidArgumentError(`"${String(key)}" is not a key of the simulated keypad.`);
    }
    this.#queue.push(key);
    this.#events.emit('change');
  }

  /** Keys pressed and not read yet. */
  get pending(): readonly SimKey[] {
    return [...this.#queue];
  }

  /** Forgets keys typed ahead. */
  clear(): void {
    this.#queue.length = 0;
  }

  /** @internal the next queued key, if any. */
  take(): SimKey | undefined {
    return this.#queue.shift();
  }
}

/** Raised inside a command handler when CAN or a new command aborted it. */
export class CommandAborted extends Error {
  constructor() {
    super('The command was aborted by the host.');
    this.name = 'CommandAborted';
  }
}

export const TIMED_OUT: unique symbol = Symbol('timed out');
export type TimedOut = typeof TIMED_OUT;

export interface WaitOptions {
  readonly signal: AbortSignal;
  /** Time limit in ms; undefined waits forever. */
  readonly timeoutMs?: number;
  /** Runs once, `afterMs` after the wait starts unsatisfied: the scripted customer acting. */
  readonly auto?: { readonly afterMs: number; readonly act: () => void };
}

/**
 * Resolves with the first defined value `check` returns (checked now and after every customer
 * event), with TIMED_OUT when the limit passes, and rejects with CommandAborted on abort.
 */
export function waitFor<T>(
  events: CustomerEvents,
  check: () => T | undefined,
  options: WaitOptions,
): Promise<T | TimedOut> {
  if (options.signal.aborted) return Promise.reject(new CommandAborted());
  const now = check();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise<T | TimedOut>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let autoTimer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      clearTimeout(autoTimer);
      events.off('change', onChange);
      options.signal.removeEventListener('abort', onAbort);
    };
    const onChange = (): void => {
      const value = check();
      if (value === undefined) return;
      finish();
      resolve(value);
    };
    const onAbort = (): void => {
      finish();
      reject(new CommandAborted());
    };
    events.on('change', onChange);
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        finish();
        resolve(TIMED_OUT);
      }, options.timeoutMs);
    }
    if (options.auto) {
      const { act, afterMs } = options.auto;
      autoTimer = setTimeout(act, afterMs);
    }
  });
}

/** A plain delay that an abort cuts short (with CommandAborted). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new CommandAborted());
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CommandAborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
