/**
 * `pinbridge clients`: a technician lists, revokes and blocks POS clients in the same file the
 * running agent reads at every request.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClientStore } from '../../../main/pos/clients/client-store.js';
import { clientsPath } from '../../../main/paths.js';
import { run, runMain } from '../../helpers/cli.js';

function pairedHome(): { home: string; token: string; clientId: string } {
  const home = mkdtempSync(join(tmpdir(), 'pinbridge-clients-cli-'));
  const store = ClientStore.open(clientsPath(home));
  const { pairing, code } = store.requestPairing({ name: 'Caixa 2', origin: 'https://pos.loja.example' });
  const { client, token } = store.completePairing({ pairingId: pairing.id, code, origin: 'https://pos.loja.example' });
  store.close();
  return { home, token, clientId: client.id };
}

describe('pinbridge clients', () => {
  it('lists the paired clients without their tokens', async () => {
    const { home, token, clientId } = pairedHome();
    const result = await runMain(['clients', 'list', '--json'], { HOME: home });
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as { clients: { id: string; name: string; revokedAt: string | null }[] };
    expect(listed.clients).toEqual([expect.objectContaining({ id: clientId, name: 'Caixa 2', revokedAt: null })]);
    expect(result.stdout).not.toContain(token.slice(4));
  });

  it('says no client has paired yet on a machine where the agent never ran, and leaves no file behind', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pinbridge-clients-cli-'));
    const text = await runMain(['clients', 'list'], { HOME: home });
    expect(text.code).toBe(0);
    expect(text.stdout.trim()).toBe('No POS client has paired yet.');
    const json = await runMain(['clients', 'list', '--json'], { HOME: home });
    expect(JSON.parse(json.stdout)).toEqual({ clients: [], pending: [], blocked: [], blockedPrograms: [] });
    expect(existsSync(clientsPath(home))).toBe(false);
  });

  it('revokes a client: the token no longer authenticates', async () => {
    const { home, token, clientId } = pairedHome();
    const result = await runMain(['clients', 'revoke', clientId], { HOME: home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Revoked Caixa 2');
    const store = ClientStore.open(clientsPath(home));
    let refused: unknown;
    try {
      store.authenticate(token, 'https://pos.loja.example');
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'TOKEN_REVOKED' });
    store.close();
  });

  it("revokes a client of a running agent from its own process: the agent's next revocation check refuses it", async () => {
    const { home, clientId } = pairedHome();
    // The agent's store, open all along and asked at every POS request.
    const agent = ClientStore.open(clientsPath(home));
    try {
      expect(agent.isActive(clientId)).toBe(true);
      expect(agent.isActive(clientId)).toBe(true);
      const result = await run(['clients', 'revoke', clientId], 20_000, { HOME: home });
      expect(result.code).toBe(0);
      expect(agent.isActive(clientId)).toBe(false);
    } finally {
      agent.close();
    }
  });

  it('blocks and unblocks an origin, and refuses what is not an origin (exit 2)', async () => {
    const { home } = pairedHome();
    expect((await runMain(['clients', 'block', 'https://evil.example'], { HOME: home })).code).toBe(0);
    const store = ClientStore.open(clientsPath(home));
    expect(store.isBlocked('https://evil.example')).toBe(true);
    store.close();
    expect((await runMain(['clients', 'unblock', 'https://evil.example'], { HOME: home })).code).toBe(0);
    const bad = await runMain(['clients', 'block', 'not an origin'], { HOME: home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not an origin');
    expect((await runMain(['clients', 'revoke', 'cli_unknown'], { HOME: home })).code).toBe(2);
  });

  it('lists the programs blocked in the window, and unblocks one', async () => {
    const { home } = pairedHome();
    const store = ClientStore.open(clientsPath(home));
    const blocked = store.blockProgram({ name: 'node', program: '/usr/bin/node /tmp/squatter.mjs' });
    store.close();
    const listed = await runMain(['clients', 'list'], { HOME: home });
    expect(listed.stdout).toContain(`${blocked.id}  blocked program  /usr/bin/node /tmp/squatter.mjs  since`);
    const unblocked = await runMain(['clients', 'unblock-program', blocked.id], { HOME: home });
    expect(unblocked.code).toBe(0);
    expect(unblocked.stdout).toContain('Unblocked the program /usr/bin/node /tmp/squatter.mjs.');
    expect((await runMain(['clients', 'unblock-program', blocked.id], { HOME: home })).code).toBe(2);
  });

  it('names where wrong pairing codes came from, and unlocks pairing after too many', async () => {
    const { home } = pairedHome();
    const store = ClientStore.open(clientsPath(home), { wrongCodeBudget: 2 });
    for (let i = 0; i < 2; i++) {
      const { pairing, code } = store.requestPairing({ name: `Adivinho ${i}`, origin: 'https://adivinho.example' });
      expect(() =>
        store.completePairing({
          pairingId: pairing.id,
          code: code === '000000' ? '000001' : '000000',
          origin: 'https://adivinho.example',
        }),
      ).toThrow();
    }
    store.close();
    // The CLI opens the store with the default budget (50): a warning, not locked.
    const listed = await runMain(['clients', 'list'], { HOME: home });
    expect(listed.stdout).toContain('warning  2 wrong pairing codes in 24 h (locks at 50)');
    expect(listed.stdout).toContain('wrong codes  2  from https://adivinho.example');
    const json = JSON.parse((await runMain(['clients', 'list', '--json'], { HOME: home })).stdout) as {
      pairingGuard: { wrongCodes: number };
    };
    expect(json.pairingGuard.wrongCodes).toBe(2);

    const unlocked = await runMain(['clients', 'unlock'], { HOME: home });
    expect(unlocked.code).toBe(0);
    expect(unlocked.stdout).toContain('Pairing unlocked (2 wrong codes forgotten).');
    expect((await runMain(['clients', 'list'], { HOME: home })).stdout).not.toContain('wrong pairing codes');
  });
});
