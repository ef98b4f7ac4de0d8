import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK, CAN, EOT, FrameDecoder, NAK, encodeFrame, type DecodedItem } from '../../../drivers/abecs/frame.js';
import { InvalidArgumentError } from '../../../drivers/errors.js';
import { DeviceLink, type CommandInfo, type DeviceLinkTrace } from '../../../drivers/simulator/device-link.js';
import { createMemoryLink, type MemoryLink } from '../../../drivers/transports/memory.js';

const TIMINGS = { interByteTimeoutMs: 100, silenceMs: 30 };

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

interface Bench {
  readonly link: MemoryLink;
  readonly device: DeviceLink;
  /** Commands the device reported, as latin1 text. */
  readonly commands: { text: string; info: CommandInfo }[];
  readonly cancels: () => number;
  /** Raw bytes the host end received, concatenated. */
  received(): Buffer;
  /** What the host end received, decoded into packets and control bytes. */
  items(): DecodedItem[];
  send(bytes: Buffer | number[]): Promise<void>;
}

async function bench(): Promise<Bench> {
  const link = createMemoryLink();
  await link.host.open();
  await link.device.open();
  const device = new DeviceLink(link.device, { timings: TIMINGS });
  cleanups.push(() => device.dispose());
  const commands: { text: string; info: CommandInfo }[] = [];
  device.on('command', (pktdata, info) => commands.push({ text: pktdata.toString('latin1'), info }));
  let cancels = 0;
  device.on('cancel', () => cancels++);
  const chunks: Buffer[] = [];
  link.host.on('data', (chunk) => chunks.push(chunk));
  const received = (): Buffer => Buffer.concat(chunks);
  return {
    link,
    device,
    commands,
    cancels: () => cancels,
    received,
    items: () => new FrameDecoder().push(received()),
    send: (bytes) => link.host.write(Buffer.from(bytes)),
  };
}

const packets = (items: DecodedItem[]): string[] =>
  items.flatMap((item) => (item.kind === 'packet' ? [item.data.toString('latin1')] : []));

describe('DeviceLink: receiving commands', () => {
  it('ACKs an intact command and reports its PKTDATA', async () => {
    const b = await bench();
    await b.send(hex('16 4F 50 4E 17 A8 A9')); // worked OPN frame
    await vi.waitFor(() => expect(b.commands).toHaveLength(1));
    expect(b.commands[0]).toEqual({ text: 'OPN', info: { abortsPending: false } });
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(ACK)));
  });

  it('decodes the worked command frames of the spec', async () => {
    const b = await bench();
    const frames: [string, Buffer][] = [
      ['16 4F 50 4E 30 30 30 17 77 5E', ascii('OPN000')],
      ['16 47 49 58 30 30 30 17 7F 4A', ascii('GIX000')],
      ['16 47 49 4E 30 30 32 30 30 17 EE CA', ascii('GIN00200')],
      [
        '16 44 53 50 30 33 32 20 20 20 20 4F 50 45 52 41 C7 C3 4F 20 20 20 20 20 20 20 46 49 4E 41 4C 49 5A 41 44 41 20 20 20 17 52 13',
        ascii('DSP032    OPERAÇÃO       FINALIZADA   '),
      ],
      [
        '16 47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09 17 C1 42',
        Buffer.concat([ascii('GCD016'), hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09')]),
      ],
    ];
    const seen: Buffer[] = [];
    b.device.on('command', (pktdata) => seen.push(pktdata));
    for (const [wire] of frames) {
      await b.send(hex(wire));
      await tick();
    }
    await vi.waitFor(() => expect(seen).toHaveLength(frames.length));
    expect(seen).toEqual(frames.map(([, data]) => data));
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.alloc(frames.length, ACK)));
  });

  it('NAKs a corrupted command once the line has been quiet, and reports nothing', async () => {
    const b = await bench();
    await b.send(hex('16 4F 50 4E 17 00 00')); // worked corrupted OPN
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(NAK)));
    expect(b.commands).toHaveLength(0);
  });

  it('waits for silence before the NAK, so the tail of a bad packet is not parsed as a new one', async () => {
    const b = await bench();
    const good = encodeFrame(ascii('GIX000'));
    // A bad escape, then the rest of the packet still arriving: it holds a complete-looking frame.
    await b.send(Buffer.concat([hex('16 47 13 41'), good]));
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(NAK)));
    await sleep(TIMINGS.silenceMs * 2);
    expect(b.commands).toHaveLength(0);
  });

  it('NAKs a packet cut short (inter-byte timeout)', async () => {
    const b = await bench();
    await b.send(encodeFrame(ascii('GIX000')).subarray(0, 6));
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(NAK)));
    expect(b.commands).toHaveLength(0);
  });

  it('accepts a command fed one byte at a time', async () => {
    const b = await bench();
    const payload = Buffer.concat([ascii('GCX010'), hex('00 13 00 16 00 17 13 16 17 00')]);
    for (const byte of encodeFrame(payload)) {
      await b.send([byte]);
      await tick();
    }
    await vi.waitFor(() => expect(b.commands).toHaveLength(1));
    expect(b.commands[0]!.text).toBe(payload.toString('latin1'));
  });

  it('reports a new command that arrives while the previous one is unanswered as aborting it', async () => {
    const b = await bench();
    await b.send(encodeFrame(ascii('GCD000')));
    await vi.waitFor(() => expect(b.device.awaitingResponse).toBe(true));
    await b.send(encodeFrame(ascii('GIX000')));
    await vi.waitFor(() => expect(b.commands).toHaveLength(2));
    expect(b.commands.map((c) => c.info.abortsPending)).toEqual([false, true]);
  });

  it('ignores noise between packets', async () => {
    const b = await bench();
    await b.send(Buffer.concat([hex('00 41 06 FF'), encodeFrame(ascii('GIX000'))]));
    await vi.waitFor(() => expect(b.commands).toHaveLength(1));
    await sleep(TIMINGS.silenceMs * 2);
    expect(b.received()).toEqual(Buffer.of(ACK));
  });
});

