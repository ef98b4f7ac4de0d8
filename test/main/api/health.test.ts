/**
 * The payments API's health, as the cashier's window and the POS see it (`api.health`), is read
 * from the answers the client gets anyway. A timeout means "down" only when the attempt had a
 * fair chance: a watch polling once more with the last millisecond of its own deadline says
 * nothing about the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiHealthMonitor, type ApiHealthSnapshot } from '../../../main/api/health.js';
import { PaymentsClient, type Transaction } from '../../../main/api/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { startFaultProxy, PAYMENT_CALLS, type FaultProxy } from '../../helpers/fault-proxy.js';

let sandbox: RunningSandbox;
let proxy: FaultProxy;

beforeAll(async () => {
  sandbox = await startSandbox();
  proxy = await startFaultProxy(sandbox.url);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

function watchedClient(): { client: PaymentsClient; health: ApiHealthMonitor; changes: ApiHealthSnapshot[] } {
  const health = new ApiHealthMonitor();
  const changes: ApiHealthSnapshot[] = [];
  health.on('change', (snapshot) => changes.push(snapshot));
  const client = new PaymentsClient({
    baseUrl: proxy.url,
    token: sandbox.token,
    marketplaceId: sandbox.marketplaceId,
    maxRetries: 0,
    timeoutMs: 5_000,
    onAttempt: health.record,
  });
  return { client, health, changes };
}

const pending = (client: PaymentsClient): Promise<Transaction> =>
  client.transactions.create({
    payment_locale: 'pinpad',
    payment_type: 'credit',
    on_behalf_of: sandbox.sellerId,
    description: 'Venda',
    amount: 1990,
    terminal: 'PB-HEALTH-1',
  });

describe('the payments API health', () => {
  it('stays up when a wait polls with the last millisecond of its deadline', async () => {
    const { client, health, changes } = watchedClient();
    const transaction = await pending(client);
    expect(health.snapshot().state).toBe('up');

    await expect(client.transactions.waitForCompletion(transaction.id, { timeoutMs: 1 })).rejects.toMatchObject({
      code: 'timeout',
    });

    expect(health.snapshot().state).toBe('up');
    expect(changes.map((change) => change.state)).toEqual(['up']);
  });

  it('goes down when an attempt with a fair deadline gets no answer, and up again with the next answer', async () => {
    const { client, health } = watchedClient();
    const transaction = await pending(client);
    const held = proxy.add({ ...PAYMENT_CALLS.retrieve, action: 'timeout', times: 1 });
    await expect(client.transactions.retrieve(transaction.id, { timeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(held.hits).toBe(1);
    expect(health.snapshot()).toMatchObject({ state: 'down', lastError: { code: 'timeout' } });

    await client.transactions.retrieve(transaction.id);
    expect(health.snapshot().state).toBe('up');
  });
});
