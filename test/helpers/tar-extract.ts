/** A .tar.gz read back by the system's tar (GNU tar, bsdtar): the files it holds, by name. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function extractTarGz(archive: Buffer): { names: string[]; files: Map<string, Buffer> } {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-untar-'));
  const file = join(dir, 'archive.tar.gz');
  writeFileSync(file, archive);
  const names = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const out = join(dir, 'out');
  execFileSync('mkdir', [out]);
  execFileSync('tar', ['-xzf', file, '-C', out]);
  const files = new Map(filesUnder(out).map((path) => [relative(out, path), readFileSync(path)]));
  return { names, files };
}
