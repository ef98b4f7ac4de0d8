/**
 * The `serial-permissions` check (Linux): may this user open serial ports? USB PINPADs and serial
 * printers show up as /dev/ttyACM* and /dev/ttyUSB*, owned by root and a group (dialout on Debian
 * and Ubuntu, uucp on Arch) with mode 0660, so a user outside that group gets "Permission denied"
 * — the most common support call after a fresh install. It looks at:
 *   - /etc/group: is the user a member of the serial group?
 *   - the session's groups (process.getgroups()): a membership added with usermod only reaches
 *     processes started after the user logs in again, so "in /etc/group but not in the session"
 *     means "log out and in";
 *   - a Pinbridge udev rule in /etc/udev/rules.d or /lib/udev/rules.d (it can grant access without
 *     the group);
 *   - each /dev/ttyUSB* and /dev/ttyACM* present: can this user read and write it?
 * Every path is under `rootDir` (default "/"), so tests build a fake /etc and /dev in a temp dir.
 */
import { constants } from 'node:fs';
import { access, readdir, readFile, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import {
  bilingual,
  checkResult,
  codeOf,
  messageOf,
  type Bilingual,
  type CheckResult,
  type CheckStatus,
} from './check.js';

/** Who is asking, as the kernel sees the running process. */
export interface UserIdentity {
  readonly username: string;
  readonly uid: number;
  /** Primary group. */
  readonly gid: number;
  /** The groups of this session (process.getgroups()): fixed when the session started. */
  readonly groups: readonly number[];
}

export interface SerialPermissionsOptions {
  /** Default process.platform; anything but linux is skipped. */
  readonly platform?: NodeJS.Platform;
  /** Root of the file system the paths are read under (default "/"). */
  readonly rootDir?: string;
  /**
   * The user to judge; default the running process. With an identity of its own (tests), device
   * access is worked out from the devices' owner, group and mode bits, since fs.access answers
   * only for the running process.
   */
  readonly identity?: UserIdentity;
}

export interface GroupEntry {
  readonly name: string;
  readonly gid: number;
  readonly members: readonly string[];
}

/** The lines of /etc/group ("name:x:gid:member,member"); malformed lines are left out. */
export function parseGroupFile(text: string): GroupEntry[] {
  const groups: GroupEntry[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [name, , gidText, members = ''] = trimmed.split(':');
    const gid = Number(gidText);
    if (!name || gidText === undefined || !/^\d+$/.test(gidText)) continue;
    groups.push({
      name,
      gid,
      members: members
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m !== ''),
    });
  }
  return groups;
}

/** The serial device name patterns of USB PINPADs (CDC-ACM) and USB-serial adapters. */
const SERIAL_DEVICE = /^tty(USB|ACM)\d+$/;
const UDEV_RULE = /pinbridge.*\.rules$/i;
const UDEV_DIRS = ['etc/udev/rules.d', 'lib/udev/rules.d', 'usr/lib/udev/rules.d'] as const;
/** Groups that own serial devices on common distributions, in the order they are looked for. */
const SERIAL_GROUPS = ['dialout', 'uucp'] as const;

function processIdentity(): UserIdentity {
  return {
    username: userInfo().username,
    uid: process.getuid?.() ?? -1,
    gid: process.getgid?.() ?? -1,
    groups: process.getgroups?.() ?? [],
  };
}

interface DeviceFinding {
  readonly path: string;
  readonly group: string | null;
  readonly mode: string | null;
  readonly readWrite: boolean;
  readonly error?: string;
}

/** Read and write permission from the mode bits, as the kernel decides it (ACLs aside). */
function modeAllows(mode: number, ownerUid: number, ownerGid: number, identity: UserIdentity): boolean {
  if (identity.uid === 0) return true;
  const rw = (shift: number): boolean => ((mode >> shift) & 0o6) === 0o6;
  if (identity.uid === ownerUid) return rw(6);
  if (identity.gid === ownerGid || identity.groups.includes(ownerGid)) return rw(3);
  return rw(0);
}

