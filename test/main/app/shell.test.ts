/**
 * The Electron shell's wiring, against a test double of Electron and the real agent (training
 * mode, simulated PINPAD, POS API on a free port): one instance, a locked-down window on the
 * agent's own page, closing to the tray, a tray whose colour follows the PINPAD, start on login,
 * the preload's two IPC calls guarded by origin, permissions denied, the API token and the key
 * that seals the payment files kept encrypted, a quit that stops the agent before the app exits, and a restart asked from the
 * window that relaunches the app once the agent stopped.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, type AgentOptions } from '../../../main/agent/agent.js';
import { IPC, parseShellArguments, Shell } from '../../../main/app/shell.js';
import { createLogger } from '../../../main/log.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { createTestPki } from '../../helpers/test-pki.js';
import { electronDouble, FakeTray, FakeWindow, type ElectronDouble } from './electron-double.js';
import { FakeUpdater } from './fake-updater.js';
import { storeTimeZone, wallClock } from '../../../main/locale/store-time.js';
import { checkedCall, openSocket, RpcClient } from '../pos/pos-rig.js';
import { centavos } from '../../../main/core/money.js';

const logger = createLogger({ level: 'silent' });
let home: string;
let double: ElectronDouble;
let shells: Shell[];
const started: AgentOptions[] = [];

/** The real agent on a free port; `api` is recorded and training used (no real API here). */
const startAgent = (options: AgentOptions): Promise<Agent> => {
  started.push(options);
  return Agent.start({ ...options, api: {}, posPorts: [0] });
};

async function run(argv: string[] = [], platform: NodeJS.Platform = 'linux', relaunchArgs?: string[]): Promise<Shell> {
  const shell = await Shell.run(double.electron, {
    argv,
    env: {},
    home,
    platform,
    preload: '/app/preload.cjs',
    logger,
    startAgent,
    exec: '/opt/Pinbridge.AppImage',
    ...(relaunchArgs === undefined ? {} : { relaunchArgs }),
  });
  if (shell === undefined) throw new Error('the shell did not start');
  shells.push(shell);
  return shell;
}

/** The colour of the tray dot's centre pixel (the bitmap is BGRA). */
function trayColour(): string {
  const tray = FakeTray.all.at(-1)!;
  const size = tray.image.width;
  const centre = ((size / 2) * size + size / 2) * 4;
  const [b, g, r] = [tray.image.bitmap[centre]!, tray.image.bitmap[centre + 1]!, tray.image.bitmap[centre + 2]!];
  return g > r && g > b ? 'green' : r > g ? (g > 0x80 ? 'yellow' : 'red') : 'other';
}

beforeEach(() => {
  home = mkdtempSync(join(artifactsDir(), 'shell-'));
  double = electronDouble();
  shells = [];
  started.length = 0;
});
afterEach(async () => {
  for (const shell of shells) await shell.quit();
});

