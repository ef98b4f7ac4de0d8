/**
 * The PINPAD keeper retries a PINPAD that is not there for as long as the agent runs — at a
 * store, all day — quietly (issue 19): 1 s doubling to 60 s between attempts, at once when the
 * hot-plug watcher saw its port (retryNow), one warning when it goes missing and one line when it
 * is back, whatever happened in between (the log file is read back). Each attempt leaves nothing
 * behind: no abort listener piles up on the agent's stop signal, and a stop ends the wait at once.
 * Time is faked where an hour passes; the PINPAD is a double whose "cable" the test pulls.
 * Each connection is recorded in the traces folder, whose failure never keeps the PINPAD from being ready.
 */
import { EventEmitter, getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Pinpad, PinpadInfo } from '../../../drivers/abecs/pinpad.js';
import { TransportError } from '../../../drivers/transports/transport.js';
import type { AutoCustomerOptions } from '../../../drivers/simulator/simulator.js';
import type { PinpadConnection } from '../../../main/pinpad/connection.js';
import { keepPinpad, PinpadKeeper, type PinpadHooks } from '../../../main/agent/pinpad-keeper.js';
import { createLogger } from '../../../main/log.js';
import type { PinpadLinkStatus } from '../../../main/pinpad/link-status.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { parseTrace } from '../../../drivers/abecs/trace/format.js';
import { newestTrace, TraceFolder } from '../../../main/support/trace-folder.js';

const INFO = {
  manufacturer: 'GERTEC',
  model: 'PPC930',
  serialNumber: 'PP-1',
  firmware: '1.0',
} as unknown as PinpadInfo;
const ADDRESS = '/dev/ttyACM0';

/** A PINPAD that answers, and whose cable `unplug` pulls. */
function pinpadDouble(): { connection: PinpadConnection; unplug(): void; closes: (string | null | undefined)[] } {
  const pinpad = Object.assign(new EventEmitter(), {
    info: () => Promise.resolve(INFO),
    display: () => Promise.resolve(),
  });
  const closes: (string | null | undefined)[] = [];
  return {
    connection: {
      pinpad: pinpad as unknown as Pinpad,
      close: (message) => {
        closes.push(message);
        return Promise.resolve();
      },
    },
    unplug: () => pinpad.emit('disconnected', new TransportError('DISCONNECTED', 'The PINPAD went away.')),
    closes,
  };
}

/** A connect function that fails with `failure` until given a PINPAD, and notes when it is called. */
function plugs(): {
  connect: NonNullable<ConstructorParameters<typeof PinpadKeeper>[4]>['connect'];
  at: number[];
  failWith(error: Error): void;
  plugIn(connection: PinpadConnection): void;
} {
  let failure: Error = new TransportError(
    'PORT_NOT_FOUND',
    `The serial port ${ADDRESS} does not exist; check the cable and the port name.`,
  );
  let plugged: PinpadConnection | undefined;
  const at: number[] = [];
  return {
    connect: () => {
      at.push(Date.now());
      return plugged === undefined ? Promise.reject(failure) : Promise.resolve(plugged);
    },
    at,
    failWith: (error) => (failure = error),
    plugIn: (connection) => (plugged = connection),
  };
}

const hooks = (statuses: PinpadLinkStatus[] = []): PinpadHooks => ({
  connected: () => Promise.resolve(),
  lost: () => undefined,
  ready: () => undefined,
  status: (status) => statuses.push(status),
});

let dir: string;
let logFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(artifactsDir(), 'keeper-'));
  logFile = join(dir, 'agent.log');
});
const warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};
afterEach(() => {
  vi.useRealTimers();
  process.off('warning', onWarning);
  warnings.length = 0;
  rmSync(dir, { recursive: true, force: true });
});

const logLines = (): { level: number; msg: string; [field: string]: unknown }[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { level: number; msg: string });

