/**
 * The serial-permissions check reads /etc/group, the udev rules folders and /dev under a root
 * folder: each test builds a fake one in a temp dir (real files, real modes) and names the user
 * the check judges, so the answers do not depend on who runs the tests.
 */
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSerialPermissions, parseGroupFile, type UserIdentity } from '../../../main/doctor/serial-permissions.js';

interface FakeRoot {
  readonly root: string;
  /** The gid the fake devices get from the file system (the test process's group). */
  readonly deviceGid: number;
  /** A uid that owns none of the fake devices and is not root. */
  readonly strangerUid: number;
}

/** A root with /etc, /dev and udev folders; `group` lines are written with the devices' real gid as `GID`. */
function fakeRoot(options: {
  group: (gid: number) => string;
  devices?: Record<string, number>;
  rules?: string[];
}): FakeRoot {
  const root = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-root-'));
  for (const dir of ['etc', 'dev', 'etc/udev/rules.d', 'lib/udev/rules.d'])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'dev', 'null'), '');
  for (const [name, mode] of Object.entries(options.devices ?? {})) {
    const path = join(root, 'dev', name);
    writeFileSync(path, '');
    chmodSync(path, mode);
  }
  for (const rule of options.rules ?? []) writeFileSync(join(root, rule), 'SUBSYSTEM=="tty", TAG+="uaccess"\n');
  const probe = join(root, 'dev', 'null');
  const { gid, uid } = statSync(probe);
  writeFileSync(
    join(root, 'etc', 'group'),
    `audio:x:${gid + 2000}:maria\n${options.group(gid)}\nmaria:x:${gid + 1000}:\n`,
  );
  return { root, deviceGid: gid, strangerUid: uid + 1000 };
}

function maria(root: FakeRoot, sessionGroups: number[]): UserIdentity {
  return {
    username: 'maria',
    uid: root.strangerUid,
    gid: root.deviceGid + 1000,
    groups: [root.deviceGid + 1000, ...sessionGroups],
  };
}

describe('parseGroupFile', () => {
  it('reads names, gids and members, and skips comments and malformed lines', () => {
    expect(parseGroupFile('# comment\ndialout:x:20:maria,joao\nbroken\nlp:x:7:\n')).toEqual([
      { name: 'dialout', gid: 20, members: ['maria', 'joao'] },
      { name: 'lp', gid: 7, members: [] },
    ]);
  });
});

