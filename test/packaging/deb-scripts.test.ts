/**
 * Specification of the deb's maintainer scripts (build/linux/after-install.sh, after-remove.sh).
 * They are templates: electron-builder substitutes its macros the way renderTemplate() below does,
 * then fpm makes them the package's postinst and postrm. They are run here for real, with /bin/sh,
 * against a scratch root directory ($DPKG_ROOT, dpkg's own convention for installs into another
 * root) and a PATH where udevadm and unshare are stand-ins that record their calls.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const AFTER_INSTALL = join(ROOT, 'build/linux/after-install.sh');
const AFTER_REMOVE = join(ROOT, 'build/linux/after-remove.sh');
const RULES = join(ROOT, 'build/linux/60-pinbridge-pinpad.rules');

/** The macros electron-builder (FpmTarget's writeConfigFile) fills in for these scripts. */
const MACROS: Readonly<Record<string, string>> = {
  executable: 'pinbridge',
  sanitizedProductName: 'Pinbridge',
  productFilename: 'Pinbridge',
};

/** electron-builder's substitution: every $-brace-letters word is a macro, an unknown one fails. */
function renderTemplate(text: string, macros: Readonly<Record<string, string>> = MACROS): string {
  return text.replace(/\$\{([a-zA-Z]+)\}/g, (_match, name: string) => {
    const value = macros[name];
    if (value === undefined) throw new Error(`Macro ${name} is not defined`);
    return value;
  });
}

function syntaxCheck(script: string): SpawnSyncReturns<string> {
  return spawnSync('/bin/sh', ['-n'], { input: script, encoding: 'utf8' });
}

describe('the deb scripts as files', () => {
  for (const file of [AFTER_INSTALL, AFTER_REMOVE]) {
    const name = file.slice(ROOT.length + 1);

    it(`${name} is a POSIX sh script with set -e that passes sh -n, before and after macro substitution`, () => {
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith('#!/bin/sh\n')).toBe(true);
      expect(text).toMatch(/^set -e$/m);
      expect(syntaxCheck(text).status, syntaxCheck(text).stderr).toBe(0);
      const rendered = renderTemplate(text);
      expect(syntaxCheck(rendered).status, syntaxCheck(rendered).stderr).toBe(0);
      expect(rendered).toContain("app_dir='/opt/Pinbridge'");
    });
  }

  it('a shell variable written with braces would stop the packaging (why the scripts avoid them)', () => {
    expect(() => renderTemplate('echo ${USER}')).toThrow(/Macro USER is not defined/);
    expect(syntaxCheck('if then fi').status).not.toBe(0);
  });
});

