/**
 * The core speaks through ports that own their types (docs/architecture.md): it imports nothing
 * from the layers above it — the ABECS sale adapter, the agent, the POS server, the shell.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const CORE = join(ROOT, 'main/core');
const ABOVE = [
  'main/pinpad',
  'main/agent',
  'main/pos',
  'main/app',
  'main/cli',
  'main/doctor',
  'main/metrics',
  'drivers/abecs',
  'drivers/simulator',
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => relative(ROOT, resolve(file, '..', match[1]!)));
}

describe('main/core', () => {
  it('imports nothing from the sale adapter, the agent, the POS server, the shell or the ABECS driver', () => {
    const offending = sources(CORE).flatMap((file) =>
      importsOf(file)
        .filter((target) => ABOVE.some((layer) => target === layer || target.startsWith(`${layer}/`)))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('imports nothing from the payments API client: the PaymentsPort owns its types and failure kinds', () => {
    const offending = sources(CORE).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === 'main/api' || target.startsWith('main/api/'))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
