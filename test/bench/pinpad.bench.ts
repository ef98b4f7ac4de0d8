/**
 * Command round trips driver ⇄ simulator (in memory and over a socat pty), and link efficiency:
 * a ~2 KB exchange over a link paced like a 19200-baud line, against its theoretical wire time.
 */
import { ginCommand } from '../../drivers/abecs/commands/gin.js';
import { opnCommand } from '../../drivers/abecs/commands/opn.js';
import { dspCommand } from '../../drivers/abecs/commands/dsp.js';
import { gixCommand } from '../../drivers/abecs/commands/gix.js';
import { PP } from '../../drivers/abecs/ids.js';
import { encodeCommandPacket, encodeResponsePacket } from '../../drivers/abecs/envelope.js';
import { encodeFrame } from '../../drivers/abecs/frame.js';
import { Pinpad } from '../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator, startPtySimulator } from '../../drivers/simulator/index.js';
import { SerialTransport } from '../../drivers/transports/serial.js';
import { round, sample, type Stats } from './harness.js';

type RoundTrips = Record<'OPN' | 'DSP' | 'GIN', { medianMs: number; p99Ms: number }>;

async function roundTrips(pinpad: Pinpad, samples: number): Promise<RoundTrips> {
  const summary = (s: Stats): { medianMs: number; p99Ms: number } => ({
    medianMs: round(s.medianMs),
    p99Ms: round(s.p99Ms),
  });
  return {
    OPN: summary(await sample(() => pinpad.execute(opnCommand, {}), samples)),
    DSP: summary(await sample(() => pinpad.execute(dspCommand, { message: 'VALOR R$ 12,34\nAGUARDE...' }), samples)),
    GIN: summary(await sample(() => pinpad.execute(ginCommand, { acquirer: 0 }), samples)),
  };
}

export async function benchRoundTrips(samples = 300): Promise<{ memory: RoundTrips; pty: RoundTrips }> {
  const memorySim = await startMemorySimulator(new PinpadSimulator());
  const memoryPinpad = new Pinpad(memorySim.link.host);
  await memoryPinpad.open();
  const memory = await roundTrips(memoryPinpad, samples);
  await memoryPinpad.close(null);
  await memorySim.close();

  const ptySim = await startPtySimulator(new PinpadSimulator());
  const ptyPinpad = new Pinpad(new SerialTransport(ptySim.path));
  await ptyPinpad.open();
  const pty = await roundTrips(ptyPinpad, samples);
  await ptyPinpad.close(null);
  await ptySim.close();
  return { memory, pty };
}

/** A GIX asking 19 times for the 100-character key map: a response of about 2 KB. */
const BIG_GIX = { ids: Array.from({ length: 19 }, () => PP.MKTDESP) };

export interface LinkEfficiency {
  readonly baud: number;
  readonly wireBytes: number;
  readonly theoreticalMs: number;
  readonly medianMs: number;
  readonly ratio: number;
  readonly goal: string;
}

export async function benchLinkEfficiency(baud = 19_200, samples = 7): Promise<LinkEfficiency> {
  const served = await startMemorySimulator(new PinpadSimulator(), { baud });
  const pinpad = new Pinpad(served.link.host);
  await pinpad.open();
  const response = await pinpad.execute(gixCommand, BIG_GIX);
  // What crosses the wire in one exchange: the command frame, the ACK, the response frame.
  const wireBytes =
    encodeFrame(encodeCommandPacket(gixCommand.encodeRequest(BIG_GIX))).length +
    1 +
    encodeFrame(encodeResponsePacket(gixCommand.encodeResponse(response))).length;
  const theoreticalMs = (wireBytes * 10 * 1000) / baud;
  const stats = await sample(() => pinpad.execute(gixCommand, BIG_GIX), samples, 0);
  await pinpad.close(null);
  await served.close();
  return {
    baud,
    wireBytes,
    theoreticalMs: round(theoreticalMs, 1),
    medianMs: round(stats.medianMs, 1),
    ratio: round(stats.medianMs / theoreticalMs),
    goal: '≤ 1.10',
  };
}