describe('the Electron shell', () => {
  it("opens one locked-down window on the agent's own page, logged in with the operator key", async () => {
    const shell = await run();
    const [window] = FakeWindow.all;
    expect(window!.options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(window!.loaded).toEqual([`http://127.0.0.1:${shell.agent.pos.port}/#key=${shell.agent.operatorKey}`]);
    expect(window!.visible).toBe(true);
    expect(started[0]).toMatchObject({ pinpadAddress: 'sim', home });
  });

  it('stays in the tray when started at login', async () => {
    await run(['--autostart']);
    expect(FakeWindow.all[0]!.visible).toBe(false);
  });

  it('lets only one instance run: a second one quits, and the first comes to the front', async () => {
    await run();
    const window = FakeWindow.all[0]!;
    window.hide();
    window.minimized = true;
    double.app.emit('second-instance');
    expect(window).toMatchObject({ visible: true, focused: true, minimized: false });
    const second = electronDouble();
    second.app.lock = false;
    expect(
      await Shell.run(second.electron, {
        argv: [],
        env: {},
        home,
        platform: 'linux',
        preload: 'p',
        logger,
        startAgent,
      }),
    ).toBeUndefined();
    expect(second.app.quitCalls).toBe(1);
  });

  it('hides the window when the cashier closes it, keeping the agent serving the POS', async () => {
    const shell = await run();
    const window = FakeWindow.all[0]!;
    expect(window.userCloses()).toBe(false);
    expect(window.visible).toBe(false);
    expect(shell.agent.pos.sessions).toBe(0);
    expect(double.app.exitCodes).toEqual([]);
  });

  it("keeps every page on the agent's origin, opens no new window and grants no permission", async () => {
    const shell = await run();
    const contents = FakeWindow.all[0]!.webContents;
    double.app.emit('web-contents-created', {}, contents);
    expect(contents.navigates(`http://127.0.0.1:${shell.agent.pos.port}/#/payments`)).toBe(true);
    expect(contents.navigates('https://evil.example/phish')).toBe(false);
    expect(contents.navigates('file:///etc/passwd')).toBe(false);
    expect(contents.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    let granted: boolean | undefined;
    double.permissions.request?.({}, 'media', (answer) => (granted = answer));
    expect(granted).toBe(false);
    expect(double.permissions.check?.({}, 'notifications')).toBe(false);
  });

  it("answers the preload's calls from the window only, and switches start on login (XDG autostart on Linux)", async () => {
    const shell = await run();
    const own = { senderFrame: { url: `http://127.0.0.1:${shell.agent.pos.port}/` } };
    expect(await double.handlers.get(IPC.info)!(own)).toEqual({
      version: '9.9.9-test',
      platform: 'linux',
      startOnLogin: false,
    });
    expect(() => double.handlers.get(IPC.info)!({ senderFrame: { url: 'https://evil.example/' } })).toThrow(
      'not the Pinbridge window',
    );
    expect(() => double.handlers.get(IPC.setStartOnLogin)!(own, 'yes')).toThrow();
    expect(await double.handlers.get(IPC.setStartOnLogin)!(own, true)).toBe(true);
    const entry = readFileSync(join(home, '.config', 'autostart', 'pinbridge.desktop'), 'utf8');
    expect(entry).toContain('Exec=/opt/Pinbridge.AppImage --autostart');
    expect(FakeTray.all[0]!.item('Iniciar com o computador').checked).toBe(true);
    expect(await double.handlers.get(IPC.setStartOnLogin)!(own, false)).toBe(false);
    expect(existsSync(join(home, '.config', 'autostart', 'pinbridge.desktop'))).toBe(false);
  });

  it('uses the OS login items on Windows and macOS', async () => {
    const shell = await run([], 'win32');
    shell.setStartOnLogin(true);
    expect(double.app.loginItem).toEqual({ openAtLogin: true, args: ['--autostart'] });
  });

  it('turns the tray green with the PINPAD connected and says so, and red without it', async () => {
    const shell = await run();
    await shell.agent.ready;
    shell.refreshTray();
    const tray = FakeTray.all[0]!;
    expect(tray.tooltip).toContain('PINPAD: conectado');
    expect(tray.tooltip).toContain('MODO TREINAMENTO');
    // The API is "waiting" until the first call: a sale makes it "ok".
    await shell.agent.stack.engine.start({
      referenceId: 'tray-1',
      amount: centavos(500),
      paymentType: 'credit',
      installments: 1,
      description: 'Bandeja',
    });
    expect(trayColour()).toBe('green');
    expect(tray.item('Pagamentos: ok').enabled).toBe(false);
    shell.agent.pinpads.detach(shell.agent.pinpads.list()[0]!.serialNumber);
    expect(trayColour()).toBe('red');
    expect(tray.tooltip).toContain('PINPAD: desconectado');
  }, 30_000);

  it('brings the window forward when a POS asks to pair, so the cashier sees the code', async () => {
    const shell = await run(['--autostart']);
    const window = FakeWindow.all[0]!;
    shell.agent.emit('pairing', {
      pairingId: 'p1',
      name: 'Caixa 2',
      origin: null,
      code: '123456',
      expiresAt: new Date().toISOString(),
      program: null,
    });
    expect(window.visible).toBe(true);
  });

  it('brings the window forward when a Pix QR is for the customer to scan from it (a text-only PINPAD)', async () => {
    const shell = await run(['--autostart']);
    const window = FakeWindow.all[0]!;
    expect(window.visible).toBe(false);
    shell.agent.emit('pixOnScreen', { terminal: 'POS0000000000001', transactionId: 'a'.repeat(32) });
    expect(window.visible).toBe(true);
  });

  it('quits from the tray only after the agent stopped', async () => {
    const shell = await run();
    await shell.agent.ready;
    expect(double.beforeQuit()).toBe(false); // held until the agent stops
    await shell.quit();
    expect(double.app.exitCodes).toEqual([0]);
    expect(FakeTray.all[0]!.destroyed).toBe(true);
    // The agent is stopped: its POS API no longer answers.
    await expect(fetch(`http://127.0.0.1:${shell.agent.pos.port}/demo/`)).rejects.toThrow();
  });

  it('restarts when the window asks (operator.restart): the agent stops, then the app starts again with its words, showing its window', async () => {
    const shell = await run(['--autostart', '--training'], 'linux', ['--autostart', '--training']);
    await shell.agent.ready;
    const window = new RpcClient(await openSocket(shell.agent.pos.url));
    await window.call('session.operator', { key: shell.agent.operatorKey });
    expect(await window.call('operator.restart')).toEqual({ restarting: true });
    await expect.poll(() => double.app.exitCodes).toEqual([0]);
    // Relaunched once, without --autostart: the cashier asked from the window and expects it back.
    expect(double.app.relaunches).toEqual([{ args: ['--training'] }]);
    await expect(fetch(`http://127.0.0.1:${shell.agent.pos.port}/demo/`)).rejects.toThrow();
    window.socket.terminate();
  });

  it('checks for updates only when the settings turn them on, and installs a downloaded one when quitting, after the agent stopped', async () => {
    const updater = new FakeUpdater();
    const withUpdater = async (): Promise<Shell> => {
      const shell = await Shell.run(double.electron, {
        argv: [],
        env: {},
        home,
        platform: 'linux',
        preload: '/app/preload.cjs',
        logger,
        startAgent,
        updater: () => Promise.resolve(updater),
      });
      if (shell === undefined) throw new Error('the shell did not start');
      shells.push(shell);
      return shell;
    };
    await withUpdater();
    expect(updater.feeds).toEqual([]);
    await shells.pop()!.quit();

    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(
      join(home, '.pinbridge', 'settings.json'),
      JSON.stringify({ updates: { enabled: true, feed_url: 'https://updates.example/pinbridge' } }),
    );
    double = electronDouble();
    const shell = await withUpdater();
    expect(updater.feeds.map((feed) => feed.url)).toEqual(['https://updates.example/pinbridge']);
    updater.feed = { version: '0.2.0' };
    await updater.checkForUpdates();
    updater.finishDownload();
    await new Promise((resolve) => setImmediate(resolve));
    // The agent knows, for its window.
    expect(shell.agent.updates.state).toMatchObject({ state: 'downloaded', version: '0.2.0', installWindow: null });
    await shell.quit();
    shells.pop();
    expect(updater.installs).toEqual([[true, false]]);
    // quitAndInstall quits the app itself; the shell did not exit it first.
    expect(double.app.exitCodes).toEqual([]);
  });

  it('installs a downloaded update inside the maintenance window once no sale is in progress: the agent stops first, and Pinbridge starts again', async () => {
    const updater = new FakeUpdater();
    // A window around now on the store's clock (no receipts.time_zone: this computer's Brazilian zone, else São Paulo).
    const clock = wallClock(new Date(), storeTimeZone(undefined));
    const minute = clock.hour * 60 + clock.minute;
    const hhmm = (m: number): string =>
      `${String(Math.floor(((m + 1440) % 1440) / 60)).padStart(2, '0')}:${String((m + 1440) % 60).padStart(2, '0')}`;
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(
      join(home, '.pinbridge', 'settings.json'),
      JSON.stringify({
        updates: {
          enabled: true,
          feed_url: 'https://updates.example/pinbridge',
          install_window: `${hhmm(minute - 60)}-${hhmm(minute + 60)}`,
        },
      }),
    );
    const shell = await Shell.run(double.electron, {
      argv: ['--training'],
      env: {},
      home,
      platform: 'linux',
      preload: '/app/preload.cjs',
      logger,
      startAgent,
      updater: () => Promise.resolve(updater),
    });
    shells.push(shell!);
    expect(shell!.settingsProblem?.violations).toBeUndefined();
    updater.feed = { version: '0.2.0' };
    await updater.checkForUpdates();
    updater.finishDownload();
    await expect.poll(() => updater.installs).toEqual([[true, true]]);
    // The agent was stopped before the installer ran: its POS API is closed.
    await expect(fetch(`http://127.0.0.1:${shell!.agent.pos.port}/demo/`)).rejects.toThrow();
    expect(shell!.agent.updates.state.state).toBe('installing');
    expect(double.app.exitCodes).toEqual([]);
  });

  it('starts again as it was when the update fails to install in the maintenance window: the checkout never stays with its agent stopped', async () => {
    const updater = new FakeUpdater();
    updater.installFails = new Error('EACCES: permission denied');
    const clock = wallClock(new Date(), storeTimeZone(undefined));
    const minute = clock.hour * 60 + clock.minute;
    const hhmm = (m: number): string =>
      `${String(Math.floor(((m + 1440) % 1440) / 60)).padStart(2, '0')}:${String((m + 1440) % 60).padStart(2, '0')}`;
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(
      join(home, '.pinbridge', 'settings.json'),
      JSON.stringify({
        updates: {
          enabled: true,
          feed_url: 'https://updates.example/pinbridge',
          install_window: `${hhmm(minute - 60)}-${hhmm(minute + 60)}`,
        },
      }),
    );
    const shell = await Shell.run(double.electron, {
      argv: ['--training'],
      env: {},
      home,
      platform: 'linux',
      preload: '/app/preload.cjs',
      logger,
      startAgent,
      relaunchArgs: ['--training'],
      updater: () => Promise.resolve(updater),
    });
    shells.push(shell!);
    updater.feed = { version: '0.2.0' };
    await updater.checkForUpdates();
    updater.finishDownload();
    await expect.poll(() => double.app.exitCodes).toEqual([0]);
    expect(updater.installs).toEqual([[true, true]]);
    expect(double.app.relaunches).toEqual([{ args: ['--training'] }]);
    // The next start knows: 0.2.0 waits for a quit.
    expect(JSON.parse(readFileSync(join(home, '.pinbridge', 'update-install-failed.json'), 'utf8'))).toMatchObject({
      version: '0.2.0',
    });
  });

  it('keeps the API token given once encrypted with safeStorage, and uses it at the next start', async () => {
    await run(['--api', 'https://api.example', '--token', 'zpk_test_secret', '--marketplace', 'm1', '--seller', 's1']);
    const sealed = readFileSync(join(home, '.pinbridge', 'api-token.enc'));
    expect(sealed.toString('utf8')).not.toContain('zpk_test_secret');
    await shells.pop()!.quit();
    double = electronDouble();
    await run(['--api', 'https://api.example', '--marketplace', 'm1', '--seller', 's1']);
    expect(started.at(-1)!.api).toEqual({
      api: 'https://api.example',
      token: 'zpk_test_secret',
      marketplace: 'm1',
      seller: 's1',
    });
  });

  it('gives the agent the key that seals its payment files, encrypted with safeStorage, the same at the next start', async () => {
    await run();
    const first = started.at(-1)!.integrity!;
    expect(first).toMatchObject({ source: 'os', fresh: true });
    const sealed = readFileSync(join(home, '.pinbridge', 'integrity-key.enc'));
    // Only the OS key opens it: the clear key is nowhere on disk.
    const clear = double.electron.safeStorage.decryptString(sealed);
    expect(sealed.toString('utf8')).not.toContain(clear);
    expect(existsSync(join(home, '.pinbridge', 'integrity.key'))).toBe(false);
    await shells.pop()!.quit();
    double = electronDouble();
    await run();
    const next = started.at(-1)!.integrity!;
    expect(next).toMatchObject({ source: 'os', fresh: false });
    expect(next.verify('spec', 'text', first.seal('spec', 'text'))).toBe(true);
  });

  it('opens the window in training mode, showing why, when the client certificate cannot be used; its passphrase entered there is kept encrypted and used at the next start', async () => {
    const pki = createTestPki();
    try {
      const store = pki.client('loja', 'ABC123');
      mkdirSync(join(home, '.pinbridge'), { recursive: true });
      writeFileSync(
        join(home, '.pinbridge', 'settings.json'),
        JSON.stringify({
          api: {
            base_url: 'https://127.0.0.1:9',
            marketplace_id: 'abc123',
            seller_id: 's1',
            client_certificate: { pfx: store.pfx },
          },
        }),
      );
      // The agent as it really starts: it reads the certificate before anything else.
      const strict = (options: AgentOptions): Promise<Agent> => {
        started.push(options);
        return Agent.start({ ...options, posPorts: [0] });
      };
      const shell = await Shell.run(double.electron, {
        argv: ['--token', 'zpk_test_secret'],
        env: {},
        home,
        platform: 'linux',
        preload: '/app/preload.cjs',
        logger,
        startAgent: strict,
      });
      if (shell === undefined) throw new Error('the shell did not start');
      shells.push(shell);
      // First with the store's API (no passphrase yet), then training mode with the reason.
      expect(started.map((options) => options.api.api ?? 'training')).toEqual(['https://127.0.0.1:9', 'training']);
      expect(started[0]!.api.certificate).toEqual({ pfx: store.pfx });
      expect(FakeWindow.all[0]!.loaded[0]).toContain(`${shell.agent.pos.port}`);
      const window = new RpcClient(await openSocket(shell.agent.pos.url));
      await window.call('session.operator', { key: shell.agent.operatorKey });
      const read = await checkedCall(window, 'operator.settings');
      expect(read.problem?.violations).toEqual([
        {
          field: 'api.client_certificate',
          code: 'CERTIFICATE_PASSPHRASE',
          message: expect.stringMatching(/passphrase of the PKCS#12 file .*loja\.pfx is missing/) as unknown,
          cashier_message: expect.stringMatching(/^A senha do certificado digital está faltando ou errada/) as unknown,
        },
      ]);
      expect(read.certificate_passphrase).toEqual({ kind: 'safeStorage', stored: false });

      expect(
        await checkedCall(window, 'operator.setCertificatePassphrase', { passphrase: store.pfxPassphrase }),
      ).toEqual({ stored: true });
      expect((await checkedCall(window, 'operator.settings')).certificate_passphrase).toEqual({
        kind: 'safeStorage',
        stored: true,
      });
      const sealed = readFileSync(join(home, '.pinbridge', 'cert-passphrase.enc'));
      expect(sealed.toString('utf8')).not.toContain(store.pfxPassphrase);
      window.socket.terminate();
      await shells.pop()!.quit();

      double = electronDouble();
      started.length = 0;
      await run();
      expect(started[0]!.api.certificate).toEqual({ pfx: store.pfx, passphrase: store.pfxPassphrase });
      expect(started[0]!.settingsProblem).toBeUndefined();
    } finally {
      pki.remove();
    }
  }, 30_000);

  it("prints receipts on a system printer (lp://NAME) through Chromium, silently, at the slip's own size", async () => {
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(
      join(home, '.pinbridge', 'settings.json'),
      JSON.stringify({ printers: { default: { address: 'lp://Recibos', format: 'pdf', columns: 48 } } }),
    );
    const shell = await run();
    await shell.agent.ready;
    await shell.agent.stack.engine.start({
      referenceId: 'system-print-1',
      amount: centavos(1234),
      paymentType: 'credit',
      installments: 1,
      description: 'Impressão',
    });
    const printWindows = (): FakeWindow[] =>
      FakeWindow.all.filter((window) => window.options.show === false && window.webContents.printed.length > 0);
    await expect.poll(() => printWindows().length, { timeout: 10_000 }).toBe(2);
    const [customer, merchant] = printWindows();
    expect(decodeURIComponent(customer!.loaded[0]!)).toContain('VIA DO CLIENTE');
    expect(decodeURIComponent(merchant!.loaded[0]!)).toContain('VIA DO ESTABELECIMENTO');
    expect(customer!.options.webPreferences).toMatchObject({ sandbox: true, javascript: false });
    const options = customer!.webContents.printed[0]!;
    expect(options).toMatchObject({ silent: true, deviceName: 'Recibos', margins: { marginType: 'none' } });
    expect((options.pageSize as { width: number }).width).toBeGreaterThan(60_000); // 80 mm paper, in microns
    expect(customer!.destroyed).toBe(true);
  }, 30_000);

  it("lists the system's printers as Chromium knows them (also where there is no lpstat)", async () => {
    const shell = await run([], 'win32');
    const window = new RpcClient(await openSocket(shell.agent.pos.url));
    await window.call('session.operator', { key: shell.agent.operatorKey });
    expect(await window.call('operator.systemPrinters')).toEqual({
      printers: [{ address: 'lp://Recibos_80mm', name: 'Recibos_80mm', is_default: false }],
    });
    window.socket.terminate();
  });

  it('reads the words of `pinbridge start` from a shortcut', () => {
    expect(parseShellArguments(['--training', '--config', '/etc/pinbridge.json', '--port', '/dev/ttyACM0'])).toEqual({
      training: true,
      config: '/etc/pinbridge.json',
      pinpad: '/dev/ttyACM0',
      api: {},
      autostart: false,
    });
  });
});
