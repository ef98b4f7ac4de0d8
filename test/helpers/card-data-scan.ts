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
 * The first three nets are main/support/card-data-scan.ts's (the support bundle runs them too);
 * this file adds the corpus and the artifacts folder.
 */
import { appendFileSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { compacted, scanText, type CardDataFinding } from '../../main/support/card-data-scan.js';
import { CORPUS_CARD_NUMBERS } from '../fixtures/card-data-corpus.js';

export { compacted, scanText, type CardDataFinding };

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
