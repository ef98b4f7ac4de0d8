/**
 * Vitest global setup: gives the run one artifacts folder (logs, journals) and, after every test
 * file has finished, scans it for card data. A finding fails the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACTS_ENV, scanArtifacts } from '../helpers/card-data-scan.js';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-artifacts-'));
  // Test workers and the agents they start as child processes inherit it.
  process.env[ARTIFACTS_ENV] = dir;
  return () => {
    const { files, findings } = scanArtifacts(dir);
    if (findings.length > 0) {
      const lines = findings.slice(0, 20).map((f) => `  ${f.file} @${f.offset}: ${f.kind} (${f.hint})`);
      throw new Error(`Card data found in test logs or journals (kept in ${dir}):\n${lines.join('\n')}`);
    }
    console.log(`card-data scan: ${files} log and journal files, no PAN, track, PIN block or cryptogram`);
    rmSync(dir, { recursive: true, force: true });
  };
}
