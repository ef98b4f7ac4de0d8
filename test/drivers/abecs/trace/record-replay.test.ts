/**
 * Recording a session with the simulated PINPAD through RecordingTransport (identification, a
 * chip card read with PIN as a sale does it, a raw GCX asking for the PAN in clear) and replaying
 * the file to a host Pinpad over a real pseudo terminal: same identification, same card read.
 * The trace is left in the test artifacts, which the final card-data scan searches too.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gcxCommand, type GcxResult } from '../../../../drivers/abecs/commands/gcx.js';
import { goxCommand } from '../../../../drivers/abecs/commands/gox.js';
import { decodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { FrameDecoder } from '../../../../drivers/abecs/frame.js';
import { Pinpad, localDateTime, type PinpadInfo } from '../../../../drivers/abecs/pinpad.js';
import { AbecsStatusError } from '../../../../drivers/abecs/status.js';
import { readTraceFile, writeTraceFile, type RecordedTrace } from '../../../../drivers/abecs/trace/format.js';
import { RecordingTransport } from '../../../../drivers/abecs/trace/recorder.js';
import {
  PinpadSimulator,
  TEST_CARDS,
  startMemorySimulator,
  startPtySimulator,
  type PtySimulator,
} from '../../../../drivers/simulator/index.js';
import { SerialTransport } from '../../../../drivers/transports/serial.js';
import type { ByteTransport } from '../../../../drivers/transports/transport.js';
import { PinpadSale } from '../../../../main/pinpad/sale-session.js';
import type { CardRead } from '../../../../main/core/ports.js';
import { artifactsDir, recordSecrets, scanText } from '../../../helpers/card-data-scan.js';
import { centavos } from '../../../../main/core/money.js';

const CARD = TEST_CARDS.visaCredit;
const TIME_SCALE = 0.05;

/** A raw GCX without SPE_PANMASK: the PINPAD answers the PAN in clear, with the name. */
function rawCardRead(pinpad: Pinpad): Promise<GcxResult> {
  return pinpad.execute(
    gcxCommand,
    { ...localDateTime(new Date()), amount: 1000, appTypes: [1], timeout: 5, tagList: ['9F26', '9F27', '9F37', '95'] },
    { timeoutMs: 10_000 },
  );
}

interface Session {
  readonly info: PinpadInfo;
  readonly raw: GcxResult;
  readonly read: CardRead;
}

/** What a host does in these tests: identify, a raw read, a sale's read (GCX, GOX with PIN), card out. */
async function hostSession(transport: ByteTransport, timings?: { silenceMs: number }): Promise<Session> {
  const pinpad = new Pinpad(transport, timings ? { timings } : {});
  await pinpad.open();
  try {
    const info = await pinpad.info();
    const raw = await rawCardRead(pinpad);
    const sale = new PinpadSale(pinpad);
    await sale.removeCard('RETIRE O CARTAO');
    await sale.showAmount(centavos(1000), null);
    const read = await sale.readCard({ amount: centavos(1000), paymentType: 'credit' });
    await sale.removeCard('RETIRE O CARTAO');
    return { info, raw, read };
  } finally {
    await pinpad.close();
  }
}

/** The sensitive values that crossed the link: the GOX answer's PIN block and KSN, from the raw bytes. */
function secretsOnTheWire(transport: ByteTransport): { pinBlock?: string; ksn?: string } {
  const found: { pinBlock?: string; ksn?: string } = {};
  const decoder = new FrameDecoder();
  transport.on('data', (chunk) => {
    for (const item of decoder.push(chunk)) {
      if (item.kind !== 'packet' || !item.data.subarray(0, 6).equals(Buffer.from('GOX000'))) continue;
      const gox = goxCommand.decodeResponse(decodeResponsePacket(item.data));
      if (gox.pinBlock) found.pinBlock = gox.pinBlock;
      if (gox.ksn) found.ksn = gox.ksn;
    }
  });
  return found;
}

let pty: PtySimulator | undefined;
afterEach(async () => {
  await pty?.close();
  pty = undefined;
});

