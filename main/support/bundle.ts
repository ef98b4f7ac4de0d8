/**
 * The support bundle: one .tar.gz a store sends its support desk — the doctor's report, the recent
 * logs, the last PINPAD trace, the settings without secrets, the versions — with a manifest.json
 * naming each file, its size and its SHA-256. Every file is masked (mask.ts: card data, CPFs) and
 * then scanned (card-data-scan.ts); a file in which the scanner still finds card data stops the
 * bundle: it is not made at all, and the error names the file, never the data.
 */
import { createHash } from 'node:crypto';
import { CodedError } from '../../lib/errors.js';
import { scanText, type CardDataFinding } from './card-data-scan.js';
import { isJsonFile, maskSupportFile } from './mask.js';
import { tarGz } from './tar.js';

export type SupportBundleCode =
  'BUNDLE_HAS_CARD_DATA' | 'BUNDLE_WRITE_FAILED' | 'UPLOAD_URL_MISSING' | 'UPLOAD_NOT_CONFIRMED' | 'UPLOAD_FAILED';

export class SupportBundleError extends CodedError<SupportBundleCode> {}

/** One file of the bundle, as text (every file of a bundle is text: JSON or JSON lines). */
export interface BundleFile {
  readonly name: string;
  readonly text: string;
}

export interface ManifestEntry {
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
}

export interface Manifest {
  readonly created_at: string;
  readonly files: readonly ManifestEntry[];
}

export interface BuiltBundle {
  readonly archive: Buffer;
  readonly manifest: Manifest;
}

export interface BuildOptions {
  readonly now?: Date;
  /** The masking (default maskSupportFile); replaceable so a spec can show the scanner stops what it misses. */
  readonly mask?: (text: string, file: string) => string;
  readonly scan?: (text: string, file: string) => readonly CardDataFinding[];
}

export const MANIFEST_NAME = 'manifest.json';

type Entry = { readonly name: string; readonly data: Buffer };

function refused(name: string, finding: CardDataFinding): SupportBundleError {
  return new SupportBundleError(
    'BUNDLE_HAS_CARD_DATA',
    `card data (${finding.kind}) is still in ${name} after masking: the bundle was not written`,
  );
}

function archived(entries: readonly Entry[], now: Date): BuiltBundle {
  const manifest: Manifest = {
    created_at: now.toISOString(),
    files: entries.map((entry) => ({
      name: entry.name,
      size: entry.data.length,
      sha256: createHash('sha256').update(entry.data).digest('hex'),
    })),
  };
  const manifestEntry = { name: MANIFEST_NAME, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) };
  return { archive: tarGz([manifestEntry, ...entries], Math.floor(now.getTime() / 1000)), manifest };
}

/** Where a bundle carries a PINPAD trace, whose packets are hex. */
export const TRACE_FOLDER = 'pinpad-trace/';
const TRACE_PACKET = /"id":"([A-Z]{3})"[^\n]*?"data":"((?:[0-9a-fA-F]{2})+)"/g;
/**
 * The commands whose packets carry card data (the card read, the PIN, the chip, card data out):
 * a card-like number in any other packet is a PINPAD's serial number, a table's id, not a card.
 */
const CARD_COMMANDS: ReadonlySet<string> = new Set([
  'GCR',
  'GCX',
  'GTK',
  'GPN',
  'GOC',
  'GOX',
  'FNC',
  'FCX',
  'CEX',
  'EBX',
]);

/**
 * The scanner over a bundle's file; a trace's packets are also read back from their hex (a card
 * number there is no run of digits in the text), as the second net after the driver's masking:
 * test card numbers and track data in any packet, a card-like number in those of card commands.
 */
export function scanBundleText(text: string, file: string): CardDataFinding[] {
  const found = scanText(text, [], file);
  if (found.length > 0 || !file.startsWith(TRACE_FOLDER)) return found;
  for (const match of text.matchAll(TRACE_PACKET)) {
    const packet = scanText(Buffer.from(match[2]!, 'hex').toString('latin1'), [], file).filter(
      (finding) => finding.kind !== 'card-like number' || CARD_COMMANDS.has(match[1]!),
    );
    if (packet.length > 0) return packet.map((finding) => ({ ...finding, offset: match.index }));
  }
  return [];
}

function toolsOf(options: BuildOptions) {
  return {
    mask: options.mask ?? maskSupportFile,
    scan: options.scan ?? scanBundleText,
    now: options.now ?? new Date(),
  };
}

/** The files masked, scanned, listed in the manifest and archived; refused when card data remains. */
export function buildBundle(files: readonly BundleFile[], options: BuildOptions = {}): BuiltBundle {
  const { mask, scan, now } = toolsOf(options);
  const entries = files.map((file) => {
    const text = mask(file.text, file.name);
    const finding = scan(text, file.name)[0];
    if (finding !== undefined) throw refused(file.name, finding);
    return { name: file.name, data: Buffer.from(text, 'utf8') };
  });
  return archived(entries, now);
}

/** The masking and scanning of one slice at most before the event loop gets a turn (≈ 10 ms of CPU). */
export const SLICE_CHARS = 128 * 1024;

/** `text` in pieces of about `size` characters, each ending at a line's end (card data never spans lines). */
export function lineSlices(text: string, size: number): string[] {
  const slices: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = at + size;
    if (end < text.length) {
      const newline = text.indexOf('\n', end);
      end = newline === -1 ? text.length : newline + 1;
    }
    slices.push(text.slice(at, end));
    at = end;
  }
  return slices;
}

/**
 * buildBundle for a process that has other work: the running agent, whose payments must not wait
 * for megabytes of logs being masked. The same masking and scanning, a slice of lines at a time,
 * the event loop served between slices; the same archive.
 */
export async function buildBundleInSlices(
  files: readonly BundleFile[],
  options: BuildOptions = {},
): Promise<BuiltBundle> {
  const { mask, scan, now } = toolsOf(options);
  const entries: Entry[] = [];
  for (const file of files) {
    const parts: string[] = [];
    // A JSON document is masked whole (it is small: the doctor's report, the versions), to stay JSON.
    for (const slice of isJsonFile(file.name) ? [file.text] : lineSlices(file.text, SLICE_CHARS)) {
      const text = mask(slice, file.name);
      const finding = scan(text, file.name)[0];
      if (finding !== undefined) throw refused(file.name, finding);
      parts.push(text);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    entries.push({ name: file.name, data: Buffer.from(parts.join(''), 'utf8') });
  }
  return archived(entries, now);
}
