/**
 * The effective settings: the checkout's own file with the remote document's `settings` merged
 * over it, object by object (the remote value wins at each leaf; an array is a leaf, replaced
 * whole). The leaves the document sets are the fields it governs: the window shows them locked and
 * operator.saveSettings refuses to change them.
 */
import type { SettingsViolation } from '../core/settings.js';
import { settingsViolation } from '../core/settings-violations.js';

export type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Fields a remote document may never set: its own section (it could point the agent at another
 * URL), the checkout's place in the chain (`fleet`: the scope the document itself is checked
 * against, so it would re-scope itself, and move the checkout's telemetry labels and rollout
 * place), and those holding secrets (a document is served and kept in the clear).
 */
export const NEVER_REMOTE: readonly string[] = [
  'remote_settings',
  'fleet',
  'telemetry.bearer_token',
  'telemetry.headers',
];

/** `remote` merged over `local`, neither changed. */
export function mergeSettings(local: Json, remote: Json): Json {
  const merged: Json = { ...local };
  for (const [key, value] of Object.entries(remote)) {
    const mine = merged[key];
    merged[key] = isObject(value) && isObject(mine) ? mergeSettings(mine, value) : value;
  }
  return merged;
}

/** The dotted paths of the leaves `settings` sets (an empty object is a leaf too: it sets nothing but is named). */
export function governedPaths(settings: Json, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    const path = `${prefix}${key}`;
    if (isObject(value) && Object.keys(value).length > 0) paths.push(...governedPaths(value, `${path}.`));
    else paths.push(path);
  }
  return paths;
}

/** The governed paths that are NEVER_REMOTE fields or lie under one. */
export function forbiddenPaths(paths: readonly string[]): string[] {
  return paths.filter((path) => NEVER_REMOTE.some((field) => path === field || path.startsWith(`${field}.`)));
}

function valueAt(json: Json, path: string): unknown {
  let value: unknown = json;
  for (const key of path.split('.')) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

function setAt(json: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = json;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!isObject(next)) {
      if (value === undefined) return;
      node[key] = {};
    } else node[key] = { ...next };
    node = node[key] as Json;
  }
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** Removes the objects on `path` left empty by removing its leaf, unless the local file has them. */
function pruneEmpty(json: Json, path: string, local: Json): void {
  const keys = path.split('.');
  for (let depth = keys.length - 1; depth > 0; depth -= 1) {
    const parentPath = keys.slice(0, depth).join('.');
    const parent = valueAt(json, parentPath);
    if (!isObject(parent) || Object.keys(parent).length > 0 || valueAt(local, parentPath) !== undefined) return;
    const holder = depth === 1 ? json : valueAt(json, keys.slice(0, depth - 1).join('.'));
    if (isObject(holder)) delete holder[keys[depth - 1]!];
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export const GOVERNED_CASHIER_MESSAGE = (version: number): string =>
  `Este campo é definido pela configuração da rede (versão ${version}) e não pode ser alterado aqui.`;

/**
 * What a save from the window may write while a document governs fields: a governed field sent
 * with the local file's value or the document's (the window shows the latter) keeps the local
 * file's value — the file never takes the remote one — and one sent with any other value is a
 * GOVERNED_REMOTELY violation.
 */
export function guardGoverned(
  submitted: Json,
  local: Json,
  governing: { readonly version: number; readonly settings: Json },
): { json: Json; violations: SettingsViolation[] } {
  const json = structuredClone(submitted);
  const violations: SettingsViolation[] = [];
  for (const path of governedPaths(governing.settings)) {
    const sent = valueAt(submitted, path);
    const mine = valueAt(local, path);
    if (same(sent, mine) || same(sent, valueAt(governing.settings, path))) {
      setAt(json, path, mine);
      if (mine === undefined) pruneEmpty(json, path, local);
    } else
      violations.push(
        settingsViolation(
          path,
          'GOVERNED_REMOTELY',
          `is set by the chain's remote settings (version ${governing.version}) and cannot be changed here`,
          GOVERNED_CASHIER_MESSAGE(governing.version),
        ),
      );
  }
  return { json, violations };
}
