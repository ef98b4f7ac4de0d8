/**
 * The client as a POS developer gets it, following client/README.md word for word: its install
 * commands run verbatim (`npm pack ./client` in the checkout, `npm install` of the tarball in a
 * POS project beside it, with npm offline: the package needs nothing from a registry), then its
 * code run verbatim against a real agent (pos-rig) — the Node program through the README's own
 * commands, pairing on stdin with the code as the window shows it, approved and then declined
 * with the reason; docs/pos-api.md's Node program beside it, which must not pair again; the
 * browser import; the TypeScript example type-checked against the installed declarations. The
 * package carries only its build, README and package.json, and depends on nothing. Every code
 * block of the README is run here (the browser snippet in Chromium: test/docs/browser-examples).
 */
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../main/version.js';
import { fencedBlocks, type FencedBlock } from '../docs/markdown.js';
import { posRig, type PosRig } from '../main/pos/pos-rig.js';

const run = promisify(execFile);
const CLIENT_DIR = join(PACKAGE_ROOT, 'client');
const README = fencedBlocks(readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8'));
const README_TEXT = readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8');
const GUIDE = fencedBlocks(readFileSync(join(PACKAGE_ROOT, 'docs', 'pos-api.md'), 'utf8'));
const MANIFEST = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
const TARBALL = `pinbridge-client-${String(MANIFEST.version)}.tgz`;
/** npm as on a machine without the registry: anything it would fetch fails the install. */
const OFFLINE_NPM = {
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

function blocks(language: string, from: readonly FencedBlock[] = README): FencedBlock[] {
  return from.filter((block) => block.language === language);
}

/** The commands of an sh block, one a line (comments and blank lines left out). */
function commands(block: FencedBlock): string[] {
  return block.body
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

interface Ran {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** What was typed at a prompt ("> " at the end of the output). */
  readonly typed: string[];
}

/**
 * Runs a command line as a developer's shell would, in `cwd`. A cashier sits at the terminal:
 * when the output ends in the prompt "> ", `answer()` is typed and Enter pressed.
 */
function shell(line: string, cwd: string, env: NodeJS.ProcessEnv, answer?: () => string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    const typed: string[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${line} did not finish in 60 s; stdout: ${stdout}; stderr: ${stderr}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.endsWith('> ')) {
        if (answer === undefined) {
          child.kill('SIGKILL');
          reject(new Error(`${line} asked for input: ${stdout}`));
          return;
        }
        const text = answer();
        typed.push(text);
        child.stdin.write(`${text}\n`);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, typed });
    });
  });
}

let work: string;
let project: string;

beforeAll(async () => {
  // The README's layout: the Pinbridge checkout and the POS project side by side.
  work = mkdtempSync(join(tmpdir(), 'pinbridge-client-readme-'));
  symlinkSync(PACKAGE_ROOT, join(work, 'pinbridge'));
  project = join(work, 'my-pos');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'my-pos', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  const [install] = blocks('sh');
  for (const line of commands(install!)) {
    const result = await shell(line, work, OFFLINE_NPM);
    expect(result.code, `${line}: ${result.stderr}`).toBe(0);
  }
}, 180_000);

