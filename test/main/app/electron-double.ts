/**
 * A test double of the part of Electron the shell uses (main/app/electron-api.ts): it records
 * what the shell asks for — windows and their options, loaded URLs, tray images and menus, IPC
 * handlers, permission handlers, login items — and lets a spec fire the app's events.
 */
import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, WebContentsPrintOptions } from 'electron';
import type { ShellElectron, ShellImage, ShellWebContents } from '../../../main/app/electron-api.js';

type Listener = (...args: never[]) => unknown;

export class FakeWebContents extends EventEmitter implements ShellWebContents {
  openHandler: ((details: { url: string }) => { action: 'deny' } | { action: 'allow' }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void {
    this.openHandler = handler;
  }
  readonly printed: WebContentsPrintOptions[] = [];
  /** The system's printers as Chromium lists them. */
  printers: { name: string; displayName: string }[] = [{ name: 'Recibos_80mm', displayName: 'Recibos 80 mm' }];
  getPrintersAsync(): Promise<{ name: string; displayName: string }[]> {
    return Promise.resolve(this.printers);
  }
  /** Prints successfully, recording the options. */
  print(options: WebContentsPrintOptions, callback: (success: boolean, failureReason: string) => void): void {
    this.printed.push(options);
    setImmediate(() => callback(true, ''));
  }
  /** Whether a navigation to `url` is let through. */
  navigates(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    return !prevented;
  }
}

export class FakeWindow extends EventEmitter {
  static all: FakeWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    FakeWindow.all.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focused = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** The user closes the window: whether it really closed. */
  userCloses(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    return !prevented;
  }
}

export interface FakeImage {
  readonly bitmap: Buffer;
  readonly width: number;
}

export class FakeTray extends EventEmitter {
  static all: FakeTray[] = [];
  image: FakeImage;
  tooltip = '';
  menu: MenuItemConstructorOptions[] = [];
  destroyed = false;
  constructor(image: ShellImage) {
    super();
    this.image = image as unknown as FakeImage;
    FakeTray.all.push(this);
  }
  setImage(image: ShellImage): void {
    this.image = image as unknown as FakeImage;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: unknown): void {
    this.menu = menu as MenuItemConstructorOptions[];
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** The menu item with this label (throws when absent). */
  item(label: string): MenuItemConstructorOptions {
    const found = this.menu.find((item) => item.label === label);
    if (!found) throw new Error(`no tray menu item "${label}" in ${JSON.stringify(this.menu.map((i) => i.label))}`);
    return found;
  }
}

export interface ElectronDouble {
  readonly electron: ShellElectron;
  readonly app: EventEmitter & {
    lock: boolean;
    quitCalls: number;
    exitCodes: number[];
    relaunches: ({ args?: string[] } | undefined)[];
    loginItem: { openAtLogin: boolean; args?: string[] };
  };
  readonly handlers: Map<string, (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => unknown>;
  readonly permissions: {
    request?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void;
    check?: (contents: unknown, permission: string) => boolean;
  };
  readonly keyring: { available: boolean; backend: string };
  /** Fires before-quit: whether the app may quit now. */
  beforeQuit(): boolean;
}

export function electronDouble(): ElectronDouble {
  FakeWindow.all = [];
  FakeTray.all = [];
  const app = Object.assign(new EventEmitter(), {
    lock: true,
    quitCalls: 0,
    exitCodes: [] as number[],
    relaunches: [] as ({ args?: string[] } | undefined)[],
    loginItem: { openAtLogin: false },
  });
  const handlers = new Map<string, (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => unknown>();
  const permissions: ElectronDouble['permissions'] = {};
  const keyring = { available: true, backend: 'gnome_libsecret' };
  // "Encryption": reversible and visibly not the plain text.
  const seal = (text: string): Buffer => Buffer.from(Buffer.from(text, 'utf8').map((byte) => byte ^ 0x5a));
  const electron: ShellElectron = {
    app: {
      requestSingleInstanceLock: () => app.lock,
      on: (event: string, listener: Listener) => app.on(event, listener as (...args: unknown[]) => void),
      whenReady: () => Promise.resolve(),
      quit: () => {
        app.quitCalls++;
      },
      exit: (code = 0) => {
        app.exitCodes.push(code);
      },
      relaunch: (options) => {
        app.relaunches.push(options);
      },
      getVersion: () => '9.9.9-test',
      setLoginItemSettings: (settings) => {
        app.loginItem = settings;
      },
      getLoginItemSettings: () => ({ openAtLogin: app.loginItem.openAtLogin }),
    },
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Menu: { buildFromTemplate: (template) => template },
    nativeImage: { createFromBitmap: (bitmap, options) => ({ bitmap, width: options.width }) as unknown as ShellImage },
    ipcMain: { handle: (channel, listener) => void handlers.set(channel, listener) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => void (permissions.request = handler),
        setPermissionCheckHandler: (handler) => void (permissions.check = handler),
      },
    },
    safeStorage: {
      isEncryptionAvailable: () => keyring.available,
      getSelectedStorageBackend: () => keyring.backend,
      encryptString: (text) => seal(text),
      decryptString: (sealed) => Buffer.from(sealed.map((byte) => byte ^ 0x5a)).toString('utf8'),
    },
  };
  return {
    electron,
    app,
    handlers,
    permissions,
    keyring,
    beforeQuit() {
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      return !prevented;
    },
  };
}
