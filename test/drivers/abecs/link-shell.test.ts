/**
 * HostLink as the shell of the link machine: it performs the machine's timers on the clock it is
 * given (here a fake one, so the spec's own 2 s and 10 s take no time), and it keeps the order of
 * the machine's actions when a listener calls back into it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACK, CAN, EOT, FrameDecoder, encodeFrame, type DecodedItem } from '../../../drivers/abecs/frame.js';
import { HostLink } from '../../../drivers/abecs/link.js';
import { createMemoryLink, type MemoryLink } from '../../../drivers/transports/memory.js';

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
/** Lets the memory link deliver both ways (it uses setImmediate, left real) and the promises settle. */
async function delivery(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

interface Rig {
  readonly link: MemoryLink;
  readonly host: HostLink;
  /** What the device end decoded from the host, in order. */
  readonly received: DecodedItem[];
  readonly answer: (bytes: Buffer | number[]) => Promise<void>;
}

let rig: Rig | undefined;

beforeEach(() => {
  // Only the link's timers are faked; the memory link's delivery stays real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  rig?.host.dispose();
  rig = undefined;
  vi.useRealTimers();
});

async function open(): Promise<Rig> {
  const link = createMemoryLink();
  await link.host.open();
  await link.device.open();
  const host = new HostLink(link.host);
  const decoder = new FrameDecoder();
  const received: DecodedItem[] = [];
  link.device.on('data', (chunk) => received.push(...decoder.push(chunk)));
  rig = { link, host, received, answer: (bytes) => link.device.write(Buffer.from(bytes)) };
  return rig;
}

/** 'pending', or how the promise ended. */
function watch<T>(promise: Promise<T>): { readonly outcome: 'pending' | T | Error } {
  const watched: { outcome: 'pending' | T | Error } = { outcome: 'pending' };
  promise.then(
    (value) => (watched.outcome = value),
    (error: Error) => (watched.outcome = error),
  );
  return watched;
}

describe('HostLink on a fake clock', () => {
  it('waits exactly 2 s for the ACK, counted from the moment the transport took the frame', async () => {
    const { host } = await open();
    const running = watch(host.exchange(ascii('GIX000')));
    await delivery();
    vi.advanceTimersByTime(1999);
    await delivery();
    expect(running.outcome).toBe('pending');
    vi.advanceTimersByTime(1);
    await delivery();
    expect(running.outcome).toMatchObject({ code: 'ACK_TIMEOUT' });
  });

  it('fails a non-blocking command 10 s after its ACK, and lets a blocking one wait on', async () => {
    const { host, answer } = await open();
    const nonBlocking = watch(host.exchange(ascii('GIX000')));
    await delivery();
    await answer([ACK]);
    await delivery();
    vi.advanceTimersByTime(10_000);
    await delivery();
    expect(nonBlocking.outcome).toMatchObject({ code: 'RESPONSE_TIMEOUT' });

    const blocking = watch(host.exchange(ascii('GCD000'), { blocking: true }));
    await delivery();
    await answer([ACK]);
    await delivery();
    vi.advanceTimersByTime(10 * 60_000);
    await answer(encodeFrame(ascii('GCD000')));
    await delivery();
    expect(blocking.outcome).toEqual(ascii('GCD000'));
  });

  it('leaves no timer behind when disposed in the middle of a command', async () => {
    const { host } = await open();
    const running = watch(host.exchange(ascii('GIX000'), { timeoutMs: 60_000 }));
    await delivery();
    expect(vi.getTimerCount()).toBe(2); // the ACK wait and the caller's deadline
    host.dispose();
    await delivery();
    expect(vi.getTimerCount()).toBe(0);
    expect(running.outcome).toMatchObject({ code: 'DISCONNECTED' });
  });

  it('lets a notification listener cancel the command: the CAN follows the notification and the command rejects CANCELLED', async () => {
    const { host, answer, received } = await open();
    let cancelled: { readonly outcome: unknown } | undefined;
    const running = watch(
      host.exchange(ascii('GOX000'), {
        blocking: true,
        onNotification: () => {
          expect(host.busy).toBe(true);
          cancelled = watch(host.cancel());
        },
      }),
    );
    await delivery();
    await answer(Buffer.concat([Buffer.of(ACK), encodeFrame(ascii('NTM000016SOLICITE A SENHA'))]));
    await delivery();
    expect(received.at(-1)).toEqual({ kind: 'byte', byte: CAN });
    await answer([EOT]);
    await delivery();
    vi.advanceTimersByTime(500); // the quiet after EOT
    await delivery();
    expect(cancelled?.outcome).toBeUndefined();
    expect(running.outcome).toMatchObject({ code: 'CANCELLED' });
    expect(host.busy).toBe(false);
  });
});
