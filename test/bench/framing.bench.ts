/** Frame encode+decode and CRC throughput, in MB/s of packet data. */
import { crc16Xmodem } from '../../drivers/abecs/crc.js';
import { encodeFrame, FrameDecoder } from '../../drivers/abecs/frame.js';
import { round, sample } from './harness.js';

export interface FramingResults {
  readonly crcMBps: number;
  readonly frameEncodeDecodeMBps: number;
  readonly frameEncodeDecodeEscapeHeavyMBps: number;
}

function payload(size: number, escapeHeavy: boolean): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = escapeHeavy && i % 4 === 0 ? 0x16 : (i * 31 + 7) & 0xff;
  return data;
}

async function throughput(bytesPerRun: number, run: () => void, runs: number): Promise<number> {
  const stats = await sample(run, runs);
  return round(bytesPerRun / (1024 * 1024) / (stats.medianMs / 1000), 1);
}

/** Each figure the median of `runs` timed runs (after warm-up ones). */
export async function benchFraming(runs = 30): Promise<FramingResults> {
  const big = payload(1 << 20, false);
  const crcMBps = await throughput(big.length, () => crc16Xmodem(big), runs);

  const measure = async (escapeHeavy: boolean): Promise<number> => {
    const packets = Array.from({ length: 512 }, (_, i) => payload(2049 - (i % 64), escapeHeavy));
    const bytes = packets.reduce((sum, p) => sum + p.length, 0);
    return throughput(
      bytes,
      () => {
        const decoder = new FrameDecoder();
        for (const packet of packets) {
          const items = decoder.push(encodeFrame(packet));
          if (items.length !== 1 || items[0]!.kind !== 'packet') throw new Error('frame round trip failed');
        }
      },
      runs,
    );
  };
  return {
    crcMBps,
    frameEncodeDecodeMBps: await measure(false),
    frameEncodeDecodeEscapeHeavyMBps: await measure(true),
  };
}
