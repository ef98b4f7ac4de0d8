/**
 * What goes into a support bundle, read from this computer: the recent logs (bounded), the newest
 * PINPAD trace (the one given, else the newest the agent kept in ~/.pinbridge/traces/:
 * trace-folder.ts), the settings without secrets and the versions. The doctor's report is the
 * caller's (it runs the checks). Anything that cannot be read is said in the bundle rather than
 * stopping it: a support bundle is most wanted when something is broken.
 */
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { arch, release, type } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { logFilePath, tracesDir } from '../paths.js';
import { VERSION } from '../version.js';
import { defaultSettingsPath, readSettingsJson } from '../settings/settings-file.js';
import type { BundleFile } from './bundle.js';
import { redactSettings } from './redact-settings.js';
import { newestTrace } from './trace-folder.js';

/** The logs a bundle carries at most, newest first (the log rotates at 5 MB). */
export const DEFAULT_LOG_BYTES = 8 * 1024 * 1024;

export interface CollectOptions {
  readonly home?: string;
  readonly settingsPath?: string;
  readonly logBytes?: number;
  /** A trace file (`pinbridge pinpad trace --out`) to carry (default: the newest of ~/.pinbridge/traces/). */
  readonly tracePath?: string;
  /** The trace itself (the running agent's open connection, from memory): carried instead of any file. */
  readonly trace?: { readonly name: string; readonly text: string };
  /** The log files to carry (default: every file of ~/.pinbridge/logs/): the running agent names its own. */
  readonly logFiles?: readonly string[];
  /** Log lines the log file could not take (a full disk), kept in memory by the running agent. */
  readonly unwrittenLogLines?: readonly string[];
}

function filesOf(dir: string): string[] {
  try {
    return readdirSync(dir).map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** The regular files among `paths`, newest first; those that cannot be read are left out. */
function filesByAge(paths: readonly string[]): string[] {
  const found: { path: string; mtime: number }[] = [];
  for (const path of paths) {
    try {
      const stat = statSync(path);
      if (stat.isFile()) found.push({ path, mtime: stat.mtimeMs });
    } catch {
      // Gone or unreadable: nothing to carry.
    }
  }
  return found.sort((a, b) => b.mtime - a.mtime).map((file) => file.path);
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

/** The log files (a folder's, or those named), newest first, until `budget` bytes. */
export function recentLogs(logs: string | readonly string[], budget: number): { files: BundleFile[]; notes: string[] } {
  const files: BundleFile[] = [];
  const notes: string[] = [];
  let left = budget;
  for (const path of filesByAge(typeof logs === 'string' ? filesOf(logs) : logs)) {
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
  const logs = recentLogs(
    options.logFiles ?? dirname(logFilePath(options.home)),
    options.logBytes ?? DEFAULT_LOG_BYTES,
  );
  const files: BundleFile[] = [...logs.files];
  const notes = [...logs.notes];
  const unwritten = options.unwrittenLogLines ?? [];
  if (unwritten.length > 0)
    files.push({
      name: 'logs/not-written.log',
      text: unwritten.map((line) => line.replace(/\n$/, '')).join('\n') + '\n',
    });
  let pinpad: unknown;
  const traces = tracesDir(options.home);
  const tracePath = options.tracePath ?? newestTrace(traces);
  if (options.trace !== undefined) {
    pinpad = pinpadOfTrace(options.trace.text);
    files.push({ name: `pinpad-trace/${options.trace.name}`, text: options.trace.text });
  } else if (tracePath === undefined) notes.push(`no PINPAD trace: none given and none kept in ${traces}`);
  else {
    try {
      const text = readFileSync(tracePath, 'utf8');
      pinpad = pinpadOfTrace(text);
      files.push({ name: `pinpad-trace/${basename(tracePath)}`, text });
    } catch (error) {
      notes.push(`the trace ${tracePath} could not be read: ${(error as Error).message}`);
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
