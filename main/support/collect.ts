/**
 * What goes into a support bundle, read from this computer: the recent logs (bounded), the newest
 * PINPAD trace, the settings without secrets and the versions. The doctor's report is the
 * caller's (it runs the checks). Anything that cannot be read is said in the bundle rather than
 * stopping it: a support bundle is most wanted when something is broken.
 */
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { arch, release, type } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { logFilePath } from '../paths.js';
import { VERSION } from '../version.js';
import { defaultSettingsPath, readSettingsJson } from '../settings/settings-file.js';
import type { BundleFile } from './bundle.js';
import { redactSettings } from './redact-settings.js';

/** The logs a bundle carries at most, newest first (the log rotates at 5 MB). */
export const DEFAULT_LOG_BYTES = 8 * 1024 * 1024;

export interface CollectOptions {
  readonly home?: string;
  readonly settingsPath?: string;
  readonly logBytes?: number;
  /** A trace file (`pinbridge pinpad trace --out`) to carry. */
  readonly tracePath?: string;
}

function filesByAge(dir: string): string[] {
  try {
    return readdirSync(dir)
      .map((name) => join(dir, name))
      .filter((path) => statSync(path).isFile())
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  } catch {
    return [];
  }
}

/** The last `bytes` of a file, from the first whole line. */
function tail(path: string, bytes: number): string {
  const size = statSync(path).size;
  const start = Math.max(0, size - bytes);
  const buffer = Buffer.alloc(size - start);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  const text = buffer.toString('utf8');
  return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
}

/** The log folder's files, newest first, until `budget` bytes. */
export function recentLogs(logDir: string, budget: number): { files: BundleFile[]; notes: string[] } {
  const files: BundleFile[] = [];
  const notes: string[] = [];
  let left = budget;
  for (const path of filesByAge(logDir)) {
    if (left <= 0) {
      notes.push(`${basename(path)} left out: the bundle carries the newest ${budget} bytes of logs`);
      continue;
    }
    try {
      const text = tail(path, left);
      left -= Buffer.byteLength(text);
      files.push({ name: `logs/${basename(path)}`, text });
    } catch (error) {
      notes.push(`${basename(path)} could not be read: ${(error as Error).message}`);
    }
  }
  return { files, notes };
}

function pinpadOfTrace(text: string): unknown {
  try {
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { pinpad?: unknown };
    return header.pinpad;
  } catch {
    return undefined;
  }
}

/** Every file of the bundle but the doctor's report. */
export function collectSupportFiles(options: CollectOptions = {}): BundleFile[] {
  const logDir = dirname(logFilePath(options.home));
  const logs = recentLogs(logDir, options.logBytes ?? DEFAULT_LOG_BYTES);
  const files: BundleFile[] = [...logs.files];
  const notes = [...logs.notes];
  let pinpad: unknown;
  if (options.tracePath !== undefined) {
    try {
      const text = readFileSync(options.tracePath, 'utf8');
      pinpad = pinpadOfTrace(text);
      files.push({ name: `pinpad-trace/${basename(options.tracePath)}`, text });
    } catch (error) {
      notes.push(`the trace ${options.tracePath} could not be read: ${(error as Error).message}`);
    }
  }
  const settingsPath = options.settingsPath ?? defaultSettingsPath(options.home);
  let settings: unknown;
  try {
    const json = readSettingsJson(settingsPath);
    settings =
      json === undefined
        ? { file: settingsPath, exists: false }
        : { file: settingsPath, settings: redactSettings(json) };
  } catch (error) {
    settings = { file: settingsPath, error: (error as Error).message };
  }
  files.push({ name: 'settings.json', text: `${JSON.stringify(settings, null, 2)}\n` });
  const versions = {
    agent: VERSION,
    node: process.versions.node,
    electron: process.versions.electron ?? null,
    os: { type: type(), release: release(), arch: arch(), platform: process.platform },
    pinpad: pinpad ?? null,
    notes,
  };
  files.push({ name: 'versions.json', text: `${JSON.stringify(versions, null, 2)}\n` });
  return files;
}
