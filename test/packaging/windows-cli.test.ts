/**
 * The `pinbridge` command on Windows: Pinbridge.exe is a GUI program, so the installer ships
 * resources\bin\pinbridge-cli.cmd, which runs it with the subcommand and waits for it, and puts
 * that folder on the user's PATH (build/win/installer.nsh, included by electron-builder's NSIS
 * script). No Windows here: the script's text is checked, and the NSIS code is compiled by
 * Debian's makensis inside an installer that runs it as electron-builder's would.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
  productName: string;
  win: { extraResources: { from: string; to: string }[] };
  nsis: { include: string };
};

describe('pinbridge-cli.cmd', () => {
  const script = readFileSync(join(ROOT, 'build/win/pinbridge-cli.cmd'), 'latin1');

  it('is installed as resources\\bin\\pinbridge-cli.cmd', () => {
    expect(config.win.extraResources).toContainEqual({
      from: 'build/win/pinbridge-cli.cmd',
      to: 'bin/pinbridge-cli.cmd',
    });
  });

  it('has Windows line endings, as cmd.exe reads batch files', () => {
    expect(script.split('\r\n').length).toBeGreaterThan(3);
    expect(script.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('starts the installed executable with every argument, waits for it and returns its exit code', () => {
    const lines = script.split('\r\n').filter((line) => line !== '' && !/^(@echo off|rem )/i.test(line));
    expect(lines).toEqual([`start "" /b /wait "%~dp0..\\..\\${config.productName}.exe" %*`, 'exit /b %ERRORLEVEL%']);
  });
});

describe('installer.nsh (the user PATH)', () => {
  it('is the NSIS include of the Windows installer', () => {
    expect(config.nsis.include).toBe('build/win/installer.nsh');
  });

  it('compiles with makensis, its install and uninstall macros run where electron-builder runs them', () => {
    const work = mkdtempSync(join(tmpdir(), 'pinbridge-nsis-'));
    const installer = join(work, 'check.nsi');
    writeFileSync(
      installer,
      [
        'Unicode true',
        `!include "${join(ROOT, config.nsis.include)}"`,
        `OutFile "${join(work, 'check.exe')}"`,
        'InstallDir "$LOCALAPPDATA\\Programs\\Pinbridge"',
        'RequestExecutionLevel user',
        'Section "install"',
        '  StrCpy $R0 "kept"',
        '  !insertmacro customInstall',
        '  WriteUninstaller "$INSTDIR\\uninstall.exe"',
        'SectionEnd',
        'Section "uninstall"',
        '  !insertmacro customUnInstall',
        'SectionEnd',
        '',
      ].join('\n'),
    );
    const build = spawnSync('makensis', ['-V2', '-WX', installer], { encoding: 'utf8' });
    expect(build.error, 'makensis missing: apt-get install nsis').toBeUndefined();
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    expect(readFileSync(join(work, 'check.exe')).subarray(0, 2).toString('latin1')).toBe('MZ');
  });

  it('adds and removes exactly resources\\bin, per user', () => {
    const nsh = readFileSync(join(ROOT, config.nsis.include), 'utf8');
    expect(nsh).toContain('!define PINBRIDGE_CLI_DIR "$INSTDIR\\resources\\bin"');
    expect(nsh.match(/WriteRegExpandStr HKCU "Environment" "Path"/g)).toHaveLength(3);
    expect(nsh).not.toMatch(/HKLM/);
  });
});