describe('DeviceLink: responses, notifications and retransmission', () => {
  it('sends the response frame of the spec', async () => {
    const b = await bench();
    await b.device.respond(ascii('DSP000'));
    await b.device.respond(ascii('CLO000'));
    await vi.waitFor(() =>
      expect(b.received()).toEqual(hex('16 44 53 50 30 30 30 17 39 63  16 43 4C 4F 30 30 30 17 9E 03')),
    );
  });

  it('sends NTM notifications in the spec format', async () => {
    const b = await bench();
    await b.device.notify('SELECIONADO:    CREDITO         ');
    await vi.waitFor(() =>
      expect(b.received()).toEqual(
        hex(
          '16 4E 54 4D 30 30 30 30 33 32 53 45 4C 45 43 49 4F 4E 41 44 4F 3A 20 20 20 20 43 52 45 44 49 54 4F 20 20 20 20 20 20 20 20 20 17 FE DC',
        ),
      ),
    );
  });

  it('refuses a notification longer than 32 characters', async () => {
    const b = await bench();
    expect(() => b.device.notify('X'.repeat(33))).toThrow(InvalidArgumentError);
  });

  it('resends the last response when the host NAKs it', async () => {
    const b = await bench();
    await b.device.respond(ascii('GIX000'));
    await b.send([NAK]);
    await vi.waitFor(() => expect(packets(b.items())).toEqual(['GIX000', 'GIX000']));
  });

  it('ignores a NAK when it has sent nothing yet', async () => {
    const b = await bench();
    await b.send([NAK]);
    await sleep(TIMINGS.silenceMs);
    expect(b.received().length).toBe(0);
  });
});

describe('DeviceLink: cancel', () => {
  it('answers CAN with EOT at once and reports the cancel', async () => {
    const b = await bench();
    await b.send([CAN]);
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(EOT)));
    expect(b.cancels()).toBe(1);
  });

  it('answers a CAN while a command is running, and forgets the pending command', async () => {
    const b = await bench();
    await b.send(encodeFrame(ascii('GCD000')));
    await vi.waitFor(() => expect(b.device.awaitingResponse).toBe(true));
    await b.send([CAN]);
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(ACK, EOT)));
    expect(b.device.awaitingResponse).toBe(false);
  });

  it('splits CAN followed by a new command in one chunk', async () => {
    const b = await bench();
    await b.send(Buffer.concat([Buffer.of(CAN), encodeFrame(ascii('GIX000'))]));
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(EOT, ACK)));
    expect(b.cancels()).toBe(1);
    expect(b.commands.map((c) => c.text)).toEqual(['GIX000']);
  });

  it('drops a delayed response when the command is cancelled', async () => {
    const b = await bench();
    b.device.faults.responseDelayMs = 50;
    const responding = b.device.respond(ascii('GCD000'));
    await b.send([CAN]);
    await responding;
    await sleep(60);
    expect(b.received()).toEqual(Buffer.of(EOT));
  });
});

