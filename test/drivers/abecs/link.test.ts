import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK, CAN, EOT, FrameDecoder, NAK, SYN, encodeFrame, type DecodedItem } from '../../../drivers/abecs/frame.js';
import { describeCommand, HostLink, LinkError, type LinkTimings, type LinkTrace } from '../../../drivers/abecs/link.js';
import { DeviceLink } from '../../../drivers/simulator/device-link.js';
import { createMemoryLink, type MemoryLink, type MemoryTransport } from '../../../drivers/transports/memory.js';

const TIMINGS: LinkTimings = {
  ackTimeoutMs: 100,
  maxSends: 3,
  interByteTimeoutMs: 100,
  silenceMs: 30,
  maxReceiveAttempts: 3,
  responseTimeoutMs: 300,
  eotTimeoutMs: 100,
  maxCancelTries: 3,
  maxNoiseBytes: 256,
  maxPurgeMs: 300,
};
const DEVICE_TIMINGS = { interByteTimeoutMs: 100, silenceMs: 30 };

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

/** Everything the host sent, as seen by the device end of the wire. */
interface Wire {
  readonly link: MemoryLink;
  readonly host: HostLink;
  /** Bytes received by the device end, concatenated. */
  sent(): Buffer;
  /** How many times `byte` appeared on the wire from the host (SYN counts packets: it is always escaped in data). */
  count(byte: number): number;
}

async function openWire(timings: Partial<LinkTimings> = TIMINGS): Promise<Wire> {
  const link = createMemoryLink();
  await link.host.open();
  await link.device.open();
  const host = new HostLink(link.host, { timings });
  const chunks: Buffer[] = [];
  link.device.on('data', (chunk) => chunks.push(chunk));
  cleanups.push(() => host.dispose());
  const sent = (): Buffer => Buffer.concat(chunks);
  return { link, host, sent, count: (byte) => sent().filter((b) => b === byte).length };
}

/** A well-behaved simulated PINPAD that answers `XXX` with `XXX000`, except for ids in `hold`. */
function echoDevice(transport: MemoryTransport, hold: string[] = []): DeviceLink {
  const device = new DeviceLink(transport, { timings: DEVICE_TIMINGS });
  device.on('command', (pktdata) => {
    const id = pktdata.subarray(0, 3).toString('latin1');
    if (!hold.includes(id)) void device.respond(ascii(`${id}000`));
  });
  cleanups.push(() => device.dispose());
  return device;
}

/** A hand-driven PINPAD: decodes what the host sends and lets the test answer with raw bytes. */
function rawDevice(transport: MemoryTransport): {
  items: DecodedItem[];
  onItem(handler: (item: DecodedItem) => void): void;
  write(bytes: Buffer | number[]): Promise<void>;
} {
  const decoder = new FrameDecoder();
  const items: DecodedItem[] = [];
  const handlers: ((item: DecodedItem) => void)[] = [];
  transport.on('data', (chunk) => {
    for (const item of decoder.push(chunk)) {
      items.push(item);
      for (const handler of handlers) handler(item);
    }
  });
  return {
    items,
    onItem: (handler) => handlers.push(handler),
    write: (bytes) => transport.write(Buffer.from(bytes)),
  };
}

const isPacket = (item: DecodedItem): item is { kind: 'packet'; data: Buffer } => item.kind === 'packet';
const isByte = (item: DecodedItem, byte: number): boolean => item.kind === 'byte' && item.byte === byte;

/**
 * The link works: a display command is answered. Tried for up to 2 s: on a loaded machine the
 * simulated device may miss one 100 ms ACK deadline of these quick timings, while a link that
 * did not recover never answers at all.
 */
async function expectWorking(host: HostLink): Promise<void> {
  const answer = await vi.waitFor(() => host.exchange(ascii('DSP032' + ' '.repeat(32))), {
    timeout: 2_000,
    interval: 50,
  });
  expect(answer).toEqual(ascii('DSP000'));
}