afterAll(() => {
  // npm pack wrote the tarball into the checkout, as the README says.
  rmSync(join(PACKAGE_ROOT, TARBALL), { force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('client/README.md, followed word for word', () => {
  it('installs the client from the tarball `npm pack ./client` makes, with npm offline, and records it in the POS project', () => {
    expect(existsSync(join(project, 'node_modules', '@pinbridge', 'client', 'dist', 'index.js'))).toBe(true);
    const pos = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pos.dependencies).toEqual({ '@pinbridge/client': `file:../pinbridge/${TARBALL}` });
    expect(README_TEXT).toContain(`"@pinbridge/client": "file:../pinbridge/${TARBALL}"`);
    // docs/pos-api.md tells the same two commands.
    const guide = readFileSync(join(PACKAGE_ROOT, 'docs', 'pos-api.md'), 'utf8').replace(/\s+/g, ' ');
    expect(guide).toContain('`npm pack ./client` in the Pinbridge checkout');
    expect(guide).toContain(`\`npm install ../pinbridge/${TARBALL}\` in your POS project`);
    // The fresh project got the client and nothing else.
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@pinbridge']);
  });

  it('runs every code block it shows: two command blocks, the Node program, the browser snippet, the TypeScript example', () => {
    expect(README.map((block) => block.language)).toEqual(['sh', 'js', 'sh', 'js', 'ts']);
    // The registry install is told as what works once published, never shown as a command to type.
    for (const block of blocks('sh')) expect(block.body).not.toContain('npm install @pinbridge/client');
  });

  it("runs the Node program with the README's commands against a running agent: pairs once (the code typed as the window shows it), charges and prints the approval, then the decline with its reason", async () => {
    const [program] = blocks('js');
    const [, runs] = blocks('sh');
    expect(program!.body).toContain("from '@pinbridge/client'");
    expect(README_TEXT).toContain('Save it as `pay.mjs`');
    writeFileSync(join(project, 'pay.mjs'), program!.body);
    const rig: PosRig = await posRig();
    try {
      const env = { PINBRIDGE_URL: rig.server.url };
      // As the window shows it: "422 105".
      const cashier = (): string => {
        const { code } = rig.announced.at(-1)!;
        return `${code.slice(0, 3)} ${code.slice(3)}`;
      };
      const [first, second] = commands(runs!);
      expect([first, second]).toEqual(['node pay.mjs', 'node pay.mjs 10051']);

      const paying = await shell(first!, project, env, cashier);
      expect(paying.stderr).toBe('');
      expect(paying.code).toBe(0);
      expect(paying.typed).toHaveLength(1);
      expect(paying.stdout).toContain('Digite aqui o código de 6 dígitos mostrado na janela do Pinbridge.\n> ');
      expect(paying.stdout).toMatch(/^approved 411111\*{6}1111 NSU \d+ \(autorização \d+\)$/m);
      expect(readFileSync(join(project, 'pinbridge-token.txt'), 'utf8')).toMatch(/^pbt_/);

      const declined = await shell(second!, project, env); // no prompt: the token is kept
      expect(declined.stderr).toBe('');
      expect(declined.code).toBe(0);
      const promised = /`(declined: [^`]+)`/.exec(README_TEXT)?.[1];
      expect(promised).toBe('declined: Saldo insuficiente (CARD_DECLINED, insufficient_funds)');
      expect(declined.stdout.trim().split('\n').at(-1)).toBe(promised);
      expect(declined.stdout).not.toMatch(/NSU/);

      const sales = rig.rig.engine.list().items;
      expect(sales.filter((item) => item.amount === 1234 && item.status === 'approved')).toHaveLength(1);
      expect(sales.filter((item) => item.amount === 10051 && item.status === 'declined')).toHaveLength(1);

      // docs/pos-api.md's Node program, in the same project: the same token file, so no second
      // pairing (no one is there to type a code: a prompt fails the spec).
      const guideNode = GUIDE.filter((block) => block.language === 'js' && block.section.includes('in Node'));
      expect(guideNode).toHaveLength(1);
      writeFileSync(join(project, 'pos-api-example.mjs'), guideNode[0]!.body);
      const again = await shell('node pos-api-example.mjs', project, env);
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        /^approved confirmed \{ brand: 'visa', masked_pan: '411111\*{6}1111', entry_mode: 'chip' \}$/m,
      );
      expect(rig.clients.list().filter((client) => client.revokedAt === null)).toHaveLength(1);
    } finally {
      await rig.close();
    }
  }, 120_000);

  it("loads the README's browser import in Node ≥ 22 (global WebSocket) without `ws`", async () => {
    const browserImport = blocks('js')[1]!
      .body.split('\n')
      .find((line) => line.startsWith('import '));
    expect(browserImport).toBe("import { PinbridgeClient } from '@pinbridge/client';");
    writeFileSync(
      join(project, 'import.mjs'),
      `${browserImport}\nconsole.log(typeof PinbridgeClient, new PinbridgeClient().state);\n`,
    );
    const { stdout } = await run(process.execPath, ['import.mjs'], { cwd: project });
    expect(stdout.trim()).toBe('function idle');
  });

  it("type-checks the README's TypeScript example (and docs/pos-api.md's wss:// line) against the installed declarations, and rejects a mistyped sale", async () => {
    const [example] = blocks('ts');
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
    writeFileSync(join(project, 'readme.ts'), example!.body);
    // docs/pos-api.md's wss:// line is a fragment (its token and onToken are the page's): compiled
    // with them declared, so an option it shows that the client does not take fails here.
    const wss = GUIDE.filter((block) => block.language === 'js' && block.section.startsWith('Browsers'));
    expect(wss).toHaveLength(1);
    writeFileSync(
      join(project, 'guide-wss.ts'),
      "import { PinbridgeClient } from '@pinbridge/client';\n" +
        'declare const token: string | null;\ndeclare const onToken: (token: string | null) => void;\n' +
        wss[0]!.body,
    );
    const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', project], { cwd: project })).resolves.toMatchObject({ stdout: '' });

    // The check is real: amounts are centavos as integers, not the cashier's text.
    writeFileSync(join(project, 'wrong.ts'), example!.body.replace('amount: 1234', "amount: '12,34'"));
    const failed = await run(process.execPath, [tsc, '-p', project], { cwd: project }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed).toMatch(/wrong\.ts\(\d+,\d+\): error TS2322/);
    rmSync(join(project, 'wrong.ts'));
  }, 60_000);
});

describe('the @pinbridge/client package', () => {
  it('carries its compiled modules and declarations, the README and package.json — no sources, no maps, no build info', async () => {
    const { stdout } = await run('tar', ['-tzf', join(PACKAGE_ROOT, TARBALL)]);
    const paths = stdout
      .trim()
      .split('\n')
      .map((path) => path.replace(/^package\//, ''))
      .sort();
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

  it('is ready to publish on its own: versioned as the agent, public, typed ES module exports, a license, built before packing — and depends on nothing', () => {
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', '@pinbridge', 'client', 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    const agent = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(manifest).toMatchObject({
      name: '@pinbridge/client',
      version: agent.version,
      type: 'module',
      sideEffects: false,
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      publishConfig: { access: 'public' },
      scripts: { prepack: expect.stringContaining('tsc') as string },
    });
    expect(manifest.license).toEqual(expect.any(String));
    expect(manifest.private).toBeUndefined();
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies'])
      expect(manifest[field], field).toBeUndefined();
  });
});
