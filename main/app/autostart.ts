/**
 * Starting Pinbridge when the cashier logs in. Windows and macOS keep login items themselves
 * (app.setLoginItemSettings); on Linux Electron does nothing with them, so the desktop entry
 * goes to ~/.config/autostart as the XDG autostart specification says. Either way the app is
 * started with --autostart, which keeps the window in the tray.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ShellElectron } from './electron-api.js';

export const AUTOSTART_ARG = '--autostart';

export interface Autostart {
  get(): boolean;
  set(enabled: boolean): void;
}

/** The XDG desktop entry; `exec` is the AppImage's path or /usr/bin/pinbridge. */
export function autostartEntry(exec: string): string {
  const quoted = /[\s"'\\]/.test(exec) ? `"${exec.replace(/(["\\`$])/g, '\\$1')}"` : exec;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Pinbridge',
    'Comment=PINPAD bridge for the checkout',
    `Exec=${quoted} ${AUTOSTART_ARG}`,
    'Icon=pinbridge',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function linuxAutostart(configHome: string, exec: string): Autostart {
  const path = join(configHome, 'autostart', 'pinbridge.desktop');
  return {
    get() {
      try {
        return readFileSync(path, 'utf8').includes('Name=Pinbridge');
      } catch {
        return false;
      }
    },
    set(enabled) {
      if (!enabled) return rmSync(path, { force: true });
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, autostartEntry(exec));
    },
  };
}

export function loginItemAutostart(app: ShellElectron['app']): Autostart {
  return {
    get: () => app.getLoginItemSettings().openAtLogin,
    set: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, args: [AUTOSTART_ARG] }),
  };
}