describe('DeviceLink: fault injection', () => {
  it('NAKs the next n intact commands, then ACKs again', async () => {
    const b = await bench();
    b.device.faults.nakNext(2);
    for (let i = 0; i < 3; i++) {
      await b.send(encodeFrame(ascii('GIX000')));
      await tick();
    }
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(NAK, NAK, ACK)));
    expect(b.commands).toHaveLength(1);
  });

  it('corrupts the next response transmission but resends it intact after a NAK', async () => {
    const b = await bench();
    b.device.faults.corruptNextResponses(1);
    await b.device.respond(ascii('GIX000'));
    await vi.waitFor(() => expect(b.items()).toEqual([{ kind: 'error', reason: 'crc' }]));
    await b.send([NAK]);
    await vi.waitFor(() => expect(packets(b.items())).toEqual(['GIX000']));
  });

  it('corrupts n transmissions in a row, retransmissions included', async () => {
    const b = await bench();
    b.device.faults.corruptNextResponses(2);
    await b.device.respond(ascii('GIX000'));
    await b.send([NAK]);
    await tick();
    await b.send([NAK]);
    await vi.waitFor(() => expect(b.items().map((i) => i.kind)).toEqual(['error', 'error', 'packet']));
  });

  it('drops the ACK of the next command but still processes it', async () => {
    const b = await bench();
    b.device.faults.dropAcks(1);
    await b.send(encodeFrame(ascii('GIX000')));
    await vi.waitFor(() => expect(b.commands).toHaveLength(1));
    await sleep(TIMINGS.silenceMs);
    expect(b.received().length).toBe(0);
  });

  it('delays responses by responseDelayMs', async () => {
    const b = await bench();
    b.device.faults.responseDelayMs = 80;
    const started = performance.now();
    await b.device.respond(ascii('GIX000'));
    await vi.waitFor(() => expect(packets(b.items())).toEqual(['GIX000']));
    // A lower bound only.
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('paces its bytes like a serial line at paceBaud', async () => {
    const b = await bench();
    b.device.faults.paceBaud = 9600; // 960 bytes/s: a 400-byte response takes about 417 ms
    const chunks: Buffer[] = [];
    b.link.host.on('data', (chunk) => chunks.push(chunk));
    const started = performance.now();
    await b.device.respond(Buffer.concat([ascii('GIX000'), Buffer.alloc(394, 0x41)]));
    await vi.waitFor(() => expect(packets(b.items())).toHaveLength(1));
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('answers nothing, not even CAN, while silenced, and recovers when unsilenced', async () => {
    const b = await bench();
    b.device.faults.silence();
    await b.send([CAN]);
    await b.send(encodeFrame(ascii('GIX000')));
    await b.device.respond(ascii('GIX000'));
    await sleep(TIMINGS.silenceMs * 2);
    expect(b.received().length).toBe(0);
    expect(b.commands).toHaveLength(0);
    b.device.faults.unsilence();
    await b.send([CAN]);
    await vi.waitFor(() => expect(b.received()).toEqual(Buffer.of(EOT)));
  });

  it('refuses fault counts that are not whole numbers', async () => {
    const b = await bench();
    expect(() => b.device.faults.nakNext(-1)).toThrow(InvalidArgumentError);
    expect(() => b.device.faults.corruptNextResponses(1.5)).toThrow(InvalidArgumentError);
  });
});

describe('DeviceLink: lifecycle', () => {
  it('traces ids and lengths only', async () => {
    const b = await bench();
    const traces: DeviceLinkTrace[] = [];
    b.device.on('trace', (trace) => traces.push(trace));
    b.device.on('command', () => void b.device.respond(ascii('GIX000')));
    await b.send(encodeFrame(ascii('GIX000')));
    await vi.waitFor(() => expect(traces).toHaveLength(3));
    expect(traces).toEqual([
      { direction: 'in', kind: 'packet', command: 'GIX', length: 6 },
      { direction: 'out', kind: 'ack' },
      { direction: 'out', kind: 'packet', command: 'GIX', length: 6 },
    ]);
  });

  it('stops reacting once disposed', async () => {
    const b = await bench();
    b.device.dispose();
    await b.send([CAN]);
    await b.send(encodeFrame(ascii('GIX000')));
    await sleep(TIMINGS.silenceMs);
    expect(b.received().length).toBe(0);
    expect(b.commands).toHaveLength(0);
  });
});