describe('HostLink: sending commands and receiving responses', () => {
  it('sends the command packet, waits for ACK, and resolves with the response without acknowledging it', async () => {
    const wire = await openWire();
    echoDevice(wire.link.device);
    const traces: LinkTrace[] = [];
    wire.host.on('trace', (trace) => traces.push(trace));
    const command = ascii('DSP032' + '    OPERAÇÃO       FINALIZADA   ');

    await expect(wire.host.exchange(command)).resolves.toEqual(ascii('DSP000'));
    await sleep(TIMINGS.silenceMs * 2);

    // Only the command went out (S220 §1.5 worked frame, CRC byte 13h raw): no ACK for the response.
    expect(wire.sent()).toEqual(
      hex(
        '16 44 53 50 30 33 32 20 20 20 20 4F 50 45 52 41 C7 C3 4F 20 20 20 20 20 20 20 46 49 4E 41 4C 49 5A 41 44 41 20 20 20 17 52 13',
      ),
    );
    expect(traces).toEqual([
      { direction: 'out', kind: 'packet', command: 'DSP', length: 38 },
      { direction: 'in', kind: 'ack', command: 'DSP' },
      { direction: 'in', kind: 'packet', command: 'DSP', length: 6 },
    ]);
    expect(wire.host.busy).toBe(false);
  });

  it('sends the worked OPN frame of the spec byte for byte', async () => {
    const wire = await openWire();
    echoDevice(wire.link.device);
    await expect(wire.host.exchange(ascii('OPN'))).resolves.toEqual(ascii('OPN000'));
    expect(wire.sent()).toEqual(hex('16 4F 50 4E 17 A8 A9'));
  });

  it('resends the command after a NAK and succeeds', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device);
    device.faults.nakNext(1);
    await expectWorking(wire.host);
    expect(wire.count(SYN)).toBe(2);
  });

  it('gives up with NAK_LIMIT after exactly three sends when every send is NAKed', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device);
    device.faults.nakNext(3);
    const error = await wire.host.exchange(ascii('GIX000')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkError);
    expect(error).toMatchObject({ code: 'NAK_LIMIT' });
    expect((error as Error).message).toContain('GIX');
    await sleep(TIMINGS.ackTimeoutMs * 2);
    expect(wire.count(SYN)).toBe(3);
  });

  it('fails with ACK_TIMEOUT when the PINPAD never acknowledges', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device, ['GIX']);
    device.faults.dropAcks(1);
    await expect(wire.host.exchange(ascii('GIX000'))).rejects.toMatchObject({
      code: 'ACK_TIMEOUT',
      // What failed in words a technician on the phone understands, with the command's name for support.
      message: `The PINPAD did not answer the identification command (GIX) within ${TIMINGS.ackTimeoutMs} ms: check the cable and that nothing else uses the port.`,
    });
    expect(wire.count(SYN)).toBe(1);
  });

  it('NAKs a corrupted response after the line goes quiet and takes the intact retransmission', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device);
    device.faults.corruptNextResponses(1);
    await expectWorking(wire.host);
    expect(wire.count(NAK)).toBe(1);
  });

  it('gives up with BAD_RESPONSE on the third corrupted response, after two NAKs', async () => {
    // Time enough for three answers and two NAKs on a loaded machine: this is about the count.
    const wire = await openWire({ ...TIMINGS, responseTimeoutMs: 5_000 });
    const device = echoDevice(wire.link.device);
    device.faults.corruptNextResponses(3);
    await expect(wire.host.exchange(ascii('GIX000'))).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    expect(wire.count(NAK)).toBe(2);
  });

  it('treats a response cut short as bad (inter-byte timeout), NAKs it and takes the retransmission', async () => {
    const wire = await openWire();
    const device = rawDevice(wire.link.device);
    const response = encodeFrame(ascii('GIX000'));
    device.onItem((item) => {
      if (isPacket(item)) void device.write(Buffer.concat([Buffer.of(ACK), response.subarray(0, 5)]));
      if (isByte(item, NAK)) void device.write(response);
    });
    await expect(wire.host.exchange(ascii('GIX000'))).resolves.toEqual(ascii('GIX000'));
    expect(wire.count(NAK)).toBe(1);
  });

  it('accepts the response fed one byte at a time, whatever its size', async () => {
    const wire = await openWire();
    const device = rawDevice(wire.link.device);
    const payload = Buffer.concat([ascii('GIX000200'), Buffer.from(Array.from({ length: 200 }, (_, i) => i))]);
    const response = encodeFrame(payload); // bytes 13h/16h/17h escaped, CRC raw
    device.onItem((item) => {
      if (!isPacket(item)) return;
      void (async () => {
        await device.write([ACK]);
        for (const byte of response) {
          await device.write([byte]);
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
    });
    await expect(wire.host.exchange(ascii('GIX000'))).resolves.toEqual(payload);
  });

  it('accepts ACK, notifications and the response arriving in one chunk', async () => {
    const wire = await openWire();
    const device = rawDevice(wire.link.device);
    const ntm = hex(
      '16 4E 54 4D 30 30 30 30 33 32 53 45 4C 45 43 49 4F 4E 41 44 4F 3A 20 20 20 20 43 52 45 44 49 54 4F 20 20 20 20 20 20 20 20 20 17 FE DC',
    );
    const clo = hex('16 43 4C 4F 30 30 30 17 9E 03'); // worked response CLO000
    device.onItem((item) => {
      if (isPacket(item)) void device.write(Buffer.concat([Buffer.of(ACK), ntm, clo]));
    });
    const texts: string[] = [];
    await expect(
      wire.host.exchange(ascii('CLO032' + ' '.repeat(32)), { onNotification: (n) => texts.push(n.text) }),
    ).resolves.toEqual(ascii('CLO000'));
    expect(texts).toEqual(['SELECIONADO:    CREDITO         ']);
  });

  it('accepts a response split at every possible byte boundary', async () => {
    const wire = await openWire();
    const device = rawDevice(wire.link.device);
    const stream = Buffer.concat([Buffer.of(ACK), hex('16 44 53 50 30 30 30 17 39 63')]); // worked DSP000
    let cut = 1;
    device.onItem((item) => {
      if (!isPacket(item)) return;
      void (async () => {
        await device.write(stream.subarray(0, cut));
        await new Promise((resolve) => setImmediate(resolve));
        await device.write(stream.subarray(cut));
      })();
    });
    for (; cut < stream.length; cut++) {
      await expect(wire.host.exchange(ascii('DSP032' + ' '.repeat(32)))).resolves.toEqual(ascii('DSP000'));
    }
  });

  it('surfaces NTM notifications in order, through the callback and the event, before the response', async () => {
    const wire = await openWire();
    const device = new DeviceLink(wire.link.device, { timings: DEVICE_TIMINGS });
    cleanups.push(() => device.dispose());
    device.on('command', () => {
      void (async () => {
        await device.notify('SELECIONADO:    CREDITO         ');
        await device.notify('SOLICITE A SENHA');
        await device.respond(ascii('GOX000'));
      })();
    });
    const order: string[] = [];
    wire.host.on('notification', (n) => order.push(`event:${n.text}`));
    const response = await wire.host.exchange(ascii('GOX000'), {
      blocking: true,
      onNotification: (n) => order.push(`callback:${n.text}`),
    });
    order.push(`response:${response.toString('latin1')}`);
    expect(order).toEqual([
      'callback:SELECIONADO:    CREDITO         ',
      'event:SELECIONADO:    CREDITO         ',
      'callback:SOLICITE A SENHA',
      'event:SOLICITE A SENHA',
      'response:GOX000',
    ]);
  });

  it('NAKs a corrupted notification and keeps waiting for the response', async () => {
    const wire = await openWire();
    const device = new DeviceLink(wire.link.device, { timings: DEVICE_TIMINGS });
    cleanups.push(() => device.dispose());
    // The response only once the host has the notification: the host NAKs the corrupted NTM, the
    // device resends it, and the host hands it on — however long a loaded machine takes for that.
    let heard = (): void => undefined;
    const notified = new Promise<void>((resolve) => (heard = resolve));
    device.on('command', () => {
      device.faults.corruptNextResponses(1);
      void device.notify('SOLICITE A SENHA').then(async () => {
        await notified;
        await device.respond(ascii('GOX000'));
      });
    });
    const texts: string[] = [];
    const onNotification = (n: { text: string }): void => {
      texts.push(n.text);
      heard();
    };
    await expect(wire.host.exchange(ascii('GOX000'), { blocking: true, onNotification })).resolves.toEqual(
      ascii('GOX000'),
    );
    expect(texts).toEqual(['SOLICITE A SENHA']);
  });

  it('takes an ERR response as the answer to any command', async () => {
    const wire = await openWire();
    const device = new DeviceLink(wire.link.device, { timings: DEVICE_TIMINGS });
    cleanups.push(() => device.dispose());
    device.on('command', () => void device.respond(ascii('ERR010')));
    await expect(wire.host.exchange(ascii('XYZ000'))).resolves.toEqual(ascii('ERR010'));
  });

  it('refuses empty packets before sending anything', async () => {
    const wire = await openWire();
    expect(() => wire.host.exchange(Buffer.alloc(0))).toThrow(/at least one byte/);
    expect(wire.host.busy).toBe(false);
  });
});

describe('describeCommand', () => {
  it('names a command by what it does and keeps its code for support: OPN is the open-session command (OPN)', () => {
    expect(describeCommand('OPN')).toBe('the open-session command (OPN)');
    expect(describeCommand('CAN')).toBe('the cancel command (CAN)');
    expect(describeCommand('XYZ')).toBe('XYZ');
  });
});

describe('HostLink: response time limits', () => {
  it('fails a non-blocking command with RESPONSE_TIMEOUT when no response comes', async () => {
    const wire = await openWire();
    echoDevice(wire.link.device, ['GIX']);
    const error = await wire.host.exchange(ascii('GIX000')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RESPONSE_TIMEOUT' });
    expect((error as Error).message).toBe(
      `The PINPAD received the identification command (GIX) but sent no result within ${TIMINGS.responseTimeoutMs} ms: switch it off and on if this keeps happening.`,
    );
  });

  it('lets a blocking command wait longer than the non-blocking limit', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device);
    device.faults.responseDelayMs = TIMINGS.responseTimeoutMs * 2;
    await expect(wire.host.exchange(ascii('GCD000'), { blocking: true })).resolves.toEqual(ascii('GCD000'));
  });

  it("cancels a command that exceeds the caller's timeoutMs and rejects with TIMEOUT", async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device, ['GCD']);
    const cancels = vi.fn();
    device.on('cancel', cancels);
    const error = await wire.host
      .exchange(ascii('GCD000'), { blocking: true, timeoutMs: 150, label: 'GCD (read CPF)' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toContain('GCD (read CPF)');
    expect(cancels).toHaveBeenCalledTimes(1);
    expect(wire.count(CAN)).toBe(1);
    await expectWorking(wire.host);
  });
});

