import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package version, read once from package.json (beside main/ or dist/main/). */
export const VERSION: string = (() => {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'pinbridge' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
})();

/** The package's root folder (where package.json is), from main/ or dist/main/. */
export const PACKAGE_ROOT: string = (() => {
  for (const candidate of ['../', '../../']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`${candidate}package.json`, import.meta.url), 'utf8')) as {
        name?: string;
      };
      if (pkg.name === 'pinbridge') return fileURLToPath(new URL(candidate, import.meta.url));
    } catch {
      // try the next location
    }
  }
  return process.cwd();
})();
