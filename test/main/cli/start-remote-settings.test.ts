/**
 * `pinbridge start` (the real bin, training mode) following the chain's signed settings: a
 * document served over HTTPS applies by itself — the agent restarts at the same address and
 * prints its ready line again with the document's printer — and `pinbridge remote-settings
 * status` then says which version runs.
 * (The bin runs the bundle: `npm run build` first.)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { remoteSettingsKeyPath } from '../../../main/paths.js';
import { pinKey } from '../../../main/remote-settings/keys.js';
import { defaultSettingsPath } from '../../../main/settings/settings-file.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { runMain, serve, stopServers } from '../../helpers/cli.js';
import {
  generateKeyPair,
  signedDocument,
  startSettingsServer,
  type SettingsServer,
} from '../../helpers/remote-settings.js';

let server: SettingsServer | undefined;
afterEach(async () => {
  await stopServers();
  await server?.close();
});

describe('pinbridge start with remote settings', () => {
  it('applies a signed document by itself and prints its ready line again', async () => {
    const home = mkdtempSync(join(artifactsDir(), 'start-remote-'));
    server = await startSettingsServer();
    const keys = generateKeyPair();
    pinKey(remoteSettingsKeyPath(home), keys.publicKey);
    mkdirSync(dirname(defaultSettingsPath(home)), { recursive: true });
    writeFileSync(
      defaultSettingsPath(home),
      JSON.stringify({
        fleet: { chain: 'rede-sul', store: 'loja-7' },
        remote_settings: {
          url: `${server.url}/{chain}/{store}.json`,
          ca: server.caFile,
        },
      }),
    );
    server.serve(
      signedDocument(keys, {
        version: 1,
        settings: { printers: { balcao: { address: `file://${home}/printed/`, format: 'escpos' } } },
      }),
    );

    const agent = await serve(['start', '--pos-port', '0'], { HOME: home });
    expect(agent.ready.printers).not.toContain('balcao');
    const lines: Record<string, unknown>[] = [];
    let pending = '';
    agent.child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const complete = pending.split('\n');
      pending = complete.pop() ?? '';
      for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    // The first check is 10 s after the start; the restart follows at once (nothing is selling).
    await expect
      .poll(() => lines.find((line) => line.status === 'ready'), { timeout: 30_000, interval: 200 })
      .toMatchObject({ printers: expect.arrayContaining(['balcao']) as unknown, ws: agent.ready.ws });

    // Confirmed once the restarted agent is ready (its ready line and the confirmation are a moment apart).
    const status = async (): Promise<unknown> =>
      JSON.parse((await runMain(['remote-settings', 'status', '--json'], { HOME: home })).stdout);
    await expect.poll(status, { timeout: 10_000 }).toMatchObject({
      configured: true,
      key: 'pinned',
      running: { version: 1, url: `${server.url}/rede-sul/loja-7.json` },
      last_refusal: null,
    });
    expect(server.requests).toContain('/rede-sul/loja-7.json');
  }, 60_000);
});
