/**
 * "No card data at rest", checked after the whole test run: every log and journal the tests
 * leave in the artifacts folder is searched for card data. Four nets:
 * - the exact sensitive values the agent handled (PIN blocks, encrypted card data, chip data with
 *   its cryptogram), which the tests record as they pass through the payments port;
 * - the simulator's test card numbers, bare or as track 2 ("PAN=YYMM…") and track 1 ("B PAN^…");
 * - any 13–19 digit run that starts like a card number (2–6) and passes the Luhn check;
 * - the card-data corpus's numbers (test/fixtures/card-data-corpus.ts) in any disguise: in the
 *   text as read, and once more with every digit of any script made ASCII and everything that
 *   is neither a letter nor a digit taken out (JSON's \t, \n and \uXXXX read as what they
 *   stand for), and as base64 or hex — so a disguised number the specs sent that slipped to disk
 *   is found.
 */
import { appendFileSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { luhnValid, normaliseDigits } from '../../drivers/card-number.js';
import { TEST_CARDS } from '../../drivers/simulator/index.js';
import { CORPUS_CARD_NUMBERS } from '../fixtures/card-data-corpus.js';

export const ARTIFACTS_ENV = 'PINBRIDGE_TEST_ARTIFACTS';
const SECRETS_DIR = 'secrets';

/** Where tests leave logs and journals for the final scan (a temp folder outside a full run). */
export function artifactsDir(): string {
  const dir = process.env[ARTIFACTS_ENV] ?? join(tmpdir(), 'pinbridge-test-artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Records values that must never be found in any artifact (kept apart from what is scanned). */
export function recordSecrets(values: ReadonlyArray<string | undefined | null>): void {
  const kept = values.filter((value): value is string => typeof value === 'string' && value.length >= 12);
  if (kept.length === 0) return;
  const dir = join(artifactsDir(), SECRETS_DIR);
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `${process.pid}.txt`), kept.map((value) => `${value.toUpperCase()}\n`).join(''));
}

export interface CardDataFinding {
  readonly file: string;
  readonly kind:
    | 'recorded secret'
    | 'test card number'
    | 'track data'
    | 'card-like number'
    | 'corpus card number'
    | 'data in a disk reserve';
  /** Where in the file, and the first six characters of what was found (never the whole value). */
  readonly offset: number;
  readonly hint: string;
}

// Several test cards share a PAN (the same card swiped or inserted): each number once.
const TEST_PANS: readonly string[] = [...new Set(Object.values(TEST_CARDS).map((card) => card.pan))];
const TRACK2 = /(?<![0-9A-Za-z])[2-6]\d{12,18}[=D]\d{4}/g;
const TRACK1 = /B[2-6]\d{12,18}\^/g;
const CARD_LIKE = /(?<![0-9A-Za-z])[2-6]\d{12,18}(?![0-9A-Za-z])/g;

/**
 * The text with JSON's escapes read as what they stand for, every digit of any script made ASCII,
 * and everything that is neither a letter nor a digit taken out (binary bytes but kept as a break): "5555.5555\t５５５５…" reads
 * "55555555５５５５…" → "5555555555554444".
 */
export function compacted(text: string): string {
  // In slices: one regular expression over megabytes of a journal's pages overflows V8's stack.
  const parts: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + SLICE);
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end++;
    const unescaped = text
      .slice(at, end)
      // Binary (a NUL, a control byte, bytes that are no UTF-8) separates values in a database
      // page, where no one reads them as one number: kept as a break.
      .replace(BINARY, 'x')
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\[bfnrt]/g, ' ');
    parts.push(normaliseDigits(unescaped).replace(/[^\p{L}\p{N}]+/gu, ''));
    at = end;
  }
  return parts.join('');
}

const SLICE = 64 * 1024;
/** Control characters but the whitespace ones (tab, line breaks), and U+FFFD (bytes that are no UTF-8). */
const BINARY = /(?:(?![\t\n\v\f\r])[\p{Cc}\uFFFD])+/gu;