describe('keeping a PINPAD that is not there', () => {
  it('tries again and again without piling up listeners on the stop signal, and stops at once', async () => {
    process.on('warning', onWarning);
    const stop = new AbortController();
    const port = plugs();
    const kept = keepPinpad(
      join('/nonexistent', 'ttyPINPAD'),
      false,
      createLogger({ level: 'silent' }),
      stop.signal,
      hooks(),
      {
        reconnectDelayMs: 1,
        maxReconnectDelayMs: 1,
        connect: port.connect,
      },
    );
    await vi.waitFor(() => expect(port.at.length).toBeGreaterThanOrEqual(25), { timeout: 10_000 });

    expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    stop.abort();
    await kept;
    expect(getEventListeners(stop.signal, 'abort')).toEqual([]);
  });

  it('waits 1 s, then twice as long after each failure, up to a minute', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const port = plugs();
    const kept = new PinpadKeeper(ADDRESS, false, createLogger({ level: 'silent' }), hooks(), {
      connect: port.connect,
    }).run(stop.signal);
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
    const gaps = port.at.slice(1).map((time, i) => time - port.at[i]!);
    expect(gaps.slice(0, 9)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    // At 0, 1, 3, 7, 15, 31 and 63 s, then once a minute: 15 attempts in ten minutes (300 at the 2 s of before issue 19).
    expect(port.at).toHaveLength(15);
    stop.abort();
    await kept;
  });

  it('says once that the PINPAD is missing and once that it is back, however long it took', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const port = plugs();
    const keeper = new PinpadKeeper(ADDRESS, false, createLogger({ level: 'info', file: logFile }), hooks(), {
      connect: port.connect,
    });
    const kept = keeper.run(stop.signal);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(port.at.length).toBeGreaterThan(60);
    expect(logLines()).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'PINPAD not available; trying again with backoff',
        port: ADDRESS,
        code: 'PORT_NOT_FOUND',
      }),
    ]);

    port.plugIn(pinpadDouble().connection);
    keeper.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(keeper.status.state).toBe('ready');
    const back = logLines()[1];
    expect(back).toMatchObject({ level: 30, msg: 'PINPAD ready', port: ADDRESS, pinpad: { serialNumber: 'PP-1' } });
    expect(back!.lastedSeconds).toBeGreaterThanOrEqual(3600);
    expect(logLines()).toHaveLength(2);
    stop.abort();
    await kept;
  });

  it('warns again when the reason changes: not there, then there but not allowed', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const port = plugs();
    const keeper = new PinpadKeeper(ADDRESS, false, createLogger({ level: 'info', file: logFile }), hooks(), {
      connect: port.connect,
    });
    const kept = keeper.run(stop.signal);
    await vi.advanceTimersByTimeAsync(10_000);
    port.failWith(new TransportError('PERMISSION_DENIED', `No permission to open ${ADDRESS}.`));
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
    expect(logLines().map((line) => [line.level, line.code])).toEqual([
      [40, 'PORT_NOT_FOUND'],
      [40, 'PERMISSION_DENIED'],
    ]);
    expect(keeper.status).toMatchObject({ state: 'unreachable', code: 'PERMISSION_DENIED' });
    stop.abort();
    await kept;
  });

  it('tries at once when told its port appeared, however far the backoff has gone, and not when it is ready', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const port = plugs();
    const keeper = new PinpadKeeper(ADDRESS, false, createLogger({ level: 'silent' }), hooks(), {
      connect: port.connect,
    });
    const kept = keeper.run(stop.signal);
    await vi.advanceTimersByTimeAsync(5 * 60 * 1000 + 1);
    const attempts = port.at.length;
    keeper.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(port.at).toHaveLength(attempts + 1);

    port.plugIn(pinpadDouble().connection);
    keeper.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(keeper.status.state).toBe('ready');
    keeper.retryNow();
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(port.at).toHaveLength(attempts + 2);
    stop.abort();
    await kept;
  });
});

describe('the link state', () => {
  it('goes connecting → not found → ready → disconnected → not found → ready, told once per change', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const port = plugs();
    const statuses: PinpadLinkStatus[] = [];
    const keeper = new PinpadKeeper(ADDRESS, false, createLogger({ level: 'info', file: logFile }), hooks(statuses), {
      connect: port.connect,
    });
    expect(keeper.status).toMatchObject({ address: ADDRESS, state: 'connecting', code: null });
    const kept = keeper.run(stop.signal);
    await vi.advanceTimersByTimeAsync(30_000);
    const first = pinpadDouble();
    port.plugIn(first.connection);
    keeper.retryNow();
    await vi.advanceTimersByTimeAsync(0);

    // Pulled: the port goes with it.
    port.plugIn(undefined as unknown as PinpadConnection);
    first.unplug();
    await vi.advanceTimersByTimeAsync(30_000);
    port.plugIn(pinpadDouble().connection);
    keeper.retryNow();
    await vi.advanceTimersByTimeAsync(0);

    expect(statuses.map((status) => [status.state, status.code])).toEqual([
      ['not_found', 'PORT_NOT_FOUND'],
      ['ready', null],
      ['disconnected', null],
      ['not_found', 'PORT_NOT_FOUND'],
      ['ready', null],
    ]);
    expect(first.closes).toEqual([null]);
    expect(logLines().map((line) => line.msg)).toEqual([
      'PINPAD not available; trying again with backoff',
      'PINPAD ready',
      'PINPAD disconnected; trying again with backoff until it is back',
      'PINPAD not available; trying again with backoff',
      'PINPAD ready',
    ]);
    stop.abort();
    await kept;
  });

  it('is "not answering" when something at the address does not answer as a PINPAD', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const port = plugs();
    const silent = pinpadDouble();
    (silent.connection.pinpad as unknown as { info: () => Promise<never> }).info = () =>
      Promise.reject(Object.assign(new Error('No answer to OPN within 2 s'), { code: 'TIMEOUT' }));
    port.plugIn(silent.connection);
    const keeper = new PinpadKeeper(ADDRESS, false, createLogger({ level: 'silent' }), hooks(), {
      connect: port.connect,
    });
    const kept = keeper.run(stop.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(keeper.status).toMatchObject({
      state: 'not_answering',
      code: 'TIMEOUT',
      error: 'No answer to OPN within 2 s',
    });
    stop.abort();
    await kept;
  });
});

