/**
 * The client as a POS developer gets it: `npm pack` of client/ (its own build, its own
 * package.json), installed from the tarball into a fresh project, then client/README.md's own
 * code run verbatim — the Node program against a real agent (pos-rig), the TypeScript example
 * type-checked with the project's tsc. The package must carry only its build, README and
 * package.json, and depend on nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../main/version.js';
import { posRig, type PosRig } from '../main/pos/pos-rig.js';

const run = promisify(execFile);
const CLIENT_DIR = join(PACKAGE_ROOT, 'client');
const README = readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8');
const NPM_FLAGS = ['--no-audit', '--no-fund', '--loglevel=error'];

/** The fenced code blocks of a language in the README, in order. */
function codeBlocks(language: string): string[] {
  return [...README.matchAll(new RegExp(`^\`\`\`${language}\\n(.*?)^\`\`\`$`, 'gms'))].map((match) => match[1]!);
}

interface PackedFile {
  readonly path: string;
}
interface PackResult {
  readonly filename: string;
  readonly files: readonly PackedFile[];
}

let work: string;
let project: string;
let tarball: string;
let packed: PackResult;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pinbridge-client-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work, ...NPM_FLAGS], {
    cwd: CLIENT_DIR,
  });
  packed = (JSON.parse(stdout) as PackResult[])[0]!;
  tarball = join(work, packed.filename);
  project = join(work, 'pos');
  await run('mkdir', [project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'a-pos', version: '1.0.0', private: true, type: 'module' }),
  );
  // Nothing to fetch: the client has no dependencies, so the tarball is all npm installs.
  await run('npm', ['install', tarball, ...NPM_FLAGS], { cwd: project });
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the @pinbridge/client package', () => {
  it('carries its compiled modules and declarations, the README and package.json — no sources, no maps, no build info', () => {
    const paths = packed.files.map((file) => file.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/client.js',
        'dist/protocol.d.ts',
      ]),
    );
    expect(
      paths.filter(
        (path) => !(path === 'README.md' || path === 'package.json' || /^dist\/[a-z-]+\.(js|d\.ts)$/.test(path)),
      ),
    ).toEqual([]);
  });

  it('is versioned as the agent, and depends on nothing', () => {
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', '@pinbridge', 'client', 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    const agent = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(manifest).toMatchObject({
      name: '@pinbridge/client',
      version: agent.version,
      type: 'module',
      sideEffects: false,
    });
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies'])
      expect(manifest[field], field).toBeUndefined();
    // The fresh project got the client and nothing else.
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@pinbridge']);
  });

  it("runs the README's Node program, as written, against a running agent: it charges 12,34 and prints the approval", async () => {
    const [program] = codeBlocks('js');
    expect(program).toContain("from '@pinbridge/client'");
    const rig: PosRig = await posRig();
    try {
      // Paired beforehand (the program's first run asks the cashier for the code on stdin).
      const paired = await rig.paired('Caixa do README');
      writeFileSync(join(project, 'pinbridge-token.txt'), paired.token!);
      writeFileSync(join(project, 'readme-node.mjs'), program!);
      const { stdout, stderr } = await run(process.execPath, ['readme-node.mjs'], {
        cwd: project,
        env: { ...process.env, PINBRIDGE_URL: rig.server.url },
        timeout: 60_000,
      });
      expect(stderr).toBe('');
      expect(stdout).toMatch(/^approved 411111\*{6}1111 NSU \S+$/m);
      expect(
        rig.rig.engine.list().items.filter((item) => item.amount === 1234 && item.status === 'approved'),
      ).toHaveLength(1);
    } finally {
      await rig.close();
    }
  }, 90_000);

  it("loads the README's browser import in Node ≥ 22 (global WebSocket) without `ws`", async () => {
    const browserImport = codeBlocks('js')[1]!
      .split('\n')
      .find((line) => line.startsWith('import '));
    expect(browserImport).toBe("import { PinbridgeClient } from '@pinbridge/client';");
    writeFileSync(
      join(project, 'import.mjs'),
      `${browserImport}\nconsole.log(typeof PinbridgeClient, new PinbridgeClient().state);\n`,
    );
    const { stdout } = await run(process.execPath, ['import.mjs'], { cwd: project });
    expect(stdout.trim()).toBe('function idle');
  });

  it("type-checks the README's TypeScript example against the installed declarations, and rejects a mistyped sale", async () => {
    const [example] = codeBlocks('ts');
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        include: ['*.ts'],
      }),
    );
    writeFileSync(join(project, 'readme.ts'), example!);
    const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', project], { cwd: project })).resolves.toMatchObject({ stdout: '' });

    // The check is real: amounts are centavos as integers, not the cashier's text.
    writeFileSync(join(project, 'wrong.ts'), example!.replace('amount: 1234', "amount: '12,34'"));
    const failed = await run(process.execPath, [tsc, '-p', project], { cwd: project }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed).toMatch(/wrong\.ts\(\d+,\d+\): error TS2322/);
    rmSync(join(project, 'wrong.ts'));
  }, 60_000);
});
