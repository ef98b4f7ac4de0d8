/**
 * The update server's protocol, headless: a generic feed served from 127.0.0.1 (the yml files as
 * electron-builder writes them: version, files[{url, sha512, size}], path, sha512, releaseDate,
 * stagingPercentage, and the installer) and the REAL electron-updater (its AppImageUpdater, the
 * updater of a Linux checkout) driven by main/app/updates.ts in plain Node. Two things are swapped
 * for Node's, through electron-updater's own seams: the app (its AppUpdater takes an app adapter)
 * and the HTTP client (its Electron `net` executor; here builder-util-runtime's HttpExecutor over
 * node:http). Everything else — the channel file's name, the yml's parsing, the staging
 * arithmetic, the download and its sha512 check — is electron-updater's.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
} from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { configureRequestOptions, configureRequestUrl, DownloadOptions, HttpExecutor } from 'builder-util-runtime';
import type { AppImageUpdater as AppImageUpdaterType } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { startUpdateChecks, type UpdateChecker, type UpdaterLike } from '../../../main/app/updates.js';
import { UpdateStatus } from '../../../main/updates/status.js';
import { rolloutPosition, stagingId, type StoreIdentity } from '../../../main/updates/policy.js';
import type { UpdateSettings } from '../../../main/settings/update-settings.js';
import { createLogger } from '../../../main/log.js';

// electron-updater's own copy of builder-util-runtime (the HttpExecutor it extends).
const requireFromUpdater = createRequire(createRequire(import.meta.url).resolve('electron-updater'));
const runtime = requireFromUpdater('builder-util-runtime') as {
  HttpExecutor: typeof HttpExecutor;
  configureRequestUrl: typeof configureRequestUrl;
  configureRequestOptions: typeof configureRequestOptions;
};
const { AppImageUpdater } = requireFromUpdater('electron-updater') as {
  AppImageUpdater: typeof AppImageUpdaterType;
};

/**
 * electron-updater's HTTP client over node:http instead of Electron's net: builder-util-runtime's
 * HttpExecutor does the requests, redirects and sha512-checked downloads; a subclass gives it a
 * request function and the download entry point (ElectronHttpExecutor.download, with Node's request).
 */
class NodeHttpExecutor extends runtime.HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined };
      runtime.configureRequestUrl(url, requestOptions);
      runtime.configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          // Called with nothing (not null) on success.
          callback: (error: Error | null | undefined) =>
            error instanceof Error ? reject(error) : resolve(destination),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

const logger = createLogger({ level: 'silent' });

/** One release of the feed, as electron-builder publishes it. */
interface Release {
  readonly version: string;
  readonly stagingPercentage?: number;
}

/** A generic update server: CHANNEL*.yml files and the installers they name, with what was asked of it. */
class FeedServer {
  readonly #server: Server;
  readonly installers = new Map<string, Buffer>();
  /** Per channel: the release its yml announces. */
  readonly channels = new Map<string, Release>();
  readonly requests: { path: string; stagingId: string | undefined }[] = [];
  url = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const header = req.headers['x-user-staging-id'];
      this.requests.push({ path, stagingId: typeof header === 'string' ? header : undefined });
      // latest.yml (Windows), latest-linux.yml, latest-linux-arm64.yml, latest-mac.yml: the same release.
      const yml = /^\/feed\/([a-z0-9_-]+?)(-linux(-[a-z0-9]+)?|-mac)?\.yml$/.exec(path);
      const release = yml === null ? undefined : this.channels.get(yml[1]!);
      if (release !== undefined) {
        res.writeHead(200, { 'content-type': 'text/yaml' }).end(this.yml(release));
        return;
      }
      const installer = this.installers.get(path.replace(/^\/feed\//, ''));
      if (installer !== undefined) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': installer.length });
        res.end(installer);
        return;
      }
      res.writeHead(404).end('not found');
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.url = `http://127.0.0.1:${address.port}/feed/`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** Publishes an installer of `version` on `channel`, staged to `stagingPercentage` when given. */
  publish(channel: string, release: Release): void {
    this.installers.set(`Pinbridge-${release.version}.AppImage`, randomBytes(64 * 1024));
    this.channels.set(channel, release);
  }

  /** The yml electron-builder writes for a release (app-builder-lib's updateInfoBuilder). */
  yml(release: Release): string {
    const file = `Pinbridge-${release.version}.AppImage`;
    const bytes = this.installers.get(file)!;
    const sha512 = createHash('sha512').update(bytes).digest('base64');
    return [
      `version: ${release.version}`,
      'files:',
      `  - url: ${file}`,
      `    sha512: ${sha512}`,
      `    size: ${bytes.length}`,
      `path: ${file}`,
      `sha512: ${sha512}`,
      `releaseDate: '2026-11-29T08:00:00.000Z'`,
      ...(release.stagingPercentage === undefined ? [] : [`stagingPercentage: ${release.stagingPercentage}`]),
      '',
    ].join('\n');
  }
}

/** One checkout: its own app folders, a real AppImageUpdater at version 0.1.0, and its update checks. */
interface Checkout {
  readonly updater: AppImageUpdaterType;
  readonly status: UpdateStatus;
  readonly checker: UpdateChecker;
  readonly userData: string;
  readonly cache: string;
  /** Checks the feed now (the check interval's timer) and waits for the check to end. */
  check(): Promise<void>;
}

let root: string;
let server: FeedServer;
const checkers: UpdateChecker[] = [];
let appImage: string | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'pinbridge-update-feed-'));
  server = new FeedServer();
  await server.start();
  // The AppImage being replaced: electron-updater's Linux updater needs to know it.
  appImage = process.env.APPIMAGE;
  process.env.APPIMAGE = join(root, 'Pinbridge-0.1.0.AppImage');
  writeFileSync(process.env.APPIMAGE, 'the running version');
});

