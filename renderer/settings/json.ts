/**
 * The settings file as JSON the page reads and edits in place: a value at a path, set or removed
 * with the sections on the way, and shown as a field's text.
 */

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function valueAt(root: Json | null, path: readonly string[]): unknown {
  let node: unknown = root;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return node;
}

/** Sets (or, for undefined, removes) a value, creating the sections on the way; a section left empty by a removal goes too. */
export function setAt(root: Json, path: readonly string[], value: unknown): void {
  const parents: Json[] = [];
  let node = root;
  for (const key of path.slice(0, -1)) {
    parents.push(node);
    const next = node[key];
    if (isObject(next)) node = next;
    else if (value === undefined) return;
    else node = node[key] = {};
  }
  const last = path[path.length - 1] ?? '';
  if (value !== undefined) {
    node[last] = value;
    return;
  }
  delete node[last];
  for (let depth = parents.length - 1; depth >= 0; depth--) {
    const parent = parents[depth];
    const key = path[depth] ?? '';
    if (parent === undefined || !isObject(parent[key]) || Object.keys(parent[key]).length > 0) break;
    delete parent[key];
  }
}

/** A file value as the text a field shows (anything not a string or a number shows blank). */
export function shownText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';
}
