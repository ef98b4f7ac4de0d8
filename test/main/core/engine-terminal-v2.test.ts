/**
 * Card-present sales through terminal channel v2, whole: the real driver reads the simulated
 * PINPAD (whose DUKPT keys come from the ANSI X9.24 test BDK), the engine sends what it sealed
 * to the sandbox, which opens the track 2 and the PIN block and checks every field before it
 * decides (a 400 would name the broken field). A proxy in between shows which route each
 * authorization took and what the sandbox answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PaymentsClient } from '../../../main/api/index.js';
import { centavos } from '../../../main/core/money.js';
import { PAYMENT_CALLS, startFaultProxy, type FaultProxy, type SeenRequest } from '../../helpers/fault-proxy.js';
import { displayed, engineRig, saleParams, type EngineRig, type RigOptions } from './engine-rig.js';

let rig: EngineRig | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await rig?.close();
  await proxy?.close();
  rig = undefined;
  proxy = undefined;
});

interface Stack {
  readonly rig: EngineRig;
  readonly proxy: FaultProxy;
}

async function open(options: RigOptions = {}): Promise<Stack> {
  rig = await engineRig({
    simulator: { timeScale: 0.05 },
    ...options,
    apiBaseUrl: async (sandbox) => (proxy = await startFaultProxy(sandbox.url)).url,
  });
  await rig.addPinpad('PB-V2-0001', options.simulator);
  return { rig, proxy: proxy! };
}

const authorizations = (p: FaultProxy): Pick<SeenRequest, 'path' | 'status'>[] =>
  p
    .requests(PAYMENT_CALLS.authorize)
    .map(({ path, status }) => ({ path: path.replace(/[0-9a-f]{32}/g, '{id}'), status }));

const V2_ROUTE = '/v2/marketplaces/{id}/transactions/{id}/authorization';

/** Every screen of the PINPAD from now on, its lines trimmed and joined by "\n". */
function screens(rigged: EngineRig): string[] {
  const shown: string[] = [];
  rigged.pinpads[0]!.sim.on('display', ({ lines }: { lines: readonly string[] }) =>
    shown.push(
      lines
        .map((line) => line.trim())
        .join('\n')
        .trimEnd(),
    ),
  );
  return shown;
}

async function entryModeAtApi(client: PaymentsClient, transactionId: string | null | undefined): Promise<unknown> {
  return (await client.transactions.retrieve(transactionId!)).point_of_sale?.entry_mode;
}

describe('a sale through terminal channel v2, every field checked by the host', () => {
  it('approves a chip card with its online PIN: the sandbox opened the track 2 and the PIN block', async () => {
    const { rig: r, proxy: p } = await open({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
    });
    const outcome = await r.engine.start(saleParams('v2-chip'));
    expect(outcome).toMatchObject({
      status: 'approved',
      card: { entryMode: 'chip', maskedPan: '411111******1111' },
      issuerResponseCode: '00',
    });
    expect(authorizations(p)).toEqual([{ path: V2_ROUTE, status: 200 }]);
    expect(await entryModeAtApi(r.client, outcome.transactionId)).toBe('chip');
    expect(r.journal.get(outcome.paymentId)?.card).toMatchObject({ verification: 'online_pin' });
  });

  it('approves a contactless card under the CVM limit, without a PIN', async () => {
    const { rig: r, proxy: p } = await open({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaContactless' } },
    });
    const outcome = await r.engine.start(saleParams('v2-ctls', { amount: centavos(4990) }));
    expect(outcome).toMatchObject({ status: 'approved', card: { entryMode: 'contactless_chip' } });
    expect(authorizations(p)).toEqual([{ path: V2_ROUTE, status: 200 }]);
    expect(await entryModeAtApi(r.client, outcome.transactionId)).toBe('contactless_chip');
  });

  it('approves the swipe that follows a failed chip as a fallback (801), from its sealed track 2', async () => {
    const { rig: r, proxy: p } = await open();
    const sim = r.pinpads[0]!.sim;
    const running = r.engine.start(saleParams('v2-fallback'));
    await displayed(sim, /INSIRA|APROXIME|PASSE/);
    sim.insertCard('visaChipFallback');
    await displayed(sim, /RETIRE O CARTAO/);
    sim.removeCard();
    await displayed(sim, /^FALHA NO CHIP\nPASSE O CARTAO$/);
    sim.swipeCard('visaChipFallback');
    const outcome = await running;
    expect(outcome).toMatchObject({
      status: 'approved',
      card: { entryMode: 'magstripe_fallback', maskedPan: '444433******1111' },
    });
    expect(authorizations(p)).toEqual([{ path: V2_ROUTE, status: 200 }]);
    expect(await entryModeAtApi(r.client, outcome.transactionId)).toBe('magstripe_fallback');
  });

  it('declines a wrong PIN with the issuer’s 55: incorrect_pin to the POS, "Senha inválida" to the cashier, SENHA INVALIDA on the PINPAD', async () => {
    const { rig: r, proxy: p } = await open({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit', pin: '4321' } },
    });
    const shown = screens(r);
    // An amount the sandbox approves: only the PIN makes it decline.
    const outcome = await r.engine.start(saleParams('v2-wrong-pin', { amount: centavos(1990) }));
    expect(outcome).toMatchObject({
      status: 'declined',
      declineCode: 'incorrect_pin',
      issuerResponseCode: '55',
      problem: { code: 'CARD_DECLINED', cashierMessage: 'Senha inválida' },
    });
    expect(authorizations(p)).toEqual([{ path: V2_ROUTE, status: 200 }]);
    expect(shown).toContain('NAO AUTORIZADA\nSENHA INVALIDA');
    expect((await r.client.transactions.retrieve(outcome.transactionId!)).status).toBe('failed');
  });
});

describe('a provider on another terminal channel', () => {
  it('goes through v1 where the settings say the provider serves only v1', async () => {
    const { rig: r, proxy: p } = await open({
      clientOptions: { capabilities: { terminalChannel: 1 } },
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
    });
    const outcome = await r.engine.start(saleParams('v1-chip'));
    expect(outcome).toMatchObject({ status: 'approved', card: { entryMode: 'chip' } });
    expect(authorizations(p)).toEqual([{ path: '/v1/marketplaces/{id}/transactions/{id}/authorization', status: 200 }]);
  });

  it('ends the sale at once, nothing charged, when the provider has no v2 route (404): API_REJECTED, never a lookup loop', async () => {
    const { rig: r, proxy: p } = await open({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
    });
    p.add({ ...PAYMENT_CALLS.authorize, action: 'status', status: 404, times: Infinity });
    const outcome = await r.engine.start(saleParams('v2-missing'));
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'API_REJECTED' } });
    expect(outcome.problem?.message).toContain('not_found');
    expect(authorizations(p)).toEqual([{ path: V2_ROUTE, status: 404 }]);
    expect((await r.client.transactions.retrieve(outcome.transactionId!)).status).toBe('canceled');
    const states = r.journal.events(outcome.paymentId).map((event) => event.to);
    expect(states).toContain('aborting');
    expect(states.at(-1)).toBe('failed');
  });
});