afterAll(async () => {
  for (const checker of checkers) checker.stop();
  await server.close();
  if (appImage === undefined) delete process.env.APPIMAGE;
  else process.env.APPIMAGE = appImage;
  rmSync(root, { recursive: true, force: true });
});

let checkouts = 0;

async function checkout(
  settings: Partial<UpdateSettings>,
  identity: StoreIdentity,
  options: { readonly updaterId?: string } = {},
): Promise<Checkout> {
  const dir = join(root, `checkout-${++checkouts}`);
  const userData = join(dir, 'userData');
  const cache = join(dir, 'cache');
  mkdirSync(userData, { recursive: true });
  // What electron-builder packs next to the app (resources/app-update.yml).
  const config = join(dir, 'app-update.yml');
  writeFileSync(config, 'provider: generic\nurl: https://unused.example/\nupdaterCacheDirName: pinbridge-updater\n');
  if (options.updaterId !== undefined) writeFileSync(join(userData, '.updaterId'), options.updaterId);
  const app: AppAdapter = {
    version: '0.1.0',
    name: 'Pinbridge',
    isPackaged: true,
    appUpdateConfigPath: config,
    userDataPath: userData,
    baseCachePath: cache,
    whenReady: () => Promise.resolve(),
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  };
  const updater = new AppImageUpdater(null, app);
  // Node's HTTP client instead of Electron's net, before the feed is set (the provider takes it then).
  (updater as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor = new NodeHttpExecutor();
  // The test installers carry no block map to patch the old AppImage with.
  updater.disableDifferentialDownload = true;
  const status = new UpdateStatus();
  const timers: (() => void)[] = [];
  const checker = await startUpdateChecks({
    // An http:// loopback feed: the settings file takes https only, the checks take any URL.
    settings: { enabled: true, feed_url: server.url, check_interval_hours: 1, ...settings },
    identity,
    load: () => Promise.resolve(updater as unknown as UpdaterLike),
    logger,
    status,
    setInterval: (callback) => {
      timers.push(callback);
      return { unref: () => {} };
    },
    clearInterval: () => {},
  });
  checkers.push(checker!);
  const checked = async (): Promise<void> => {
    const before = status.state.lastCheck;
    await expect.poll(() => status.state.lastCheck !== before && status.state.state !== 'downloading').toBe(true);
  };
  await checked();
  return {
    updater,
    status,
    checker: checker!,
    userData,
    cache,
    check: async () => {
      timers[0]!();
      await checked();
    },
  };
}

/** Stores of the chain on either side of a rollout percentage (their place is a hash: found, not chosen). */
function storesAround(percentage: number): { inside: string; outside: string } {
  const names = Array.from({ length: 100 }, (_, n) => `loja-${String(n).padStart(3, '0')}`);
  const position = (store: string): number => rolloutPosition(stagingId({ chain: 'acme', store })!.id);
  return {
    inside: names.find((store) => position(store) < percentage / 100)!,
    outside: names.find((store) => position(store) >= percentage / 100)!,
  };
}

describe('a staged release on a generic update server, read by the real electron-updater', () => {
  it('reaches the stores inside its percentage and not the others; all checkouts of a store decide alike; raising it brings the rest', async () => {
    server.publish('latest', { version: '0.2.0', stagingPercentage: 40 });
    const { inside, outside } = storesAround(40);
    const a1 = await checkout({}, { chain: 'acme', store: inside, checkout: 'pdv-01' });
    const a2 = await checkout({}, { chain: 'acme', store: inside, checkout: 'pdv-02' });
    const b1 = await checkout({}, { chain: 'acme', store: outside, checkout: 'pdv-01' });
    const b2 = await checkout({}, { chain: 'acme', store: outside, checkout: 'pdv-02' });

    // Inside: both checkouts downloaded the installer (electron-updater checked its sha512) and wait for a quit.
    for (const store of [a1, a2]) {
      await expect.poll(() => store.status.state.state).toBe('downloaded');
      expect(store.checker.pending).toBe('0.2.0');
      const downloaded = readFileSync(join(store.cache, 'pinbridge-updater', 'pending', 'Pinbridge-0.2.0.AppImage'));
      expect(downloaded.equals(server.installers.get('Pinbridge-0.2.0.AppImage')!)).toBe(true);
    }
    // Outside: both read the feed and took nothing.
    for (const store of [b1, b2]) {
      expect(store.status.state).toMatchObject({ state: 'none', version: null, lastCheck: { error: null } });
      expect(store.checker.pending).toBeUndefined();
    }
    // The server saw each store's one staging id, the same from both of its checkouts.
    const idOf = (store: string): string => stagingId({ chain: 'acme', store })!.id;
    const ymlRequests = server.requests.filter((r) => r.path.endsWith('.yml'));
    expect(new Set(ymlRequests.map((r) => r.path.replace(/-linux.*|-mac.*/, '')))).toEqual(new Set(['/feed/latest']));
    expect(new Set(ymlRequests.map((r) => r.stagingId))).toEqual(new Set([idOf(inside), idOf(outside)]));
    expect(server.requests.filter((r) => r.path.endsWith('.AppImage'))).toHaveLength(2);

    // The chain raises the rollout to 100 %: the next check brings the other store, both checkouts.
    server.publish('latest', { version: '0.2.0', stagingPercentage: 100 });
    for (const store of [b1, b2]) {
      await store.check();
      await expect.poll(() => store.status.state).toMatchObject({ state: 'downloaded', version: '0.2.0' });
    }
  });

  it("decides as electron-updater itself does from a .updaterId holding the store's id", async () => {
    server.publish('latest', { version: '0.3.0', stagingPercentage: 40 });
    const { inside, outside } = storesAround(40);
    for (const [store, reached] of [
      [inside, true],
      [outside, false],
    ] as const) {
      // No fleet ids: staging left to electron-updater's isStagingMatch, reading the id from its file.
      const own = await checkout({}, {}, { updaterId: stagingId({ chain: 'acme', store })!.id });
      expect(own.status.state.stagedBy).toBe('install');
      await expect.poll(() => own.status.state.state).toBe(reached ? 'downloaded' : 'none');
      expect(own.checker.pending).toBe(reached ? '0.3.0' : undefined);
    }
  });

  it('reads its own channel file: a beta store takes the beta, a latest one does not see it', async () => {
    server.publish('latest', { version: '0.2.0' });
    server.publish('beta', { version: '0.4.0-beta.1' });
    const from = server.requests.length;
    const beta = await checkout({ channel: 'beta' }, { chain: 'acme', store: 'loja-beta' });
    await expect.poll(() => beta.status.state).toMatchObject({ state: 'downloaded', version: '0.4.0-beta.1' });
    const stable = await checkout({}, { chain: 'acme', store: 'loja-stable' });
    await expect.poll(() => stable.status.state).toMatchObject({ state: 'downloaded', version: '0.2.0' });
    const asked = server.requests.slice(from).map((r) => r.path);
    expect(asked.filter((path) => path.startsWith('/feed/beta'))).toHaveLength(1);
    expect(asked).toContain('/feed/Pinbridge-0.4.0-beta.1.AppImage');
    expect(asked.filter((path) => path.endsWith('.yml') && !path.startsWith('/feed/beta'))).toHaveLength(1);
  });

  it('reports a feed without the channel file as a failed check, the app unchanged', async () => {
    const missing = await checkout({ channel: 'pilot' }, { chain: 'acme', store: 'loja-042' });
    expect(missing.status.state).toMatchObject({ state: 'none' });
    expect(missing.status.state.lastCheck?.error).toMatch(/Cannot find channel "pilot.*\.yml" update info/);
  });
});