describe('the serial-permissions check', () => {
  it('is ok when the user is in the dialout group and can open the devices', async () => {
    const root = fakeRoot({ group: (gid) => `dialout:x:${gid}:maria`, devices: { ttyACM0: 0o660, ttyUSB0: 0o660 } });
    const result = await checkSerialPermissions({
      platform: 'linux',
      rootDir: root.root,
      identity: maria(root, [root.deviceGid]),
    });
    expect(result).toMatchObject({
      id: 'serial-permissions',
      status: 'ok',
      details: { group: 'dialout', in_group_file: true, in_session: true },
    });
    expect(result.summary).toContain('maria can open');
    expect(result.details.devices).toEqual([
      expect.objectContaining({
        path: join(root.root, 'dev', 'ttyACM0'),
        group: 'dialout',
        mode: '0660',
        read_write: true,
      }),
      expect.objectContaining({
        path: join(root.root, 'dev', 'ttyUSB0'),
        group: 'dialout',
        mode: '0660',
        read_write: true,
      }),
    ]);
    expect(result.fix).toBeUndefined();
    expect(result.pt).toEqual({
      summary: `maria consegue abrir ${join(root.root, 'dev', 'ttyACM0')}, ${join(root.root, 'dev', 'ttyUSB0')} (membro do grupo dialout)`,
    });
  });

  it('fails when a device cannot be opened and the user is not in the group, with the usermod command', async () => {
    const root = fakeRoot({ group: (gid) => `dialout:x:${gid}:joao`, devices: { ttyACM0: 0o660 } });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root, identity: maria(root, []) });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain(`maria cannot open ${join(root.root, 'dev', 'ttyACM0')}`);
    expect(result.fix).toContain('`sudo usermod -aG dialout maria`');
    expect(result.fix).toContain('log out');
    // The window's words: the same device, group and command.
    expect(result.pt).toEqual({
      summary: `maria não consegue abrir ${join(root.root, 'dev', 'ttyACM0')} (não está no grupo dialout)`,
      fix: 'Execute `sudo usermod -aG dialout maria` e depois saia da sessão do computador e entre de novo (ou reinicie o computador).',
    });
  });

  it('tells a membership added after login apart: the session must log out and in', async () => {
    const root = fakeRoot({ group: (gid) => `dialout:x:${gid}:maria`, devices: { ttyACM0: 0o660 } });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root, identity: maria(root, []) });
    expect(result).toMatchObject({ status: 'fail', details: { in_group_file: true, in_session: false } });
    expect(result.summary).toContain('this session started before that');
    expect(result.fix).toContain('Log out and in');
    expect(result.fix).toContain('`newgrp dialout`');
    expect(result.fix).not.toContain('usermod');
    expect(result.pt).toEqual({
      summary: `maria não consegue abrir ${join(root.root, 'dev', 'ttyACM0')}: foi adicionado ao grupo dialout, mas esta sessão começou antes disso`,
      fix: 'Faça logout e login: saia da sessão do computador e entre de novo (ou reinicie o computador); `newgrp dialout` dá o grupo a um terminal na hora.',
    });
  });

  it('warns about a stale session even with nothing plugged in', async () => {
    const root = fakeRoot({ group: (gid) => `dialout:x:${gid}:maria` });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root, identity: maria(root, []) });
    expect(result.status).toBe('warn');
    expect(result.fix).toContain('Log out and in');
  });

  it('warns when no device is plugged in but one would be refused', async () => {
    const root = fakeRoot({ group: (gid) => `dialout:x:${gid}:` });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root, identity: maria(root, []) });
    expect(result.status).toBe('warn');
    expect(result.summary).toContain('not in the dialout group and no Pinbridge udev rule');
    expect(result.fix).toContain('`sudo usermod -aG dialout maria`');
  });

  it('finds the Pinbridge udev rule, and is ok when the devices open without the group', async () => {
    const root = fakeRoot({
      group: (gid) => `dialout:x:${gid}:`,
      devices: { ttyACM0: 0o666 },
      rules: ['etc/udev/rules.d/60-pinbridge-pinpad.rules'],
    });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root, identity: maria(root, []) });
    expect(result.status).toBe('ok');
    expect(result.details.udev_rules).toEqual(['/etc/udev/rules.d/60-pinbridge-pinpad.rules']);
  });

  it('is ok with the rule installed and nothing plugged in', async () => {
    const root = fakeRoot({
      group: (gid) => `dialout:x:${gid}:`,
      rules: ['lib/udev/rules.d/60-pinbridge-pinpad.rules'],
    });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root, identity: maria(root, []) });
    expect(result.status).toBe('ok');
    expect(result.summary).toContain('udev rule');
  });

  it('names the group that owns the devices (uucp on Arch) in the fix', async () => {
    const root = fakeRoot({ group: (gid) => `uucp:x:${gid}:`, devices: { ttyUSB0: 0o660 } });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root, identity: maria(root, []) });
    expect(result.status).toBe('fail');
    expect(result.fix).toContain('`sudo usermod -aG uucp maria`');
    expect(result.pt.fix).toContain('`sudo usermod -aG uucp maria`');
  });

  it('asks the kernel (fs.access) for the running process when no identity is given', async () => {
    // The test process owns the device file it creates, with read and write for the owner only.
    const root = fakeRoot({ group: (gid) => `dialout:x:${gid}:`, devices: { ttyACM3: 0o600 } });
    const result = await checkSerialPermissions({ platform: 'linux', rootDir: root.root });
    expect(result.status).toBe('ok');
    expect(result.details.devices).toEqual([
      expect.objectContaining({ path: join(root.root, 'dev', 'ttyACM3'), read_write: true }),
    ]);
  });

  it('is skipped on Windows and macOS, saying why', async () => {
    const windows = await checkSerialPermissions({ platform: 'win32' });
    expect(windows).toMatchObject({ status: 'skip', summary: expect.stringContaining('COM ports') as unknown });
    const mac = await checkSerialPermissions({ platform: 'darwin' });
    expect(mac).toMatchObject({ status: 'skip', summary: expect.stringContaining('macOS') as unknown });
    expect(windows.pt).toEqual({ summary: 'O Windows dá a todos os usuários acesso às portas COM; nada a verificar' });
  });
});
