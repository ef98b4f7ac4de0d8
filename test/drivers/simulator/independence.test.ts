/**
 * The simulated PINPAD reads the protocol with its own wire layer (drivers/simulator/wire), written
 * from the spec: it imports nothing from the host's ABECS driver (drivers/abecs), types included,
 * so a misreading in the host cannot be shared by the simulator that tests it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const SIMULATOR = join(ROOT, 'drivers/simulator');
const HOST = 'drivers/abecs';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: `import … from`, `export … from`, `import '…'`, `import('…')`. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!));
}

function targetsOf(file: string): string[] {
  return specifiersOf(file)
    .filter((specifier) => specifier.startsWith('.') || specifier.startsWith('/'))
    .map((specifier) => relative(ROOT, resolve(file, '..', specifier)));
}

describe('drivers/simulator', () => {
  it('has sources to check, the wire layer among them', () => {
    const files = sources(SIMULATOR).map((file) => relative(ROOT, file));
    expect(files).toContain('drivers/simulator/wire/frame.ts');
    expect(files).toContain('drivers/simulator/session.ts');
  });

  it('imports nothing from the host ABECS driver (drivers/abecs), type imports and re-exports included', () => {
    const offending = sources(SIMULATOR).flatMap((file) =>
      targetsOf(file)
        .filter((target) => target === HOST || target.startsWith(`${HOST}/`))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('reaches outside itself only for transports, errors, logging, crypto and card-number helpers', () => {
    const allowed = [
      'drivers/transports/',
      'drivers/crypto/',
      'drivers/errors.js',
      'drivers/log.js',
      'drivers/card-number.js',
    ];
    const outside = sources(SIMULATOR).flatMap((file) =>
      targetsOf(file)
        .filter((target) => !target.startsWith('drivers/simulator/'))
        .filter((target) => !allowed.some((prefix) => target === prefix || target.startsWith(prefix)))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(outside).toEqual([]);
  });
});