describe('after-install.sh and after-remove.sh run against a scratch root', () => {
  let work: string;
  let root: string;
  let bin: string;
  let calls: string;
  let afterInstall: string;
  let afterRemove: string;
  const installedRule = (): string => join(root, 'lib/udev/rules.d/60-pinbridge-pinpad.rules');

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'pinbridge-deb-'));
    root = join(work, 'root');
    bin = join(work, 'bin');
    calls = join(work, 'calls.log');
    // What the deb unpacks before postinst runs: the app in /opt with the rule in its resources.
    mkdirSync(join(root, 'opt/Pinbridge/resources/udev'), { recursive: true });
    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    copyFileSync(RULES, join(root, 'opt/Pinbridge/resources/udev/60-pinbridge-pinpad.rules'));
    writeFileSync(join(root, 'opt/Pinbridge/chrome-sandbox'), '');
    writeFileSync(join(root, 'opt/Pinbridge/pinbridge'), '');
    // Only these tools exist: the real coreutils the scripts use and two recording stand-ins.
    mkdirSync(bin);
    for (const tool of ['cat', 'chmod', 'cp', 'grep', 'id', 'install', 'ln', 'mkdir', 'readlink', 'rm', 'tr']) {
      const found = spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(found, join(bin, tool));
    }
    for (const tool of ['udevadm', 'unshare']) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "$CALLS_LOG"\nexit $STUB_EXIT\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    appendFileSync(calls, '');
    afterInstall = join(work, 'postinst');
    afterRemove = join(work, 'postrm');
    writeFileSync(afterInstall, renderTemplate(readFileSync(AFTER_INSTALL, 'utf8')));
    writeFileSync(afterRemove, renderTemplate(readFileSync(AFTER_REMOVE, 'utf8')));
  });

  afterEach(() => {
    rmSync(work, { recursive: true, force: true });
  });

  function run(script: string, args: readonly string[], stubExit = 0): SpawnSyncReturns<string> {
    return spawnSync('/bin/sh', [script, ...args], {
      encoding: 'utf8',
      env: { PATH: bin, DPKG_ROOT: root, CALLS_LOG: calls, STUB_EXIT: String(stubExit) },
    });
  }

  function callLog(): string[] {
    return readFileSync(calls, 'utf8').split('\n').filter(Boolean);
  }

  it('installs the udev rule, reloads udev, links the executable and prints the dialout note', () => {
    const result = run(afterInstall, ['configure', '']);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(installedRule(), 'utf8')).toBe(readFileSync(RULES, 'utf8'));
    expect(statSync(installedRule()).mode & 0o777).toBe(0o644);
    expect(callLog()).toEqual(
      expect.arrayContaining([
        'udevadm control --reload-rules',
        'udevadm trigger --subsystem-match=tty --action=change',
      ]),
    );
    expect(readlinkSync(join(root, 'usr/bin/pinbridge'))).toBe('/opt/Pinbridge/pinbridge');
    expect(result.stdout).toContain('sudo usermod -aG dialout $USER');
    expect(result.stdout).toMatch(/log out and back in/);
    expect(result.stdout).toMatch(/saia da sessão e entre de novo/);
    expect(result.stdout).toContain('installed and loaded');
  });

  it('can run again on an installed system (upgrade, reconfigure) with the same result', () => {
    expect(run(afterInstall, ['configure', '']).status).toBe(0);
    writeFileSync(installedRule(), '# an older rule\n');
    const again = run(afterInstall, ['configure', '0.1.0']);
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(installedRule(), 'utf8')).toBe(readFileSync(RULES, 'utf8'));
    expect(readlinkSync(join(root, 'usr/bin/pinbridge'))).toBe('/opt/Pinbridge/pinbridge');
  });

  it('still succeeds where udev is not running (container, chroot): the rule applies from the next boot', () => {
    const result = run(afterInstall, ['configure', ''], 1);
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(installedRule())).toBe(true);
    expect(result.stdout).toContain('applies from the next boot');
    expect(callLog()).not.toContain('udevadm trigger --subsystem-match=tty --action=change');
  });

  it('fails the install when the rule is missing from the package, instead of hiding it', () => {
    rmSync(join(root, 'opt/Pinbridge/resources/udev/60-pinbridge-pinpad.rules'));
    expect(run(afterInstall, ['configure', '']).status).not.toBe(0);
  });

  it('after-remove keeps the rule on upgrade and removes it with the package', () => {
    expect(run(afterInstall, ['configure', '']).status).toBe(0);
    const upgrade = run(afterRemove, ['upgrade', '0.2.0']);
    expect(upgrade.status, upgrade.stderr).toBe(0);
    expect(existsSync(installedRule())).toBe(true);

    const remove = run(afterRemove, ['remove']);
    expect(remove.status, remove.stderr).toBe(0);
    expect(existsSync(installedRule())).toBe(false);
    expect(existsSync(join(root, 'usr/bin/pinbridge'))).toBe(false);
    expect(callLog().filter((c) => c === 'udevadm control --reload-rules').length).toBeGreaterThanOrEqual(2);
    // Removing twice (purge after remove) is fine.
    expect(run(afterRemove, ['purge']).status).toBe(0);
  });
});
