// `npm run lint`: the type check (TypeScript 7, the agent's and the window's projects), ESLint,
// Prettier's check and the layer check (.dependency-cruiser.cjs), each run whatever the ones before
// it found, so that a formatting slip never hides a layer violation; the layer check with each
// broken rule's advice (err-long). Ends with one line naming what failed. The type check is here
// because some tables are complete by type: an ABECS command declared without its trace rule
// (drivers/abecs/command-table.ts) fails it, and so fails lint.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const tsc = (project) => [
  process.execPath,
  join(ROOT, 'node_modules', 'typescript7', 'bin', 'tsc'),
  '-p',
  project,
  '--noEmit',
];

/** The checks, in the order they run: a name and the command. */
export const CHECKS = [
  { name: 'types', command: tsc('tsconfig.json') },
  { name: 'window types', command: tsc('renderer/tsconfig.json') },
  { name: 'eslint', command: [bin('eslint'), '.'] },
  { name: 'prettier', command: [bin('prettier'), '--check', '.'] },
  {
    name: 'layers',
    command: [bin('depcruise'), '.', '--config', '.dependency-cruiser.cjs', '--output-type', 'err-long'],
  },
];

/**
 * Runs every check, one after the other (each keeps both cores busy on its own), its output as it
 * comes; resolves with the names of those that failed (a command that cannot start fails too).
 */
export async function runChecks(
  checks = CHECKS,
  { cwd = ROOT, log = (line) => process.stderr.write(`${line}\n`) } = {},
) {
  const failed = [];
  for (const { name, command } of checks) {
    log(`lint: ${name}`);
    const [program, ...args] = command;
    const code = await new Promise((resolve) => {
      const child = spawn(program, args, { cwd, stdio: 'inherit' });
      child.on('error', (error) => {
        log(`lint: ${name} could not start: ${error.message}`);
        resolve(1);
      });
      child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    if (code !== 0) failed.push(name);
  }
  const passed = checks.map(({ name }) => name).filter((name) => !failed.includes(name));
  log(
    failed.length === 0
      ? `lint: all ${checks.length} checks passed (${passed.join(', ')})`
      : `lint: ${failed.join(', ')} failed${passed.length === 0 ? '' : `; ${passed.join(', ')} passed`}`,
  );
  return failed;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const failed = await runChecks();
  process.exitCode = failed.length === 0 ? 0 : 1;
}
