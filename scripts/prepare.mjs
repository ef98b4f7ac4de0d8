// Runs after `npm install` / `npm ci` (the package's `prepare` script):
// 1. compiles the TypeScript sources to dist/ and bundles the agent into dist/bundle/
//    (scripts/bundle.mjs; the `pinbridge` command runs from there);
// 2. fetches the Electron runtime when this machine may download it. Electron's own install
//    script is disabled in package.json (`allowScripts`) because a failed download would fail the
//    whole install; here a failure only means Pinbridge runs headless. Set
//    ELECTRON_SKIP_BINARY_DOWNLOAD=1 to skip the download (offline machines, CI).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * TypeScript 7's native compiler (the `typescript7` dev dependency, as `npm run build` runs it),
 * or undefined where dev dependencies were left out (`--omit=dev`). Its package exports no
 * `bin/tsc`, so the path is taken from beside its package.json.
 */
function typescriptCompiler() {
  try {
    return join(dirname(require.resolve('typescript7/package.json')), 'bin', 'tsc');
  } catch {
    return undefined;
  }
}

// The agent, the POS client package (client/dist, which the agent serves at /client/), then the window's scripts.
const tsc = typescriptCompiler();
if (tsc === undefined) {
  console.log(
    'prepare: TypeScript is not installed (dev dependencies omitted); not compiling, dist/ is used as it is.',
  );
} else {
  for (const project of ['tsconfig.build.json', 'client/tsconfig.json', 'renderer/tsconfig.json']) {
    const build = spawnSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const bundle = spawnSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), 'bundle.mjs')], {
    stdio: 'inherit',
  });
  if (bundle.status !== 0) process.exit(bundle.status ?? 1);
}

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log(
    'prepare: ELECTRON_SKIP_BINARY_DOWNLOAD is set; the desktop window is unavailable, `npm start` runs headless.',
  );
} else {
  let installer;
  try {
    installer = join(dirname(require.resolve('electron/package.json')), 'install.js');
  } catch {
    installer = undefined;
  }
  if (installer) {
    const result = spawnSync(process.execPath, [installer], { stdio: 'inherit', timeout: 180_000 });
    if (result.status !== 0) {
      console.warn('prepare: the Electron runtime could not be downloaded; `npm start` will run headless.');
    }
  }
}
