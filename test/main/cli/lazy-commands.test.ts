/**
 * `pinbridge` loads only the command it runs (issue 35): `--version`, `--help` and a mistyped
 * command load no command's module, `pinbridge sandbox` the sandbox's and not the agent's — read
 * from a trace of the modules the real bin loads, not from timings. And the help stays whole: the
 * root help made without loading the commands is the one they make loaded, and each command's own
 * help comes out the same whichever way it is asked for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../main/cli/command-list.js';
import { buildProgram, COMMAND_MODULES, type RegisterCommand } from '../../../main/cli/main.js';
import type { CommandName } from '../../../main/cli/command-list.js';
import type { CliIo } from '../../../main/cli/io.js';
import { runMain } from '../../helpers/cli.js';
import { moduleGroup, modulesLoadedBy } from '../../helpers/module-trace.js';

const BIN = fileURLToPath(new URL('../../../bin/pinbridge.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'pinbridge-lazy-'));

afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The modules `pinbridge <args>` loaded (URLs), run to its end or, `untilReady`, stopped after its ready line. */
const loadedBy = (args: readonly string[], untilReady = false): Promise<string[]> =>
  modulesLoadedBy([BIN, ...args], { untilReady, env: { HOME: home } });

/** What the CLI's entry alone is made of: the bin, main/cli's own small modules, the version, commander. */
const ENTRY_GROUPS = new Set([
  'bin/pinbridge.js',
  'main/cli',
  'main/version.js',
  'lib/errors.js',
  'commander',
  'node:',
]);

describe('what pinbridge loads', () => {
  it.each([[['--version']], [['--help']], [[]], [['sandbx']]])(
    '`pinbridge %j` loads no command, nothing of the agent, the sandbox or the drivers, and no package but commander',
    async (args) => {
      const loaded = await loadedBy(args);
      expect(loaded.some((url) => url.endsWith('/main/cli/main.js'))).toBe(true);
      expect(loaded.filter((url) => url.includes('/main/cli/commands/'))).toEqual([]);
      expect([...new Set(loaded.map(moduleGroup))].filter((group) => !ENTRY_GROUPS.has(group))).toEqual([]);
    },
  );

  it('`pinbridge sandbox` loads the sandbox, and not the agent, the POS API, the engine, the PINPAD drivers, the API client, the OpenAPI generator or TypeBox’s compiler', async () => {
    const loaded = await loadedBy(['sandbox', '--port', '0'], true);
    // Schemas are compiled as requests come (Ajv's, and TypeBox's for the contract's own checks).
    expect(loaded.filter((url) => url.includes('/typebox/build/compile/'))).toEqual([]);
    // fastify brings fast-json-stringify's serializer runtime; its compiler comes with the first answer.
    expect(loaded.filter((url) => url.endsWith('/fast-json-stringify/index.js'))).toEqual([]);
    const groups = new Set(loaded.map(moduleGroup));
    expect(groups).toContain('main/sandbox');
    expect(groups).toContain('fastify');
    const notForTheSandbox = [
      'main/agent',
      'main/pos',
      'main/core',
      'main/pinpad',
      'main/receipts',
      'main/api',
      'main/doctor',
      'drivers/abecs',
      'drivers/simulator',
      'drivers/transports',
      'drivers/printers',
      'undici',
      'ws',
      'serialport',
      '@serialport/stream',
      '@fastify/swagger',
      'yaml',
      // Ajv comes with the first request (and with fast-json-stringify's compiler, at the first answer).
      'ajv',
    ];
    expect(notForTheSandbox.filter((group) => groups.has(group))).toEqual([]);
  });
});

describe('the help, with the commands loaded only when run', () => {
  const io: CliIo = { stdout: () => {}, stderr: () => {}, env: {}, signal: new AbortController().signal };
  const everyCommand = async (): Promise<Map<CommandName, RegisterCommand>> =>
    new Map(await Promise.all(COMMAND_NAMES.map(async (name) => [name, await COMMAND_MODULES[name]()] as const)));

  it('`pinbridge --help` is what it is with every command loaded', async () => {
    const { code, stdout } = await runMain(['--help']);
    expect(code).toBe(0);
    expect(stdout).toBe(buildProgram(io, await everyCommand()).helpInformation());
  });

  it.each(COMMAND_NAMES)('the help of `%s` is whole, asked with --help or with `pinbridge help`', async (name) => {
    // Its help as the command loaded from the start writes it (texts added after the options included).
    let whole = '';
    const program = buildProgram({ ...io, stdout: (text) => void (whole += text) }, await everyCommand());
    program.commands.find((command) => command.name() === name)!.outputHelp();
    const asOption = await runMain([name, '--help']);
    const asCommand = await runMain(['help', name]);
    expect(asOption).toEqual({ code: 0, stdout: whole, stderr: '' });
    expect(asCommand).toEqual(asOption);
  });

  it('a mistyped option is reported by the command itself, loaded', async () => {
    const { code, stderr } = await runMain(['sandbox', '--prot', '0']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "pinbridge: unknown option '--prot'\n(Did you mean --port?) (see 'pinbridge sandbox --help')\n",
    );
  });
});
