import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (beside main/ or dist/main/). */
export const VERSION: string = (() => {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'pinbridge' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
})();
