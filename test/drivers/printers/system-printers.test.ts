/** The operating system's printers from CUPS's lpstat, with a stand-in lpstat that answers as CUPS does. */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSystemPrinters } from '../../../drivers/printers/system-printers.js';

function fakeLpstat(script: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pinbridge-lpstat-')), 'lpstat');
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('listSystemPrinters', () => {
  it('names every destination and marks the default one', async () => {
    const lpstat = fakeLpstat(
      'case "$1" in -e) printf "Recibos_80mm\\nEscritorio\\n";; -d) echo "system default destination: Escritorio";; esac',
    );
    expect(await listSystemPrinters({ lpstat })).toEqual([
      { name: 'Recibos_80mm', isDefault: false },
      { name: 'Escritorio', isDefault: true },
    ]);
  });

  it('is empty without CUPS: no lpstat, or one that fails', async () => {
    expect(await listSystemPrinters({ lpstat: join(tmpdir(), 'no-such-lpstat') })).toEqual([]);
    expect(
      await listSystemPrinters({ lpstat: fakeLpstat('echo "lpstat: No destinations added." >&2; exit 1') }),
    ).toEqual([]);
  });
});
