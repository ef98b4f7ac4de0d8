/**
 * Specification of the desktop app's packaging: electron-builder.yml and the files it names under
 * build/. The installers themselves cannot be built here (electron-builder downloads the Electron
 * runtime and the NSIS/fpm/AppImage tools), so this checks what can be checked without them: the
 * configuration against electron-builder's own schema, every file it refers to, the native
 * modules' unpacking, the udev rule against the USB id table, the icons, and a real
 * `electron-builder --linux dir` run with a stand-in for the Electron runtime, which exercises
 * the file selection, asar packing and unpacking, and extra resources exactly as a release does.
 */
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFile, listPackage } from '@electron/asar';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PINPAD_USB_IDS } from '../../drivers/transports/usb-ids.js';
import { renderUdevRules } from '../../scripts/udev-rules.js';

/** The sentinel that marks Electron's fuse wire in its binary (@electron/fuses). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/**
 * The fuses as Electron ships them, one ASCII digit each in FuseV1Options order: RunAsNode on,
 * cookie encryption off, NODE_OPTIONS on, --inspect on, asar integrity off, only-from-asar off, V8
 * snapshot off, file protocol privileges on.
 */
const SHIPPED_FUSES = '10110001';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG_FILE = join(ROOT, 'electron-builder.yml');
const SCHEMA_FILE = join(ROOT, 'node_modules/app-builder-lib/scheme.json');
const UDEV_RULES_FILE = join(ROOT, 'build/linux/60-pinbridge-pinpad.rules');
const AUTOSTART_FILE = join(ROOT, 'build/linux/pinbridge-autostart.desktop');

interface FileSet {
  readonly from: string;
  readonly to: string;
}
interface TargetSpec {
  readonly target: string;
  readonly arch?: readonly string[];
}
/** The parts of electron-builder.yml this specification reads (the schema checks the rest). */
interface BuilderConfig {
  readonly appId: string;
  readonly productName: string;
  readonly directories: { readonly buildResources: string; readonly output: string };
  readonly extraMetadata?: Readonly<Record<string, unknown>>;
  readonly files: readonly string[];
  readonly npmRebuild?: boolean;
  readonly asar?: boolean;
  readonly asarUnpack: readonly string[];
  readonly win: { readonly target: readonly TargetSpec[]; readonly icon: string };
  readonly nsis: {
    readonly oneClick: boolean;
    readonly perMachine: boolean;
    readonly createDesktopShortcut: boolean | 'always';
    readonly createStartMenuShortcut: boolean;
    readonly installerLanguages: readonly string[];
    readonly deleteAppDataOnUninstall?: boolean;
  };
  readonly linux: {
    readonly target: readonly string[];
    readonly icon: string;
    readonly executableName: string;
    readonly category: string;
    readonly synopsis: string;
    readonly maintainer: string;
    readonly extraResources: readonly FileSet[];
  };
  readonly deb: {
    readonly depends: readonly string[];
    readonly afterInstall: string;
    readonly afterRemove: string;
  };
  readonly mac: {
    readonly target: readonly TargetSpec[];
    readonly icon: string;
    readonly category: string;
    readonly hardenedRuntime: boolean;
    readonly entitlements: string;
    readonly entitlementsInherit: string;
    readonly extendInfo: Readonly<Record<string, string>>;
    readonly extraResources: readonly FileSet[];
  };
}

function loadRawConfig(): unknown {
  return parse(readFileSync(CONFIG_FILE, 'utf8')) as unknown;
}

const config = loadRawConfig() as BuilderConfig;

/** Schema errors of a configuration, as electron-builder's validator would report them. */
function schemaErrors(candidate: unknown): string[] {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
  // The schema is draft-07 with electron-builder's own `typeof` keyword: not strict. Unlike
  // electron-builder, no type coercion, so "true" where a boolean belongs is an error here.
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  if (validate(candidate)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
  );
}

/** Keys whose string values are paths of files (or directories) in the project. */
const PATH_KEYS = new Set([
  'icon',
  'afterInstall',
  'afterRemove',
  'entitlements',
  'entitlementsInherit',
  'from',
  'license',
]);