describe('HostLink: cancelling', () => {
  it('cancels a blocking command with CAN; the PINPAD answers EOT and the command rejects CANCELLED', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device, ['GCD']);
    const acked = new Promise<void>((resolve) => device.once('command', () => resolve()));
    const traces: LinkTrace[] = [];
    wire.host.on('trace', (trace) => traces.push(trace));
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true });
    const outcome = running.catch((e: unknown) => e);
    await acked;
    await wire.host.cancel();
    expect(await outcome).toMatchObject({ code: 'CANCELLED', message: 'GCD was cancelled.' });
    expect(traces.filter((t) => t.kind === 'can' || t.kind === 'eot').map((t) => `${t.direction}:${t.kind}`)).toEqual([
      'out:can',
      'in:eot',
    ]);
  });

  it('never takes a late response to the cancelled command as the answer to the next one', async () => {
    const wire = await openWire();
    const device = new DeviceLink(wire.link.device, { timings: DEVICE_TIMINGS });
    cleanups.push(() => device.dispose());
    let lateGcd = false;
    device.on('command', (pktdata) => {
      const id = pktdata.subarray(0, 3).toString('latin1');
      if (id === 'GCD') return; // blocking: waits for the cardholder
      void (async () => {
        // A misbehaving device: the aborted GCD's answer turns up first.
        if (lateGcd) await device.respond(ascii('GCD000'));
        await device.respond(ascii(`${id}000`));
      })();
    });
    // A response already on its way when the CAN goes out, arriving right after EOT.
    device.on('cancel', () => void device.respond(ascii('GCD013')));
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(device.awaitingResponse).toBe(true));
    await wire.host.cancel();
    expect(await running).toMatchObject({ code: 'CANCELLED' });

    lateGcd = true;
    await expect(wire.host.exchange(ascii('DSP032' + ' '.repeat(32)))).resolves.toEqual(ascii('DSP000'));
  });

  it('discards a late response arriving while idle after the cancel', async () => {
    const wire = await openWire();
    const device = rawDevice(wire.link.device);
    device.onItem((item) => {
      if (isPacket(item)) {
        const id = item.data.subarray(0, 3).toString('latin1');
        void device.write(id === 'GCD' ? [ACK] : Buffer.concat([Buffer.of(ACK), encodeFrame(ascii(`${id}000`))]));
      }
      if (isByte(item, CAN)) {
        void device.write([EOT]).then(async () => {
          await sleep(TIMINGS.silenceMs * 3); // after the host's post-EOT purge
          await device.write(encodeFrame(ascii('GCD000')));
        });
      }
    });
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(device.items.some(isPacket)).toBe(true));
    await wire.host.cancel();
    expect(await running).toMatchObject({ code: 'CANCELLED' });
    await sleep(TIMINGS.silenceMs * 5);
    await expect(wire.host.exchange(ascii('GIX000'))).resolves.toEqual(ascii('GIX000'));
  });

  it('finds the EOT behind a response that was already in flight', async () => {
    const wire = await openWire();
    const device = rawDevice(wire.link.device);
    // The response holds a 04h byte that must not pass for EOT.
    const inFlight = encodeFrame(Buffer.concat([ascii('GCD000004'), Buffer.of(EOT, EOT, EOT, EOT)]));
    device.onItem((item) => {
      if (isPacket(item)) void device.write([ACK]);
      if (isByte(item, CAN)) void device.write(Buffer.concat([inFlight, Buffer.of(EOT)]));
    });
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(device.items.some(isPacket)).toBe(true));
    await sleep(10);
    await wire.host.cancel();
    expect(await running).toMatchObject({ code: 'CANCELLED' });
    expect(wire.count(CAN)).toBe(1);
  });

  it('aborts through an AbortSignal with CAN and rejects CANCELLED', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device, ['GCD']);
    const controller = new AbortController();
    device.on('command', () => controller.abort());
    await expect(
      wire.host.exchange(ascii('GCD000'), { blocking: true, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(wire.count(CAN)).toBe(1);
    await expectWorking(wire.host);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const wire = await openWire();
    await expect(wire.host.exchange(ascii('GCD000'), { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    await sleep(5);
    expect(wire.sent().length).toBe(0);
  });

  it('fails with CANCEL_UNANSWERED after exactly three CANs to a silent PINPAD', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device, ['GCD']);
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(device.awaitingResponse).toBe(true));
    device.faults.silence();
    await expect(wire.host.cancel()).rejects.toMatchObject({ code: 'CANCEL_UNANSWERED' });
    expect(await running).toMatchObject({ code: 'CANCELLED' });
    await sleep(TIMINGS.eotTimeoutMs);
    expect(wire.count(CAN)).toBe(3);
  });

  it('joins a second cancel() to the one already running', async () => {
    const wire = await openWire();
    echoDevice(wire.link.device);
    await Promise.all([wire.host.cancel(), wire.host.cancel()]);
    expect(wire.count(CAN)).toBe(1);
  });
});