describe('recording and replaying an ABECS session', () => {
  it('records the session masked and replays it to a host over a pty', { timeout: 30_000 }, async () => {
    const sim = new PinpadSimulator({
      profile: 'strict',
      autoCustomer: { delayMs: 5, card: 'visaCredit' },
      timeScale: TIME_SCALE,
    });
    const served = await startMemorySimulator(sim);
    const secrets = secretsOnTheWire(served.link.host);
    const recording = new RecordingTransport(served.link.host);
    const original = await hostSession(recording, { silenceMs: 20 });
    await served.close();

    // The session really carried card data in clear: the raw read's PAN and name, a PIN block and KSN.
    expect(original.raw.pan).toBe(CARD.pan);
    expect(original.raw.cardholderName).toBe(CARD.cardholderName);
    expect(secrets.pinBlock).toMatch(/^[0-9A-F]{16}$/);
    expect(secrets.ksn).toMatch(/^[0-9A-F]{20}$/);
    recordSecrets([secrets.pinBlock, secrets.ksn]);

    recording.recorder.pinpad = { manufacturer: original.info.manufacturer, model: original.info.model };
    const dir = join(artifactsDir(), 'traces');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'record-replay.jsonl');
    await writeTraceFile(file, recording.recorder.trace());

    // The file: a header, then the commands in the order the host sent them, each acknowledged and answered.
    const text = readFileSync(file, 'utf8');
    const trace: RecordedTrace = await readTraceFile(file);
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({
      format: 'pinbridge-abecs-trace',
      version: 1,
      address: 'memory:pinpad/host',
      pinpad: { model: 'PBSIM-220' },
    });
    const commands = trace.events.filter((e) => e.dir === 'host' && e.kind === 'packet').map((e) => e.id);
    expect(commands).toEqual(['OPN', 'GIX', 'GCX', 'RMC', 'DSP', 'GCX', 'GTK', 'GOX', 'RMC', 'CLO']);
    expect(trace.events[0]).toMatchObject({ dir: 'host', kind: 'can' });
    expect(trace.events[1]).toMatchObject({ dir: 'pinpad', kind: 'eot' });
    expect(trace.events.filter((e) => e.kind === 'ack')).toHaveLength(commands.length);
    const answers = trace.events.filter((e) => e.dir === 'pinpad' && e.kind === 'packet' && e.id !== 'NTM');
    expect(answers.map((e) => `${e.id}${e.status}`)).toEqual(commands.map((id) => `${id}000`));
    expect(trace.events.some((e) => e.id === 'NTM')).toBe(true);
    expect(trace.events.every((e, i) => i === 0 || e.t >= trace.events[i - 1]!.t)).toBe(true);

    // No card data in it: not as text, not as the hex of text, not in the packets' bytes.
    const hexOf = (value: string): string => Buffer.from(value, 'latin1').toString('hex');
    for (const needle of [
      CARD.pan,
      hexOf(CARD.pan),
      CARD.cardholderName,
      hexOf(CARD.cardholderName),
      secrets.pinBlock!,
      secrets.ksn!,
    ]) {
      expect(text.toLowerCase()).not.toContain(needle.toLowerCase());
    }
    const bytes = trace.events.map((e) => (e.data ? Buffer.from(e.data, 'hex').toString('latin1') : '')).join('\n');
    expect(bytes).not.toContain(CARD.pan);
    expect(bytes).not.toContain('TESTE/VISA');
    expect(scanText(text, [secrets.pinBlock!, secrets.ksn!], file)).toEqual([]);
    expect(scanText(bytes, [secrets.pinBlock!, secrets.ksn!], file)).toEqual([]);

    // Replayed by a simulated PINPAD on a pty, to a host opening it as a serial port.
    const replay = new PinpadSimulator({ replay: trace, timeScale: TIME_SCALE });
    pty = await startPtySimulator(replay);
    const replayed = await hostSession(new SerialTransport(pty.path));
    expect(replayed.info).toEqual(original.info);
    expect(replayed.raw.pan).toBe('411111******1111');
    expect(replayed.raw.track2).toBe('411111******1111=3012201');
    expect(replayed.raw.cardholderName).toBeUndefined();
    const withoutCardData = (read: GcxResult): Partial<GcxResult> => ({
      ...read,
      pan: undefined,
      track2: undefined,
      cardholderName: undefined,
      emvData: undefined,
    });
    expect(withoutCardData(replayed.raw)).toEqual(withoutCardData(original.raw));
    expect(replayed.read.card).toEqual(original.read.card);
    expect(replayed.read.chipDecision).toBe(original.read.chipDecision);
    expect(replayed.read.needsChipCompletion).toBe(original.read.needsChipCompletion);
    // The PIN block arrives zeroed: the replay carries the PIN's place, not the PIN.
    expect(replayed.read.authorization).not.toEqual(original.read.authorization);
  });

  it('answers ERR010 to a command the recording never saw', { timeout: 10_000 }, async () => {
    const sim = new PinpadSimulator({ profile: 'strict' });
    const served = await startMemorySimulator(sim);
    const recording = new RecordingTransport(served.link.host);
    const pinpad = new Pinpad(recording, { timings: { silenceMs: 20 } });
    await pinpad.open();
    await pinpad.info();
    await pinpad.close();
    await served.close();

    const replay = new PinpadSimulator({ replay: recording.recorder.trace(), timeScale: TIME_SCALE });
    const again = await startMemorySimulator(replay);
    const host = new Pinpad(again.link.host, { timings: { silenceMs: 20 } });
    await host.open();
    expect((await host.info()).serialNumber).toBe('SIM0000000000220');
    const refused = await host.readCustomerData('cpf', { timeoutSeconds: 5 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AbecsStatusError);
    expect(refused).toMatchObject({ status: 10 });
    await host.close();
    await again.close();
  });
});
