/**
 * Electron's security checklist, applied in one place: the window's web preferences (isolated,
 * sandboxed, no Node), navigation kept on the agent's own origin, new windows denied, every
 * permission request denied. The page itself carries a strict Content-Security-Policy (served
 * by the agent with it), so the window only ever shows what the agent serves.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import type { ShellSession, ShellWebContents } from './electron-api.js';

export function windowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 600,
    show: false,
    title: 'Pinbridge',
    backgroundColor: '#f5f7fa',
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

/** The origin of a URL, or undefined for one that does not parse. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Every web contents (the window, a receipt preview frame, anything later): no new windows, and
 * no navigation away from the agent's pages (`allowed` is read at each attempt: the agent's
 * port is known only once it listens).
 */
export function guardContents(contents: ShellWebContents, allowed: () => string | undefined): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  const keepHome = (event: { preventDefault(): void }, url: string): void => {
    const origin = allowed();
    if (origin === undefined || originOf(url) !== origin) event.preventDefault();
  };
  contents.on('will-navigate', keepHome);
  contents.on('will-redirect', keepHome);
}

/** Camera, microphone, notifications, geolocation…: the window needs none, so none is granted. */
export function denyPermissions(session: ShellSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
