// Preflight: the system tools the specs (`npm test`) or the benchmarks (`npm run bench`) drive, checked
// before anything is built — `node scripts/preflight.mjs test|bench`. Without it a machine that lacks
// one fails minutes later deep inside a spec (SOCAT_NOT_FOUND in the second benchmark). When something
// is missing it prints ONE line on stderr naming what and the command that installs it on Debian/Ubuntu
// (the package names .ci/run installs) and on macOS (Homebrew), and exits 1; it skips nothing. When all
// is there it prints nothing. No dependencies and no child processes: it answers in milliseconds.
//
// What it checks, and why each:
// - socat: the pseudo-terminal pairs of the serial specs and of `pinbridge simulator --pty`
//   (drivers/simulator/socat.ts). Checked rather than replaced: Node has no pseudo-terminal API, and
//   making ptys without socat means a native module (node-pty) — a compiled dependency in the product
//   for what one system package does, and the specs would no longer run the code the simulator runs.
// - Chromium at /usr/bin/chromium exactly: the one path every spec and script launches
//   (test/drivers/printers/chromium.ts, scripts/icons.ts). A chromium found anywhere else (on PATH,
//   Ubuntu's snap in /snap/bin, macOS's /Applications/Chromium.app) would pass here and fail there.
// - DejaVu Sans Mono: the monospace font with every Portuguese letter the receipts render in.
// - certutil (NSS): trusts a test CA in a Chromium profile (the wss:// spec).
// - makensis (NSIS): compiles the Windows installer's PATH code in a spec.
// - Prometheus at /usr/bin/prometheus (Debian's package, which brings /usr/bin/promtool too): the
//   agents' telemetry is pushed to a real one, and the alerting rules are checked and unit-tested
//   with promtool (test/helpers/prometheus.ts launches that path); the fleet benchmark pushes to it too.
// - openssl: the throwaway CA and client certificates of the mutual TLS specs.
// The benchmarks need socat (the PINPAD round trips over a pty) and Prometheus (the fleet benchmark).
//
// No variable turns it off: a spec file run alone (`npx vitest run test/…`) does not run it, and
// `npm test` without these tools would only fail later.
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * `command`: an executable looked up on PATH; `files`: any one of these paths. `apt` is the Debian
 * package (as in .ci/run); `brew` a Homebrew formula, `cask` a Homebrew cask, `noBrew` why there is none.
 */
const TOOLS = [
  { name: 'socat', command: 'socat', apt: 'socat', brew: 'socat', for: ['test', 'bench'] },
  {
    name: '/usr/bin/chromium',
    files: ['/usr/bin/chromium'],
    apt: 'chromium',
    noBrew:
      'no Homebrew package gives /usr/bin/chromium, the path the specs launch (its --cask chromium goes to /Applications)',
    for: ['test'],
  },
  {
    name: 'DejaVu Sans Mono',
    files: [
      '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
      join(homedir(), 'Library/Fonts/DejaVuSansMono.ttf'),
      '/Library/Fonts/DejaVuSansMono.ttf',
    ],
    apt: 'fonts-dejavu-core',
    cask: 'font-dejavu',
    for: ['test'],
  },
  { name: 'certutil', command: 'certutil', apt: 'libnss3-tools', brew: 'nss', for: ['test'] },
  { name: 'makensis', command: 'makensis', apt: 'nsis', brew: 'makensis', for: ['test'] },
  { name: 'openssl', command: 'openssl', apt: 'openssl', brew: 'openssl@3', for: ['test'] },
  {
    name: '/usr/bin/prometheus',
    files: ['/usr/bin/prometheus'],
    apt: 'prometheus',
    noBrew: "Homebrew's prometheus is not at /usr/bin/prometheus and /usr/bin/promtool, the paths the specs launch",
    for: ['test', 'bench'],
  },
];

const purpose = process.argv[2];
if (purpose !== 'test' && purpose !== 'bench') {
  console.error('usage: node scripts/preflight.mjs test|bench');
  process.exit(2);
}

function usable(path, mode) {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

const searchPath = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
const present = (tool) =>
  tool.command === undefined
    ? tool.files.some((file) => usable(file, constants.R_OK))
    : searchPath.some((dir) => usable(join(dir, tool.command), constants.X_OK));

const missing = TOOLS.filter((tool) => tool.for.includes(purpose) && !present(tool));
if (missing.length > 0) {
  const names = (key) => missing.flatMap((tool) => (tool[key] === undefined ? [] : [tool[key]])).join(' ');
  const mac = [
    names('brew') && `brew install ${names('brew')}`,
    names('cask') && `brew install --cask ${names('cask')}`,
  ].filter(Boolean);
  const macos = [mac.join(' && '), names('noBrew')].filter(Boolean).join('; ');
  console.error(
    `preflight: missing ${missing.map((tool) => tool.name).join(', ')} — ` +
      `Debian/Ubuntu: sudo apt-get install ${names('apt')}; macOS: ${macos}`,
  );
  process.exit(1);
}
