/**
 * The part of Electron the shell uses, as a narrow interface: the real module satisfies it
 * (checked where electron-main.ts passes it in), and the specs pass a test double of the same
 * shape. Keeping it small is the point: everything else runs in plain Node.
 */
import type {
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  NativeImage,
  WebContentsPrintOptions,
} from 'electron';

export interface ShellWebContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): this;
  print(options: WebContentsPrintOptions, callback: (success: boolean, failureReason: string) => void): void;
  getPrintersAsync(): Promise<{ name: string; displayName: string }[]>;
}

export interface ShellWindow {
  readonly webContents: ShellWebContents;
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
  destroy(): void;
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): this;
}

/** Electron's own image type: the shell only passes images from nativeImage to Tray. */
export type ShellImage = NativeImage;

export interface ShellTray {
  setImage(image: ShellImage): void;
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): this;
  destroy(): void;
}

export interface ShellSession {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
}

export interface ShellElectron {
  readonly app: {
    requestSingleInstanceLock(): boolean;
    on(event: 'second-instance' | 'window-all-closed', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
    on(event: 'web-contents-created', listener: (event: unknown, contents: ShellWebContents) => void): unknown;
    whenReady(): Promise<unknown>;
    quit(): void;
    exit(code?: number): void;
    /** Starts the app again once this one exits (it must still quit). */
    relaunch(options?: { args?: string[] }): void;
    getVersion(): string;
    setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
    getLoginItemSettings(): { openAtLogin: boolean };
  };
  readonly BrowserWindow: new (options: BrowserWindowConstructorOptions) => ShellWindow;
  readonly Tray: new (image: ShellImage) => ShellTray;
  readonly Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): unknown };
  readonly nativeImage: {
    createFromBitmap(buffer: Buffer, options: { width: number; height: number; scaleFactor?: number }): ShellImage;
  };
  readonly ipcMain: {
    handle(
      channel: string,
      listener: (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => unknown,
    ): void;
  };
  readonly session: { readonly defaultSession: ShellSession };
  readonly safeStorage: {
    isEncryptionAvailable(): boolean;
    /** Linux only (Electron throws elsewhere; the shell asks only on Linux). */
    getSelectedStorageBackend?(): string;
    encryptString(plainText: string): Buffer;
    decryptString(encrypted: Buffer): string;
  };
}
