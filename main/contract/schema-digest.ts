/**
 * A schema's fingerprint: how a check compiled at build time (compiled-checks.ts) is found again
 * for the schema object the running code holds. Taken from the schema's whole JSON text — with
 * the source of any function in it (a refinement), so that two schemas differing only there do not
 * share a check — hashed to 64 bits (two 32-bit FNV-1a passes with different offsets) and its
 * length. A schema edited since the checks were compiled has another fingerprint and is checked
 * by TypeBox's compiler at run time, as if it had none.
 */

const FNV_PRIME = 0x01000193;

function fnv1a(text: string, offset: number): number {
  let hash = offset >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash >>> 0;
}

const hex = (value: number): string => value.toString(16).padStart(8, '0');

/** The JSON text a fingerprint is taken from (functions as their source). */
export function schemaText(schema: object): string {
  return JSON.stringify(schema, (_key, value: unknown) =>
    typeof value === 'function' ? `function:${String(value)}` : value,
  );
}

export function schemaDigest(schema: object): string {
  const text = schemaText(schema);
  return `${hex(fnv1a(text, 0x811c9dc5))}${hex(fnv1a(text, 0x050c5d1f))}-${text.length}`;
}