describe('HostLink: start-up reset', () => {
  it('reports that the PINPAD answered the start-up CAN with EOT', async () => {
    const wire = await openWire();
    echoDevice(wire.link.device);
    await expect(wire.host.reset()).resolves.toEqual({ eot: true });
    expect(wire.count(CAN)).toBe(1);
  });

  it('accepts a silent PINPAD at start-up after three CANs', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device);
    device.faults.silence();
    await expect(wire.host.reset()).resolves.toEqual({ eot: false });
    expect(wire.count(CAN)).toBe(3);
  });
});

describe('HostLink: one command at a time, and recovery from every failure', () => {
  it('rejects a second exchange with BUSY while one is running', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device, ['GCD']);
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true }).catch((e: unknown) => e);
    const error = await wire.host.exchange(ascii('DSP000')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BUSY', message: 'The PINPAD is busy with GCD; one command at a time.' });
    await expect(wire.host.reset()).rejects.toMatchObject({ code: 'BUSY' });
    await vi.waitFor(() => expect(device.awaitingResponse).toBe(true));
    await wire.host.cancel();
    await running;
    await expectWorking(wire.host);
  });

  const failures: { name: string; code: string; provoke: (wire: Wire, device: DeviceLink) => Promise<unknown> }[] = [
    {
      name: 'an ACK timeout',
      code: 'ACK_TIMEOUT',
      provoke: (wire, device) => {
        device.faults.dropAcks(1);
        return wire.host.exchange(ascii('GCD000'));
      },
    },
    {
      name: 'the NAK limit',
      code: 'NAK_LIMIT',
      provoke: (wire, device) => {
        device.faults.nakNext(3);
        return wire.host.exchange(ascii('GIX000'));
      },
    },
    {
      name: 'three bad responses',
      code: 'BAD_RESPONSE',
      provoke: (wire, device) => {
        device.faults.corruptNextResponses(3);
        return wire.host.exchange(ascii('GIX000'));
      },
    },
    {
      name: 'a response timeout',
      code: 'RESPONSE_TIMEOUT',
      provoke: (wire) => wire.host.exchange(ascii('GCD000')),
    },
    {
      name: "the caller's time limit",
      code: 'TIMEOUT',
      provoke: (wire) => wire.host.exchange(ascii('GCD000'), { blocking: true, timeoutMs: 120 }),
    },
    {
      name: 'an unanswered cancel',
      code: 'CANCEL_UNANSWERED',
      provoke: async (wire, device) => {
        const running = wire.host.exchange(ascii('GCD000'), { blocking: true }).catch(() => undefined);
        await vi.waitFor(() => expect(device.awaitingResponse).toBe(true));
        device.faults.silence();
        try {
          return await wire.host.cancel();
        } finally {
          await running;
          device.faults.unsilence();
        }
      },
    },
    {
      name: 'a write failure on a closed link',
      code: 'DISCONNECTED',
      provoke: async (wire) => {
        await wire.link.host.close();
        try {
          return await wire.host.exchange(ascii('GIX000'));
        } finally {
          await wire.link.host.open();
        }
      },
    },
    {
      name: 'an unplugged cable',
      code: 'DISCONNECTED',
      provoke: async (wire, device) => {
        const running = wire.host.exchange(ascii('GCD000'), { blocking: true });
        await vi.waitFor(() => expect(device.awaitingResponse).toBe(true));
        wire.link.unplug();
        try {
          return await running;
        } finally {
          wire.link.replug();
          await wire.link.host.open();
          await wire.link.device.open();
        }
      },
    },
  ];

  for (const failure of failures) {
    it(`works again after ${failure.name} (${failure.code})`, async () => {
      const wire = await openWire();
      const device = echoDevice(wire.link.device, ['GCD']);
      const error = await failure.provoke(wire, device).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LinkError);
      expect(error).toMatchObject({ code: failure.code });
      expect(wire.host.busy).toBe(false);
      await sleep(TIMINGS.silenceMs * 2); // let the device finish any purge of its own
      await expectWorking(wire.host);
    });
  }

  it('rejects a blocking command with DISCONNECTED as soon as the cable is pulled', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device, ['GCD']);
    // Blocking and without timeoutMs: only the disconnect can end this exchange.
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true });
    await vi.waitFor(() => expect(device.awaitingResponse).toBe(true));
    wire.link.unplug();
    const error = await running.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DISCONNECTED' });
    expect((error as Error).message).toContain('GCD');
  });

  it('rejects every call with DISCONNECTED once disposed, and rejects what was in flight', async () => {
    const wire = await openWire();
    echoDevice(wire.link.device, ['GCD']);
    const running = wire.host.exchange(ascii('GCD000'), { blocking: true }).catch((e: unknown) => e);
    wire.host.dispose();
    expect(await running).toMatchObject({ code: 'DISCONNECTED' });
    await expect(wire.host.exchange(ascii('GIX000'))).rejects.toMatchObject({ code: 'DISCONNECTED' });
    await expect(wire.host.cancel()).rejects.toMatchObject({ code: 'DISCONNECTED' });
    await expect(wire.host.reset()).rejects.toMatchObject({ code: 'DISCONNECTED' });
  });
});