describe('the simulated PINPAD (sim)', () => {
  /** The customer the keeper asks the simulator for, given the keeper's options. */
  async function customerOf(
    options: { simulatedCustomerDelayMs?: number } = {},
  ): Promise<AutoCustomerOptions | undefined> {
    const stop = new AbortController();
    let asked: AutoCustomerOptions | undefined;
    const pinpad = pinpadDouble();
    const keeper = new PinpadKeeper('sim', true, createLogger({ level: 'silent' }), hooks(), {
      ...options,
      connect: (_address, connectOptions) => {
        asked = connectOptions?.simulator?.autoCustomer;
        return Promise.resolve(pinpad.connection);
      },
    });
    const kept = keeper.run(stop.signal);
    await vi.waitFor(() => expect(asked).toBeDefined());
    stop.abort();
    await kept;
    return asked;
  }

  it("has a customer who answers each prompt in 1.5 s, a pace a cashier in training follows, with training's Visa card", async () => {
    expect(await customerOf()).toMatchObject({ delayMs: 1_500, card: 'visaCredit' });
  });

  it('has a customer at the pace asked for (a demo or a spec of many sales), the same card', async () => {
    expect(await customerOf({ simulatedCustomerDelayMs: 200 })).toMatchObject({ delayMs: 200, card: 'visaCredit' });
    expect(await customerOf({ simulatedCustomerDelayMs: 0 })).toMatchObject({ delayMs: 0 });
  });
});

describe("the trace of the keeper's connections", () => {
  /** The simulated PINPAD kept until it is ready, then the agent stops. */
  async function readyThenStop(folder: TraceFolder): Promise<void> {
    const stop = new AbortController();
    let ready: () => void = () => {};
    const answered = new Promise<void>((resolve) => (ready = resolve));
    const running = keepPinpad(
      'sim',
      true,
      createLogger({ level: 'silent' }),
      stop.signal,
      { ...hooks(), ready: () => ready() },
      { traces: folder, simulatedCustomerDelayMs: 0 },
    );
    await answered;
    stop.abort();
    await running;
  }

  it('records each connection, the PINPAD named, down to the close the stopping agent sends', async () => {
    const dir = join(mkdtempSync(join(artifactsDir(), 'keeper-traces-')), 'traces');
    await readyThenStop(new TraceFolder(dir, { writeDelayMs: 10 }));
    const trace = parseTrace(readFileSync(newestTrace(dir)!, 'utf8'));
    expect(trace.header.pinpad?.serial_number).toMatch(/^SIM/);
    const sent = trace.events
      .filter((event) => event.dir === 'host' && event.kind === 'packet')
      .map((event) => event.id);
    expect(sent[0]).toBe('OPN');
    expect(sent.at(-1)).toBe('CLO');
  });

  it('gets the PINPAD ready when the traces cannot be written, telling why once', async () => {
    const root = mkdtempSync(join(artifactsDir(), 'keeper-traces-'));
    // A file where the folder goes: every write fails.
    writeFileSync(join(root, 'traces'), '');
    const problems: string[] = [];
    await readyThenStop(
      new TraceFolder(join(root, 'traces'), {
        writeDelayMs: 1,
        problem: (error) => problems.push(error?.code ?? 'written again'),
      }),
    );
    expect(problems).toHaveLength(1);
  });
});