/**
 * What a corpus number looks like encoded: its hex (either case), and its base64 at each of the
 * three alignments it may start at, without the characters its neighbours share.
 */
function encodings(pan: string): string[] {
  const base64 = [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), Buffer.from(pan)]).toString('base64');
    return encoded.slice(shift === 0 ? 0 : 4, -4);
  });
  const hex = Buffer.from(pan).toString('hex');
  return [...base64, hex, hex.toUpperCase()];
}

const CORPUS_NEEDLES: readonly { readonly pan: string; readonly encoded: readonly string[] }[] =
  CORPUS_CARD_NUMBERS.map((pan) => ({ pan, encoded: encodings(pan) }));

/** The corpus's numbers in `text` (read as UTF-8), in any disguise. */
function corpusFindings(text: string, file: string): CardDataFinding[] {
  const compact = compacted(text);
  return CORPUS_NEEDLES.flatMap(({ pan, encoded }) => {
    const at = compact.indexOf(pan);
    if (at >= 0) return [{ file, kind: 'corpus card number' as const, offset: at, hint: `${pan.slice(0, 6)}…` }];
    const inEncoded = encoded.map((needle) => text.indexOf(needle)).find((offset) => offset >= 0);
    return inEncoded === undefined
      ? []
      : [{ file, kind: 'corpus card number' as const, offset: inEncoded, hint: `${pan.slice(0, 6)}… (encoded)` }];
  });
}

/** Findings in one text (files are read as latin1, so SQLite pages and WAL frames scan too). */
export function scanText(text: string, secrets: readonly string[], file = '(text)'): CardDataFinding[] {
  const findings: CardDataFinding[] = [];
  const add = (kind: CardDataFinding['kind'], offset: number, value: string): void => {
    findings.push({ file, kind, offset, hint: `${value.slice(0, 6)}…` });
  };
  const upper = text.toUpperCase();
  for (const secret of secrets) {
    const at = upper.indexOf(secret);
    if (at >= 0) add('recorded secret', at, secret);
  }
  for (const pan of TEST_PANS) {
    const at = text.indexOf(pan);
    if (at >= 0) add('test card number', at, pan);
  }
  for (const pattern of [TRACK2, TRACK1]) {
    for (const match of text.matchAll(pattern)) add('track data', match.index, match[0]);
  }
  for (const match of text.matchAll(CARD_LIKE)) {
    if (luhnValid(match[0]) && !TEST_PANS.includes(match[0])) add('card-like number', match.index, match[0]);
  }
  return findings;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Scans every file in the artifacts folder (except the recorded secrets themselves). */
export function scanArtifacts(dir: string): { files: number; findings: CardDataFinding[] } {
  const secretsDir = join(dir, SECRETS_DIR);
  let secrets: string[] = [];
  try {
    secrets = [
      ...new Set(filesUnder(secretsDir).flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))),
    ];
  } catch {
    // No test recorded a secret.
  }
  const files = filesUnder(dir).filter((file) => !file.startsWith(secretsDir));
  const findings = files.flatMap((file) => {
    const bytes = readFileSync(file);
    // A journal's disk reserve (core/journal/disk-reserve.ts) is megabytes of zeros: checked as
    // such at memcmp speed rather than searched — anything but zeros in it is a finding.
    if (file.endsWith('.reserve')) {
      if (bytes.equals(Buffer.alloc(bytes.length))) return [];
      return [
        {
          file: relative(dir, file),
          offset: bytes.findIndex((b) => b !== 0),
          kind: 'data in a disk reserve' as const,
          hint: 'not all zeros',
        },
      ];
    }
    const name = relative(dir, file);
    return [...scanText(bytes.toString('latin1'), secrets, name), ...corpusFindings(bytes.toString('utf8'), name)];
  });
  return { files: files.length, findings };
}
