/**
 * The payment settings file: `--settings FILE`, or `~/.pinbridge/settings.json` when it exists
 * (the desktop window writes the same file). JSON in the shape of PaymentSettings
 * (main/core/settings.ts); anything wrong in it stops the command with the file, the field and a
 * sentence, before any payment starts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveSettings, SettingsError, type ResolvedSettings } from '../core/settings.js';
import { defaultDataDir } from './paths.js';

export function defaultSettingsPath(home?: string): string {
  return join(defaultDataDir(home), 'settings.json');
}

/** Reads and validates the settings; a missing default file means the defaults. */
export function loadSettings(explicitPath: string | undefined, home?: string): ResolvedSettings & { readonly path: string | null } {
  const path = explicitPath ?? defaultSettingsPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && explicitPath === undefined) return { ...resolveSettings({}), path: null };
    throw new SettingsError([{ field: '(file)', message: missing ? 'the file does not exist' : `cannot be read (${(error as Error).message})` }], path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsError([{ field: '(file)', message: `is not valid JSON (${(error as Error).message})` }], path);
  }
  return { ...resolveSettings(json, path), path };
}
