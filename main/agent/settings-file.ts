/**
 * The agent's settings file: `--settings FILE`, or `~/.pinbridge/settings.json` when it exists
 * (the desktop window writes the same file). JSON: the payment settings (PaymentSettings,
 * main/core/settings.ts) at the top level, the store as receipts print it under `receipts`
 * (ReceiptSettings), the receipt printers under `printers` (main/receipts/printers.ts) and the
 * POS API's ports and certificate under `pos` (main/pos/settings.ts), the Prometheus endpoint
 * under `metrics` (main/metrics/settings.ts).
 * Anything wrong in it stops the command with the file, the field and a sentence, before any
 * payment starts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaViolations } from '../contract/index.js';
import { resolveSettings, SettingsError, type ResolvedSettings } from '../core/settings.js';
import { RECEIPT_COPIES, type ReceiptCopy } from '../receipts/card-receipt.js';
import { printerViolations, PrintersSettings } from '../receipts/printers.js';
import { MetricsSettings } from '../metrics/settings.js';
import { PosSettings } from '../pos/settings.js';
import { ReceiptSettings } from '../receipts/settings.js';
import { defaultDataDir } from './paths.js';

export interface AgentSettings extends ResolvedSettings {
  /** The file read, or null when there was none (defaults). */
  readonly path: string | null;
  /** The store as receipts print it; null when not set (receipts cannot be made outside training mode). */
  readonly receipts: ReceiptSettings | null;
  /** The copies printed by themselves when a sale is approved or voided (default both). */
  readonly autoPrint: readonly ReceiptCopy[];
  readonly printers: PrintersSettings;
  /** Where the POS API listens (and its TLS certificate). */
  readonly pos: PosSettings;
  /** The Prometheus endpoint (off unless enabled). */
  readonly metrics: MetricsSettings;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `receipts` and `printers` sections, checked; the rest is the payment settings. */
function splitSections(
  json: unknown,
  path: string,
): { payment: unknown; receipts: ReceiptSettings | null; autoPrint: readonly ReceiptCopy[]; printers: PrintersSettings; pos: PosSettings; metrics: MetricsSettings } {
  if (!isObject(json)) return { payment: json, receipts: null, autoPrint: RECEIPT_COPIES, printers: {}, pos: {}, metrics: {} };
  const { receipts, printers, pos, metrics, ...payment } = json;
  const violations: { field: string; message: string }[] = [];
  let autoPrint: readonly ReceiptCopy[] = RECEIPT_COPIES;
  let store: ReceiptSettings | null = null;
  if (receipts !== undefined) {
    const { auto_print: auto, ...rest } = isObject(receipts) ? receipts : { auto_print: undefined };
    if (auto !== undefined) {
      if (Array.isArray(auto) && auto.every((copy) => (RECEIPT_COPIES as readonly unknown[]).includes(copy))) autoPrint = auto as ReceiptCopy[];
      else violations.push({ field: 'receipts.auto_print', message: 'must be a list of "customer" and "merchant" ([] prints nothing by itself)' });
    }
    const found = isObject(receipts) ? schemaViolations(ReceiptSettings, rest) : [{ field: '', message: 'must be an object' }];
    violations.push(...found.map((v) => ({ field: v.field === '' ? 'receipts' : `receipts.${v.field}`, message: v.message })));
    if (found.length === 0) store = rest as ReceiptSettings;
  }
  let printerSettings: PrintersSettings = {};
  if (printers !== undefined) {
    const found = schemaViolations(PrintersSettings, printers);
    violations.push(...found.map((v) => ({ field: v.field === '' ? 'printers' : `printers.${v.field}`, message: v.message })));
    if (found.length === 0) {
      printerSettings = printers as PrintersSettings;
      violations.push(...printerViolations(printerSettings));
    }
  }
  let posSettings: PosSettings = {};
  if (pos !== undefined) {
    const found = schemaViolations(PosSettings, pos);
    violations.push(...found.map((v) => ({ field: v.field === '' ? 'pos' : `pos.${v.field}`, message: v.message })));
    if (found.length === 0) posSettings = pos as PosSettings;
  }
  let metricsSettings: MetricsSettings = {};
  if (metrics !== undefined) {
    const found = schemaViolations(MetricsSettings, metrics);
    violations.push(...found.map((v) => ({ field: v.field === '' ? 'metrics' : `metrics.${v.field}`, message: v.message })));
    if (found.length === 0) metricsSettings = metrics as MetricsSettings;
  }
  if (violations.length > 0) throw new SettingsError(violations, path);
  return { payment, receipts: store, autoPrint, printers: printerSettings, pos: posSettings, metrics: metricsSettings };
}

export function defaultSettingsPath(home?: string): string {
  return join(defaultDataDir(home), 'settings.json');
}

/** Reads and validates the settings; a missing default file means the defaults. */
export function loadSettings(explicitPath: string | undefined, home?: string): AgentSettings {
  const path = explicitPath ?? defaultSettingsPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && explicitPath === undefined) {
      return { ...resolveSettings({}), path: null, receipts: null, autoPrint: RECEIPT_COPIES, printers: {}, pos: {}, metrics: {} };
    }
    throw new SettingsError([{ field: '(file)', message: missing ? 'the file does not exist' : `cannot be read (${(error as Error).message})` }], path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsError([{ field: '(file)', message: `is not valid JSON (${(error as Error).message})` }], path);
  }
  const { payment, ...sections } = splitSections(json, path);
  return { ...resolveSettings(payment, path), path, ...sections };
}
