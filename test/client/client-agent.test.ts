/**
 * The client against the real POS server (pos-rig: engine, sandbox, simulated PINPAD, receipts):
 * pairing with the code the agent announces, hello on a later connection, a payment to its
 * outcome with progress events, receipts, confirmation — the contract seen from both sides.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { PinbridgeClient } from '../../client/index.js';
import { posRig, type PosRig } from '../main/pos/pos-rig.js';

let rig: PosRig | undefined;
const clients: PinbridgeClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await rig?.close();
  rig = undefined;
});

function newClient(
  url: string,
  token: string | null = null,
  onToken?: (token: string | null) => void,
): PinbridgeClient {
  const client = new PinbridgeClient({ url, token, WebSocket, ...(onToken ? { onToken } : {}) });
  clients.push(client);
  return client;
}

describe('PinbridgeClient with the real agent', () => {
  it('pairs, logs in again with the token, pays with progress events, gets the receipts and confirms', async () => {
    rig = await posRig();
    const tokens: (string | null)[] = [];
    const first = newClient(rig.server.url, null, (token) => tokens.push(token));
    await first.connect();
    expect(first.state).toBe('open');
    expect(first.agentInfo).toMatchObject({ name: 'Pinbridge', mode: 'training', authenticated: false });

    const started = await first.pair('Caixa 1');
    const announced = rig.announced.find((pairing) => pairing.pairingId === started.pairing_id);
    expect(announced?.code).toMatch(/^\d{6}$/);
    await first.confirmPairing(announced?.code ?? '');
    expect(first.state).toBe('ready');
    expect(tokens).toHaveLength(1);
    first.close();

    const pos = newClient(rig.server.url, tokens[0] ?? null);
    await pos.connect();
    expect(pos.state).toBe('ready');
    const steps: string[] = [];
    pos.on('payment.progress', (progress) => steps.push(progress.step));

    const outcome = await pos.pay({
      reference_id: 'venda-1',
      amount: 1234,
      payment_type: 'credit',
      installments: 1,
      description: 'Teste',
    });

    expect(outcome).toMatchObject({ status: 'approved', reference_id: 'venda-1', amount: 1234 });
    expect(steps).toContain('waiting_card');
    const receipt = await pos.call('receipt.get', { reference_id: 'venda-1', copy: 'customer', format: 'html' });
    expect(receipt.content).toContain('<');
    if (outcome.confirmation === 'pending') {
      await expect(pos.call('payment.confirm', { reference_id: 'venda-1' })).resolves.toMatchObject({
        confirmation: 'confirmed',
      });
    }
    await expect(pos.call('payment.status', { reference_id: 'venda-1' })).resolves.toMatchObject({
      status: 'Processed',
    });
  });

  it('a revoked token at hello: TOKEN_INVALID, forgotten, still connected', async () => {
    rig = await posRig({ noPinpad: true });
    const tokens: (string | null)[] = [];
    const client = newClient(rig.server.url, 'not-a-token', (token) => tokens.push(token));

    await expect(client.connect()).rejects.toMatchObject({ code: 'TOKEN_INVALID' });

    expect(tokens).toEqual([null]);
    expect(client.state).toBe('open');
  });
});
