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
import { maskSupportText } from './mask.js';
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
  /** The masking (default maskSupportText); replaceable so a spec can show the scanner stops what it misses. */
  readonly mask?: (text: string) => string;
  readonly scan?: (text: string, file: string) => readonly CardDataFinding[];
}

export const MANIFEST_NAME = 'manifest.json';

/** The files masked, scanned, listed in the manifest and archived; refused when card data remains. */
export function buildBundle(files: readonly BundleFile[], options: BuildOptions = {}): BuiltBundle {
  const mask = options.mask ?? maskSupportText;
  const scan = options.scan ?? ((text: string, file: string) => scanText(text, [], file));
  const now = options.now ?? new Date();
  const entries = files.map((file) => {
    const text = mask(file.text);
    const finding = scan(text, file.name)[0];
    if (finding !== undefined) {
      throw new SupportBundleError(
        'BUNDLE_HAS_CARD_DATA',
        `card data (${finding.kind}) is still in ${file.name} after masking: the bundle was not written`,
      );
    }
    return { name: file.name, data: Buffer.from(text, 'utf8') };
  });
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
