/**
 * A PINPAD double for the specs of the sale's steps (main/pinpad/sale/): it writes down each
 * method a step calls on the driver's `Pinpad`, with its request and the host's limit, and
 * answers from the spec's script — so a spec can read what the PINPAD was asked, in order.
 * The end-to-end behaviour is specified against the simulator (sale-session.test.ts and others).
 */
import type { Pinpad, PinpadInfo, WaitOptions } from '../../../../drivers/abecs/pinpad.js';
import type { DriverLogger } from '../../../../drivers/log.js';
import { DEFAULT_SALE_TIMEOUTS, type SaleTimeouts } from '../../../../main/core/ports.js';
import { SaleContext } from '../../../../main/pinpad/sale/context.js';

export interface PinpadCall {
  readonly method: string;
  /** The first argument (the request, the text shown); undefined for none. */
  readonly request: unknown;
  /** The host's limit of the call in ms, where it took wait options. */
  readonly hostLimitMs?: number;
}

/** An answer to one call: a value, or thrown. */
export type Answer = (request: unknown, wait: WaitOptions | undefined) => unknown;

export const INFO: PinpadInfo = {
  manufacturer: 'GERTEC',
  model: 'PPC-930',
  firmware: '1.0',
  specVersion: '2.12',
  serialNumber: 'SN-FAKE',
  protocol: 'abecs',
  display: { lines: 2, columns: 16 },
};

export interface FakePinpad {
  readonly pinpad: Pinpad;
  readonly calls: PinpadCall[];
  /** The calls' methods, `info` left out (the identification read at attach is asked freely). */
  methods(): string[];
}

/**
 * `answers[method]` answers every call of that method; a list answers its calls in turn (the
 * last one again once the list runs out). Methods without an answer resolve to undefined.
 */
export function fakePinpad(
  options: { info?: Partial<PinpadInfo>; answers?: Readonly<Record<string, Answer | readonly Answer[]>> } = {},
): FakePinpad {
  const calls: PinpadCall[] = [];
  const turns = new Map<string, number>();
  const info: PinpadInfo = { ...INFO, ...options.info };
  const answerTo = (method: string, request: unknown, wait: WaitOptions | undefined): unknown => {
    if (method === 'info') return info;
    const hostLimitMs = wait?.timeoutMs;
    calls.push({ method, request, ...(hostLimitMs !== undefined ? { hostLimitMs } : {}) });
    const answer = options.answers?.[method];
    if (answer === undefined || typeof answer === 'function') return answer?.(request, wait);
    const turn = turns.get(method) ?? 0;
    turns.set(method, turn + 1);
    return answer[Math.min(turn, answer.length - 1)]!(request, wait);
  };
  const pinpad = new Proxy(
    {},
    {
      get: (target, property) => {
        // A method the spec set on the double itself (pinpad.info = …) answers as it is.
        if (Reflect.has(target, property)) return Reflect.get(target, property) as unknown;
        const method = String(property);
        if (method === 'then') return undefined;
        // Every method answers asynchronously, as the driver's do; an answer that throws rejects.
        return (request?: unknown, wait?: WaitOptions): Promise<unknown> =>
          new Promise((resolve) => resolve(answerTo(method, request, wait)));
      },
    },
  ) as unknown as Pinpad;
  return { pinpad, calls, methods: () => calls.map((call) => call.method) };
}

export interface LoggedLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: object;
  readonly message: string | undefined;
}

/** A logger that keeps what it is given, to show what a log line holds (and what it never does). */
export function recordingLogger(): { logger: DriverLogger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at =
    (level: LoggedLine['level']) =>
    (fields: object, message?: string): void => {
      lines.push({ level, fields, message });
    };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

/** A SaleContext on `pinpad`, with the default limits unless said, the cashier's lines kept in `messages`. */
export function contextOn(
  pinpad: Pinpad,
  options: { timeouts?: Partial<SaleTimeouts>; logger?: DriverLogger; onMessage?: (text: string) => void } = {},
): SaleContext {
  return new SaleContext(pinpad, {
    timeouts: { ...DEFAULT_SALE_TIMEOUTS, ...options.timeouts },
    onMessage: options.onMessage,
    logger: options.logger ?? recordingLogger().logger,
  });
}
