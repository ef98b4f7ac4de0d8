/**
 * The log's card-data masking (issue 33): every line the agent logs is searched for card data as it
 * is written (main/log.ts maskCardDataInLine, with drivers/card-number.ts's search), and a line
 * that holds some is parsed, masked and written again. Here, what that costs per line: the real
 * logger (createLogger, writing its file as the agent does) against the same logger without the
 * hook (loggerOptions minus streamWrite, to a RotatingFile of its own), in the same run, samples
 * of the two taken in turn — medians, per line in µs, and their ratio. The hook alone (the search
 * on the lines pino made, no logger around it) is timed beside them.
 *
 * Three kinds of line: words only (a state change: no digit beyond pino's time and pid), ids and
 * amounts (a payment step: hex transaction id, reference, centavos, NSU, authorization code), and a
 * line with a test card's number planted in it, which the masking parses and writes again. Lines
 * differ from one to the next, or the logger's repeat folding would write (and search) only one.
 * The files live in os.tmpdir() and are deleted at the end; the planted number must be masked in
 * the real logger's file, or the benchmark fails.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';
import { createLogger, loggerOptions, maskCardDataInLine, RotatingFile } from '../../main/log.js';
import { CORPUS_PANS } from '../fixtures/card-data-corpus.js';
import { round, stats } from './harness.js';

const PAN = CORPUS_PANS.visa;
const STATES = ['ready', 'waiting for the card', 'reading the chip', 'asking for the PIN', 'authorizing', 'done'];

/** The `n`th line of each kind: what it is called with. */
const LINES = {
  words: (n: number): [object, string] => [
    { state: STATES[n % STATES.length], port: 'sim', terminal: 'caixa' },
    `PINPAD ${STATES[(n + 1) % STATES.length]}`,
  ],
  idsAndAmounts: (n: number): [object, string] => [
    {
      transaction: (0x9f3c_0000_0000 + n * 7919).toString(16).padStart(32, 'a1b2c3d4'),
      reference: `pdv-3-${String(100_000 + n)}`,
      amount: 1990 + (n % 500),
      installments: 1 + (n % 12),
      nsu: String(100_000 + n).padStart(9, '0'),
      authorizationCode: String(582_452 + n).slice(-6),
    },
    'payment approved',
  ],
  plantedPan: (n: number): [object, string] => [
    { reference: `pdv-3-${n}`, note: `card ${PAN} typed by the POS` },
    'sale refused',
  ],
} as const;

type Kind = keyof typeof LINES;

export interface LogKindBench {
  /** Per line through the real logger (masking hook) and through the same logger without it. */
  readonly maskedUs: number;
  readonly baselineUs: number;
  /** maskedUs / baselineUs. */
  readonly ratio: number;
  /** maskCardDataInLine alone on the lines pino made, per line. */
  readonly hookUs: number;
  /** A typical line's length, bytes. */
  readonly lineBytes: number;
}

export interface LogBench {
  readonly linesPerSample: number;
  readonly samples: number;
  readonly words: LogKindBench;
  readonly idsAndAmounts: LogKindBench;
  readonly plantedPan: LogKindBench;
}

/** createLogger's logger without the masking hook, writing to `destination`. */
function unmaskedLogger(destination: DestinationStream): Logger {
  const options = loggerOptions('info', 'bench');
  const { streamWrite: _masking, ...hooks } = options.hooks ?? {};
  return pino({ ...options, hooks }, destination);
}

/** Milliseconds to write `lines` lines of `kind`, numbered from `from`. */
function write(logger: Logger, kind: Kind, from: number, lines: number): number {
  const start = performance.now();
  for (let n = from; n < from + lines; n++) {
    const [fields, message] = LINES[kind](n);
    logger.info(fields, message);
  }
  return performance.now() - start;
}

/** The lines pino makes for `kind`, as the hook receives them. */
function pinoLines(kind: Kind, lines: number): string[] {
  const made: string[] = [];
  write(unmaskedLogger({ write: (line: string) => made.push(line) }), kind, 0, lines);
  return made;
}

function benchKind(dir: string, kind: Kind, linesPerSample: number, samples: number): LogKindBench {
  const maskedFile = join(dir, `${kind}-masked.log`);
  const masked = createLogger({ level: 'info', name: 'bench', file: maskedFile });
  const baseline = unmaskedLogger(new RotatingFile(join(dir, `${kind}-baseline.log`)));
  const maskedMs: number[] = [];
  const baselineMs: number[] = [];
  let n = 0;
  // Untimed samples warm both up (as harness.sample); then they take turns, so drift hits both alike.
  const warmUp = Math.ceil(samples / 10);
  for (let i = -warmUp; i < samples; i++) {
    const a = write(masked, kind, n, linesPerSample);
    const b = write(baseline, kind, n, linesPerSample);
    n += linesPerSample;
    if (i < 0) continue;
    maskedMs.push(a);
    baselineMs.push(b);
  }
  masked.flush();
  const written = readFileSync(maskedFile, 'utf8');
  if (kind === 'plantedPan' && (written.includes(PAN) || !written.includes('424242******4242'))) {
    throw new Error('the log bench planted a card number and the logger did not mask it');
  }

  const lines = pinoLines(kind, linesPerSample);
  const hookMs: number[] = [];
  for (let i = -warmUp; i < samples; i++) {
    const start = performance.now();
    for (const line of lines) maskCardDataInLine(line);
    if (i >= 0) hookMs.push(performance.now() - start);
  }
  const perLineUs = (ms: readonly number[]): number => round((stats(ms).medianMs * 1000) / linesPerSample, 2);
  const maskedUs = perLineUs(maskedMs);
  const baselineUs = perLineUs(baselineMs);
  return {
    maskedUs,
    baselineUs,
    ratio: round(stats(maskedMs).medianMs / stats(baselineMs).medianMs, 2),
    hookUs: perLineUs(hookMs),
    lineBytes: Buffer.byteLength(lines[0] ?? ''),
  };
}

export function benchLog(linesPerSample = 2_000, samples = 21): LogBench {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-log-bench-'));
  try {
    return {
      linesPerSample,
      samples,
      words: benchKind(dir, 'words', linesPerSample, samples),
      idsAndAmounts: benchKind(dir, 'idsAndAmounts', linesPerSample, samples),
      plantedPan: benchKind(dir, 'plantedPan', linesPerSample, samples),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