async function inspectDevice(
  path: string,
  groups: readonly GroupEntry[],
  identity: UserIdentity,
  own: boolean,
): Promise<DeviceFinding> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    return { path, group: null, mode: null, readWrite: false, error: messageOf(error) };
  }
  const group = groups.find((g) => g.gid === info.gid)?.name ?? String(info.gid);
  const mode = `0${(info.mode & 0o777).toString(8)}`;
  if (!own) return { path, group, mode, readWrite: modeAllows(info.mode, info.uid, info.gid, identity) };
  try {
    // fs.access asks the kernel for this very process: it also sees ACLs a udev rule set.
    await access(path, constants.R_OK | constants.W_OK);
    return { path, group, mode, readWrite: true };
  } catch (error) {
    return { path, group, mode, readWrite: false, error: codeOf(error) ?? messageOf(error) };
  }
}

async function listDir(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch {
    return [];
  }
}

export async function checkSerialPermissions(options: SerialPermissionsOptions = {}): Promise<CheckResult> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    const why =
      platform === 'win32'
        ? bilingual(
            'Windows gives every user access to COM ports; nothing to check',
            'O Windows dá a todos os usuários acesso às portas COM; nada a verificar',
          )
        : platform === 'darwin'
          ? bilingual(
              'macOS gives the logged-in user access to USB serial ports; nothing to check',
              'O macOS dá ao usuário conectado acesso às portas seriais USB; nada a verificar',
            )
          : bilingual(
              `serial port permissions are only checked on Linux (this is ${platform})`,
              `as permissões das portas seriais só são verificadas no Linux (este sistema é ${platform})`,
            );
    return checkResult({ id: 'serial-permissions', status: 'skip', summary: why, details: { platform } });
  }
  const root = options.rootDir ?? '/';
  const own = options.identity === undefined;
  const identity = options.identity ?? processIdentity();

  let groups: GroupEntry[] = [];
  let groupFileError: string | undefined;
  try {
    groups = parseGroupFile(await readFile(join(root, 'etc/group'), 'utf8'));
  } catch (error) {
    groupFileError = messageOf(error);
  }

  const devicePaths = (await listDir(join(root, 'dev')))
    .filter((name) => SERIAL_DEVICE.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => join(root, 'dev', name));
  const devices = await Promise.all(devicePaths.map((path) => inspectDevice(path, groups, identity, own)));

  // The group that owns the devices present is the one that matters; without devices, the
  // distribution's usual serial group.
  const deviceGroup = devices.map((d) => d.group).find((name) => name !== null && groups.some((g) => g.name === name));
  const serialGroup =
    groups.find((g) => g.name === deviceGroup) ??
    SERIAL_GROUPS.map((name) => groups.find((g) => g.name === name)).find((g) => g !== undefined);
  const groupName = serialGroup?.name ?? 'dialout';
  const inGroupFile =
    serialGroup !== undefined && (serialGroup.members.includes(identity.username) || serialGroup.gid === identity.gid);
  const inSession =
    serialGroup !== undefined && (identity.gid === serialGroup.gid || identity.groups.includes(serialGroup.gid));

  const rules: string[] = [];
  for (const dir of UDEV_DIRS) {
    for (const name of await listDir(join(root, dir))) if (UDEV_RULE.test(name)) rules.push(join('/', dir, name));
  }

  const details = {
    user: identity.username,
    root: identity.uid === 0,
    group: groupName,
    in_group_file: inGroupFile,
    in_session: inSession,
    udev_rules: rules,
    devices: devices.map((d) => ({
      path: d.path,
      group: d.group,
      mode: d.mode,
      read_write: d.readWrite,
      ...(d.error ? { error: d.error } : {}),
    })),
    ...(groupFileError ? { group_file_error: groupFileError } : {}),
    ...(serialGroup === undefined ? { group_missing: `no ${SERIAL_GROUPS.join(' or ')} group in /etc/group` } : {}),
  };

  const user = identity.username;
  const usermod = `sudo usermod -aG ${groupName} ${user}`;
  const relogin = bilingual(
    'log out of the desktop session and log in again (or restart the computer)',
    'saia da sessão do computador e entre de novo (ou reinicie o computador)',
  );
  const joinTheGroup = bilingual(
    `Run \`${usermod}\`, then ${relogin.en}.`,
    `Execute \`${usermod}\` e depois ${relogin.pt}.`,
  );
  const loginAgain = bilingual(
    `Log out and in: ${relogin.en}; \`newgrp ${groupName}\` gives one terminal the group at once.`,
    `Faça logout e login: ${relogin.pt}; \`newgrp ${groupName}\` dá o grupo a um terminal na hora.`,
  );
  const denied = devices.filter((d) => !d.readWrite);
  const deviceList = (list: readonly DeviceFinding[]): string => list.map((d) => d.path).join(', ');

  let status: CheckStatus;
  let summary: Bilingual;
  let fix: Bilingual | undefined;
  if (identity.uid === 0) {
    status = 'ok';
    const opened = devices.length > 0 ? ` (${deviceList(devices)})` : '';
    summary = bilingual(
      `Running as root: every serial port can be opened${opened}`,
      `Executando como root: todas as portas seriais podem ser abertas${opened}`,
    );
  } else if (denied.length > 0) {
    status = 'fail';
    if (inGroupFile && !inSession) {
      summary = bilingual(
        `${user} cannot open ${deviceList(denied)}: added to the ${groupName} group, but this session started before that`,
        `${user} não consegue abrir ${deviceList(denied)}: foi adicionado ao grupo ${groupName}, mas esta sessão começou antes disso`,
      );
      fix = loginAgain;
    } else {
      const rule = rules.length > 0;
      summary = bilingual(
        `${user} cannot open ${deviceList(denied)} (not in the ${groupName} group${rule ? '; the Pinbridge udev rule did not grant access' : ''})`,
        `${user} não consegue abrir ${deviceList(denied)} (não está no grupo ${groupName}${rule ? '; a regra udev do Pinbridge não liberou o acesso' : ''})`,
      );
      fix = joinTheGroup;
    }
  } else if (inGroupFile && !inSession) {
    status = 'warn';
    summary = bilingual(
      `${user} was added to the ${groupName} group, but this session started before that: serial ports will be refused until the next login`,
      `${user} foi adicionado ao grupo ${groupName}, mas esta sessão começou antes disso: as portas seriais serão recusadas até o próximo login`,
    );
    fix = loginAgain;
  } else if (devices.length > 0) {
    status = 'ok';
    summary = bilingual(
      `${user} can open ${deviceList(devices)}${inSession ? ` (member of ${groupName})` : ''}`,
      `${user} consegue abrir ${deviceList(devices)}${inSession ? ` (membro do grupo ${groupName})` : ''}`,
    );
  } else if (inSession || rules.length > 0) {
    status = 'ok';
    summary = inSession
      ? bilingual(
          `No USB serial device plugged in; ${user} is in the ${groupName} group, so one will open`,
          `Nenhum dispositivo serial USB conectado; ${user} está no grupo ${groupName}, então um dispositivo conectado vai abrir`,
        )
      : bilingual(
          `No USB serial device plugged in; ${user} is covered by the Pinbridge udev rule, so one will open`,
          `Nenhum dispositivo serial USB conectado; ${user} tem acesso pela regra udev do Pinbridge, então um dispositivo conectado vai abrir`,
        );
  } else {
    // Nothing plugged in to prove it either way, but a PINPAD plugged in now would be refused.
    status = 'warn';
    summary = bilingual(
      `${user} is not in the ${groupName} group and no Pinbridge udev rule is installed: a USB PINPAD or serial printer would be refused`,
      `${user} não está no grupo ${groupName} e nenhuma regra udev do Pinbridge está instalada: um PINPAD USB ou uma impressora serial seriam recusados`,
    );
    fix = joinTheGroup;
  }
  return checkResult({
    id: 'serial-permissions',
    status,
    summary,
    details,
    ...(fix !== undefined && status !== 'ok' ? { fix } : {}),
  });
}