describe('a line that carries noise, not the protocol (a babbling device or a bad cable)', () => {
  it('gives up on a blocking command with LINE_NOISE once the stray bytes pass the limit, instead of waiting for the customer', async () => {
    const wire = await openWire();
    // The device ACKs the command, then sends bytes that are no frame, without end.
    wire.link.device.on('data', (chunk: Buffer) => {
      if (chunk.includes(SYN)) void wire.link.device.write(Buffer.of(ACK));
    });
    const babble = setInterval(() => void wire.link.device.write(Buffer.alloc(64, 0x41)), 5);
    cleanups.push(() => clearInterval(babble));
    const started = performance.now();
    const error = await wire.host.exchange(ascii('GCX000'), { blocking: true, timeoutMs: 60_000 }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(LinkError);
    expect(error).toMatchObject({ code: 'LINE_NOISE' });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('gives up with LINE_NOISE when a bad packet is followed by no silence at all', async () => {
    const wire = await openWire();
    wire.link.device.on('data', (chunk: Buffer) => {
      if (!chunk.includes(SYN)) return;
      void wire.link.device.write(Buffer.of(ACK));
      // A corrupted response (bad CRC), then a stream of SYN-led garbage that never pauses.
      const bad = encodeFrame(ascii('GCX000'));
      bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
      void wire.link.device.write(bad);
      const babble = setInterval(() => void wire.link.device.write(Buffer.of(0x30, 0x31, 0x32)), 5);
      cleanups.push(() => clearInterval(babble));
    });
    await expect(wire.host.exchange(ascii('GCX000'), { blocking: true, timeoutMs: 60_000 })).rejects.toMatchObject({
      code: 'LINE_NOISE',
    });
  });

  it('tolerates the few stray bytes a real line has', async () => {
    const wire = await openWire();
    const device = echoDevice(wire.link.device);
    void wire.link.device.write(Buffer.alloc(16, 0x00));
    expect((await wire.host.exchange(ascii('OPN000'))).toString('latin1')).toBe('OPN000');
    device.dispose();
  });
});
