/**
 * One road to the PINPAD: Pinbridge (everything under main/) asks a PINPAD for things through the
 * driver's `Pinpad` methods — readCard, goOnChip, menu, loadTables… — never by running a command
 * codec itself with `pinpad.execute(gcxCommand, …)`. The methods are the driver's public surface;
 * `execute` stays for technicians' tools and the specs of the wire.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `import { gcxCommand } from '…/drivers/abecs/commands/gcx.js'`: a codec as a value, not a type. */
const CODEC_IMPORT = /^import\s+(?!type\b)\{[^}]*\b[a-z]{3}Command\b[^}]*\}\s+from\s+'[^']*drivers\/abecs\/commands\//m;
const EXECUTE_CALL = /\.execute\(\s*[a-z]{3}Command\b/;

describe('the road from main/ to a PINPAD', () => {
  const files = sources(join(ROOT, 'main')).map((path) => ({
    file: relative(ROOT, path),
    text: readFileSync(path, 'utf8'),
  }));

  it('runs no command codec itself', () => {
    expect(files.filter(({ text }) => EXECUTE_CALL.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it('imports no command codec as a value (types of requests and results are fine)', () => {
    expect(files.filter(({ text }) => CODEC_IMPORT.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it('would see one that did', () => {
    expect(EXECUTE_CALL.test('await this.pinpad.execute(gcxCommand, request, options);')).toBe(true);
    expect(CODEC_IMPORT.test("import { gcxCommand, type GcxResult } from '../../drivers/abecs/commands/gcx.js';")).toBe(
      true,
    );
    expect(CODEC_IMPORT.test("import type { GcxResult } from '../../drivers/abecs/commands/gcx.js';")).toBe(false);
  });
});