/** Every project path the configuration refers to, with where it was found. */
function referencedPaths(node: unknown, where = ''): Array<{ where: string; path: string }> {
  if (Array.isArray(node)) return node.flatMap((item: unknown, i) => referencedPaths(item, `${where}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
    PATH_KEYS.has(key) && typeof value === 'string'
      ? [{ where: `${where}.${key}`, path: value }]
      : referencedPaths(value, `${where}.${key}`),
  );
}

interface PackageJson {
  readonly name: string;
  readonly main?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Where Node would find package `name` when required from `fromDir` (undefined: not installed). */
function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    if (dir === ROOT || dir === dirname(dir)) return undefined;
  }
}

/** Project-relative directories of every installed production dependency, transitively. */
function productionPackageDirs(): string[] {
  const seen = new Set<string>();
  const queue: Array<{ name: string; from: string; optional: boolean }> = [];
  const enqueue = (pkg: PackageJson, from: string): void => {
    for (const name of Object.keys(pkg.dependencies ?? {})) queue.push({ name, from, optional: false });
    for (const name of Object.keys(pkg.optionalDependencies ?? {})) queue.push({ name, from, optional: true });
  };
  enqueue(readPackageJson(ROOT), ROOT);
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const dir = resolvePackageDir(item.name, item.from);
    if (dir === undefined) {
      if (item.optional) continue;
      throw new Error(
        `production dependency ${item.name} (needed by ${relative(ROOT, item.from) || 'the app'}) is not installed`,
      );
    }
    if (seen.has(dir)) continue;
    seen.add(dir);
    enqueue(readPackageJson(dir), dir);
  }
  return [...seen].map((dir) => relative(ROOT, dir)).sort();
}

/** The native modules (a binding.gyp at their root) among those package directories. */
function nativeModuleDirs(packageDirs: readonly string[]): string[] {
  return packageDirs.filter((dir) => existsSync(join(ROOT, dir, 'binding.gyp')));
}

/**
 * Native module directories that asarUnpack does not take out of the archive whole: their
 * package.json, loader code and compiled binary must all be unpacked, since loaders such as
 * node-gyp-build look for the binary next to the package.
 */
function modulesNotUnpacked(patterns: readonly string[], moduleDirs: readonly string[]): string[] {
  const unpacked = (path: string): boolean => patterns.some((pattern) => minimatch(path, pattern, { dot: true }));
  return moduleDirs.filter(
    (dir) => !['package.json', 'index.js', 'build/Release/addon.node'].every((file) => unpacked(`${dir}/${file}`)),
  );
}

/** Width, height and colour type of a PNG file, read from its IHDR chunk. */
function pngHeader(file: string): { width: number; height: number; colorType: number } {
  const bytes = readFileSync(file);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error(`${file} is not a PNG`);
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error(`${file} has no IHDR chunk first`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colorType: bytes.readUInt8(25) };
}

interface UdevRule {
  readonly vendorId: string;
  readonly productId?: string;
  readonly assignments: readonly string[];
}

/** The rules of a udev rules file; throws on a line that is not one of the forms we write. */
function parseUdevRules(text: string): UdevRule[] {
  const token =
    /^(?:SUBSYSTEM=="tty"|ATTRS\{idVendor\}=="([0-9a-f]{4})"|ATTRS\{idProduct\}=="([0-9a-f]{4})"|GROUP="[a-z]+"|MODE="0[0-7]{3}"|TAG\+="[a-z_]+"|ENV\{[A-Z_]+\}="[^"]*")$/;
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      let vendorId: string | undefined;
      let productId: string | undefined;
      const assignments: string[] = [];
      for (const part of line.split(', ')) {
        const match = token.exec(part);
        if (!match) throw new Error(`unexpected udev token "${part}" in: ${line}`);
        if (match[1] !== undefined) vendorId = match[1];
        else if (match[2] !== undefined) productId = match[2];
        else if (!part.startsWith('SUBSYSTEM')) assignments.push(part);
      }
      if (vendorId === undefined) throw new Error(`udev rule without a vendor id: ${line}`);
      return productId === undefined ? { vendorId, assignments } : { vendorId, productId, assignments };
    });
}

describe('electron-builder.yml', () => {
  it("is valid against electron-builder's configuration schema", () => {
    expect(schemaErrors(loadRawConfig())).toEqual([]);
  });

  it('would be rejected by that schema with a misspelt or mistyped option (the check is real)', () => {
    const raw = loadRawConfig() as Record<string, Record<string, unknown>>;
    expect(schemaErrors({ ...raw, nsis: { ...raw.nsis, perMachin: false } })).not.toEqual([]);
    expect(schemaErrors({ ...raw, mac: { ...raw.mac, hardenedRuntime: 'yes' } })).not.toEqual([]);
  });

  it('names the app com.pinbridge.agent / Pinbridge and packs the bundled dist/bundle/electron-main.js', () => {
    expect(config.appId).toBe('com.pinbridge.agent');
    expect(config.productName).toBe('Pinbridge');
    expect(readPackageJson(ROOT).main).toBe('dist/bundle/electron-main.js');
    expect(config.files).toContain('dist/**/*');
  });

  it('builds an NSIS installer for Windows that installs per user, with shortcuts, in pt-BR and English', () => {
    expect(config.win.target.map((t) => t.target)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false, createStartMenuShortcut: true });
    expect([true, 'always']).toContain(config.nsis.createDesktopShortcut);
    expect(config.nsis.installerLanguages).toEqual(expect.arrayContaining(['pt_BR', 'en_US']));
    // The journal is the store's record of its sales: an uninstall never deletes user data.
    expect(config.nsis.deleteAppDataOnUninstall).toBe(false);
  });

  it('builds an AppImage and a deb for Linux, the deb installing the udev rule through its scripts', () => {
    expect([...config.linux.target].sort()).toEqual(['AppImage', 'deb']);
    expect(config.linux.synopsis.length).toBeGreaterThan(10);
    expect(config.linux.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect(config.linux.category).toMatch(/^Office/);
    expect(config.deb.afterInstall).toBe('build/linux/after-install.sh');
    expect(config.deb.afterRemove).toBe('build/linux/after-remove.sh');
    expect(config.deb.depends).toContain('udev');
    expect(config.linux.extraResources).toContainEqual({
      from: 'build/linux/60-pinbridge-pinpad.rules',
      to: 'udev/60-pinbridge-pinpad.rules',
    });
    // after-install.sh copies the rule from there: the two must agree.
    expect(readFileSync(join(ROOT, config.deb.afterInstall), 'utf8')).toContain(
      '"$root$app_dir/resources/udev/$rule_name"',
    );
  });

  it('builds a dmg for macOS with the hardened runtime, USB and Bluetooth entitlements and a Bluetooth purpose text', () => {
    expect(config.mac.target.map((t) => t.target)).toEqual(['dmg']);
    expect(config.mac.category).toBe('public.app-category.business');
    expect(config.mac.hardenedRuntime).toBe(true);
    for (const file of [config.mac.entitlements, config.mac.entitlementsInherit]) {
      const plist = readFileSync(join(ROOT, file), 'utf8');
      const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
      expect(keys).toEqual(
        expect.arrayContaining([
          'com.apple.security.cs.allow-jit',
          'com.apple.security.device.usb',
          'com.apple.security.device.bluetooth',
        ]),
      );
    }
    expect(config.mac.extendInfo.NSBluetoothAlwaysUsageDescription).toMatch(/Bluetooth/);
    const english = readFileSync(join(ROOT, 'build/mac/en.lproj/InfoPlist.strings'), 'utf8');
    expect(english).toMatch(/"NSBluetoothAlwaysUsageDescription" = "[^"]*Bluetooth[^"]*";/);
  });

  it('says why it uses the local network, without which macOS 15+ drops its network PINPADs and printers', () => {
    expect(config.mac.extendInfo.NSLocalNetworkUsageDescription).toMatch(/rede local.*PINPAD.*impressoras/);
    const english = readFileSync(join(ROOT, 'build/mac/en.lproj/InfoPlist.strings'), 'utf8');
    expect(english).toMatch(/"NSLocalNetworkUsageDescription" = "[^"]*local network[^"]*";/);
  });

  it('has what a deb and the Windows installer need from package.json: a homepage and an author with an e-mail', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      homepage?: string;
      author?: { name?: string; email?: string };
    };
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author?.name).toBeTruthy();
    expect(pkg.author?.email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(config.linux.maintainer).toContain(pkg.author?.email ?? 'missing');
  });

  it('refers only to files that exist', () => {
    const paths = referencedPaths(loadRawConfig());
    // icons (3), deb scripts (2), entitlements (2), extra resources (2) at least.
    expect(paths.length).toBeGreaterThanOrEqual(9);
    const missing = paths.filter(({ path }) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it("packs the native modules' prebuilt N-API binaries as they are (no rebuild) and unpacks every one from the asar archive", () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.asar).not.toBe(false);
    expect(config.asarUnpack).toContain('**/*.node');
    const natives = nativeModuleDirs(productionPackageDirs());
    expect(natives).toEqual(
      expect.arrayContaining([
        'node_modules/better-sqlite3',
        'node_modules/@serialport/bindings-cpp',
        'node_modules/@stoprocent/noble',
      ]),
    );
    expect(modulesNotUnpacked(config.asarUnpack, natives)).toEqual([]);
  });

  it('would notice a native module left in the archive (the unpack check is real)', () => {
    const natives = ['node_modules/better-sqlite3', 'node_modules/@serialport/bindings-cpp'];
    const withoutSqlite = config.asarUnpack.filter((p) => !p.includes('better-sqlite3'));
    expect(modulesNotUnpacked(withoutSqlite, natives)).toEqual(['node_modules/better-sqlite3']);
  });
});

describe('the PINPAD udev rule (build/linux/60-pinbridge-pinpad.rules)', () => {
  const text = readFileSync(UDEV_RULES_FILE, 'utf8');

  it('is what scripts/udev-rules.ts generates from the current USB id table', () => {
    expect(text).toBe(renderUdevRules(PINPAD_USB_IDS));
  });

  it('is printed by `npx tsx scripts/udev-rules.ts`, the documented way to regenerate it', () => {
    const run = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/udev-rules.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(text);
  });

  it('says it is generated, and from what', () => {
    expect(text.split('\n').slice(0, 3).join('\n')).toMatch(/GENERATED by scripts\/udev-rules\.ts from PINPAD_USB_IDS/);
  });

  it('covers every vendor and product of PINPAD_USB_IDS, each with dialout 0660 and uaccess', () => {
    const rules = parseUdevRules(text);
    const uncovered = PINPAD_USB_IDS.filter(
      (entry) =>
        !rules.some(
          (rule) =>
            rule.vendorId === entry.vendorId && (rule.productId === undefined || rule.productId === entry.productId),
        ),
    );
    expect(uncovered).toEqual([]);
    for (const rule of rules) {
      expect(rule.assignments).toEqual(
        expect.arrayContaining(['GROUP="dialout"', 'MODE="0660"', 'TAG+="uaccess"', 'ENV{ID_MM_DEVICE_IGNORE}="1"']),
      );
    }
  });

  it('matches a generic vendor id only together with its product id', () => {
    const rules = parseUdevRules(renderUdevRules([{ vendorId: '1234', productId: '0101', maker: 'PAX' }]));
    expect(rules).toEqual([{ vendorId: '1234', productId: '0101', assignments: expect.any(Array) as unknown }]);
  });
});

describe('icons', () => {
  it('build/icon.png is a 512×512 PNG with transparency (electron-builder makes .ico and .icns from it)', () => {
    expect(pngHeader(join(ROOT, 'build/icon.png'))).toEqual({ width: 512, height: 512, colorType: 6 });
  });

  it('build/icons has the Linux sizes, each file as large as its name says', () => {
    const files = readdirSync(join(ROOT, config.linux.icon)).filter((f) => f.endsWith('.png'));
    const sizes = files.map((f) => Number(/^(\d+)x\1\.png$/.exec(f)?.[1] ?? Number.NaN)).sort((a, b) => a - b);
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 64, 128, 256, 512]));
    for (const file of files) {
      const side = Number(file.split('x')[0]);
      expect(pngHeader(join(ROOT, config.linux.icon, file)), file).toMatchObject({ width: side, height: side });
    }
  });

  it('all come from build/icon.svg', () => {
    expect(readFileSync(join(ROOT, 'build/icon.svg'), 'utf8')).toMatch(/<svg [^>]*viewBox="0 0 512 512"/);
  });
});

describe('the Linux autostart entry template (build/linux/pinbridge-autostart.desktop)', () => {
  it('is a desktop entry that starts Pinbridge with --autostart from the path the shell fills in', () => {
    const lines = readFileSync(AUTOSTART_FILE, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'));
    expect(lines[0]).toBe('[Desktop Entry]');
    const entry = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(lines.slice(1).every((l) => /^[A-Za-z0-9-]+(\[[A-Za-z_@]+\])?=/.test(l))).toBe(true);
    expect(entry.get('Type')).toBe('Application');
    expect(entry.get('Name')).toBe('Pinbridge');
    expect(entry.get('Exec')).toBe('@EXEC@ --autostart');
    expect(entry.get('Icon')).toBe(config.linux.executableName);
    expect(entry.get('X-GNOME-Autostart-enabled')).toBe('true');
  });
});

describe('`electron-builder --linux dir` with a stand-in Electron runtime', () => {
  let work: string;
  let resources: string;
  let asarFiles: string[];
  let build: ReturnType<typeof spawnSync>;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'pinbridge-pack-'));
    const electron = join(work, 'electron');
    const output = join(work, 'out');
    // Packed from the project itself, as on a build machine: a copy with node_modules linked in
    // makes npm (which electron-builder asks for the dependency tree) see every package as
    // extraneous when the hidden lockfile is older than the tree, and the app is packed without them.
    const main = join(ROOT, readPackageJson(ROOT).main ?? 'missing-main');
    if (!existsSync(main)) throw new Error(`${relative(ROOT, main)} is missing: run \`npm run build\` first`);
    // What electron-builder copies from an unpacked Electron distribution.
    mkdirSync(join(electron, 'resources'), { recursive: true });
    for (const file of ['electron', 'chrome-sandbox']) {
      writeFileSync(join(electron, file), '#!/bin/sh\nexit 0\n');
      chmodSync(join(electron, file), 0o755);
    }
    // Electron's fuse wire as the real binary carries it (the sentinel, wire version 1, 8 fuses in
    // their shipped states), so electron-builder flips the fuses here as in a real build.
    writeFileSync(join(electron, 'electron'), `#!/bin/sh\nexit 0\n# ${SENTINEL}\x01\x08${SHIPPED_FUSES}\n`, 'latin1');
    writeFileSync(join(electron, 'LICENSE'), 'stand-in\n');
    writeFileSync(join(electron, 'LICENSES.chromium.html'), 'stand-in\n');
    writeFileSync(join(electron, 'version'), '45.5.0\n');

    build = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/electron-builder/cli.js'),
        '--linux',
        'dir',
        `-c.electronDist=${electron}`,
        // Rebuilding needs Electron's headers from the network; the packing does not.
        '-c.npmRebuild=false',
        `-c.directories.output=${output}`,
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 180_000 },
    );
    const unpacked = readdirSync(output).find((d) => d.startsWith('linux') && d.endsWith('-unpacked')) ?? 'none';
    resources = join(output, unpacked, 'resources');
    asarFiles = existsSync(join(resources, 'app.asar'))
      ? listPackage(join(resources, 'app.asar'), { isPack: false })
      : [];
  }, 200_000);

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('packs without error', () => {
    expect(build.status, `${String(build.stdout)}\n${String(build.stderr)}`).toBe(0);
    expect(existsSync(join(dirname(resources), config.linux.executableName))).toBe(true);
  });

  it('puts the compiled app, the demo page and package.json (with desktopName) in app.asar', () => {
    expect(asarFiles).toEqual(
      expect.arrayContaining([
        '/package.json',
        `/${readPackageJson(ROOT).main ?? ''}`,
        '/demo/index.html',
        '/bin/pinbridge.js',
      ]),
    );
    const packed = JSON.parse(extractFile(join(resources, 'app.asar'), 'package.json').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(packed.desktopName).toBe('pinbridge.desktop');
  });

  it('leaves out tests, source maps, TypeScript sources, docs and native build leftovers', () => {
    const ownFiles = asarFiles.filter((f) => !f.startsWith('/node_modules/'));
    expect(ownFiles.filter((f) => /\.(map|ts|md)$/.test(f) || f.startsWith('/test'))).toEqual([]);
    expect(asarFiles.filter((f) => /^\/node_modules\/(node-gyp|prebuild-install|nan)\//.test(f))).toEqual([]);
    expect(asarFiles.filter((f) => f.startsWith('/node_modules/better-sqlite3/deps/'))).toEqual([]);
  });

  it('unpacks every native module next to the archive', () => {
    for (const dir of nativeModuleDirs(productionPackageDirs())) {
      expect(existsSync(join(resources, 'app.asar.unpacked', dir, 'package.json')), dir).toBe(true);
    }
  });

  it('carries only Linux x64 native binaries, and they load without a rebuild', () => {
    const unpacked = join(resources, 'app.asar.unpacked');
    const binaries = readdirSync(unpacked, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.node'));
    expect(binaries.length).toBeGreaterThanOrEqual(4);
    expect(binaries.filter((f) => !/prebuilds\/linux-x64[/.]/.test(f))).toEqual([]);
    expect(binaries).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/prebuilds/linux-x64.node']));
    // N-API binaries load in any Node (or Electron) of the platform: this process's Node stands in.
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        // noble's own binary holds its macOS and Windows bindings (empty on Linux, where noble
        // speaks HCI through bluetooth-hci-socket's binary), so it is not loaded here.
        `for (const binary of ${JSON.stringify(binaries.filter((f) => !f.startsWith('node_modules/@stoprocent/noble/')))}) require('./' + binary);
         const Database = require('./node_modules/better-sqlite3');
         console.log(new Database(':memory:').prepare('select sqlite_version() as v').get().v);`,
      ],
      { cwd: unpacked, encoding: 'utf8' },
    );
    expect(probe.status, probe.stderr).toBe(0);
    expect(probe.stdout).toMatch(/^3\.\d+\.\d+/);
  });

  it("flips Electron's fuses in the packed binary: no RunAsNode, NODE_OPTIONS or --inspect; cookies encrypted; the app only from a checked app.asar", async () => {
    const wire = await getCurrentFuseWire(join(dirname(resources), config.linux.executableName));
    const state = (fuse: FuseV1Options): string => String.fromCharCode(Number(wire[fuse]));
    expect(state(FuseV1Options.RunAsNode)).toBe('0');
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0');
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0');
    expect(state(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe('0');
    expect(state(FuseV1Options.EnableCookieEncryption)).toBe('1');
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1');
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1');
  });

  it('packs resources/app-update.yml for electron-updater: the generic feed and the name of its download cache', () => {
    // Without it electron-updater cannot place a download; the settings' updates.feed_url replaces the URL at run time.
    const appUpdate = readFileSync(join(resources, 'app-update.yml'), 'utf8');
    expect(appUpdate).toMatch(/^provider: generic$/m);
    expect(appUpdate).toMatch(/^url: https:\/\/updates\.pinbridge\.example\/pinbridge\/$/m);
    expect(appUpdate).toMatch(/^updaterCacheDirName: \S+$/m);
  });

  it('ships the udev rule in resources/udev, where the deb after-install script takes it from', () => {
    const shipped = join(resources, 'udev/60-pinbridge-pinpad.rules');
    expect(readFileSync(shipped, 'utf8')).toBe(readFileSync(UDEV_RULES_FILE, 'utf8'));
    expect(statSync(shipped).isFile()).toBe(true);
  });
});
