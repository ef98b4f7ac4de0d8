/**
 * The desktop app's updates in the window (operator.updates, event agent.update): what the shell
 * reports through the agent's port (main/updates/status.ts) reaches Pinbridge's own window, and
 * no POS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateStatus } from '../../../../main/updates/status.js';
import { checkedCall as call, checkedEvent, checkedFailure as refused, posRig, type PosRig } from '../pos-rig.js';

let pos: PosRig;
const updates = new UpdateStatus();

beforeAll(async () => {
  pos = await posRig({ noPinpad: true, updates });
});
afterAll(async () => pos.close());

describe('the desktop app updates, in the window', () => {
  it('are off until the shell says otherwise (a headless agent keeps them so)', async () => {
    const window = await pos.operator();
    expect(await call(window, 'operator.updates')).toEqual({
      enabled: false,
      channel: null,
      state: 'none',
      version: null,
      install_window: null,
      waiting_for_sale: false,
      staged_by: null,
      rollout_position: null,
      last_check: null,
    });
    const headless = await posRig({ noPinpad: true });
    expect(await call(await headless.operator(), 'operator.updates')).toMatchObject({ enabled: false, state: 'none' });
    await headless.close();
  });

  it('show the version downloaded and when it installs, as it changes; a POS neither reads nor hears them', async () => {
    const window = await pos.operator();
    const posClient = await pos.paired('Caixa 1');
    updates.update({
      enabled: true,
      channel: 'latest',
      installWindow: '02:00-05:00',
      stagedBy: 'store',
      rolloutPosition: 37.25,
      lastCheck: { at: '2026-11-29T09:00:00.000Z', error: null },
    });
    updates.update({ state: 'downloaded', version: '1.4.0' });
    expect(await checkedEvent(window, 'agent.update', (update) => update.state === 'downloaded')).toEqual({
      enabled: true,
      channel: 'latest',
      state: 'downloaded',
      version: '1.4.0',
      install_window: '02:00-05:00',
      waiting_for_sale: false,
      staged_by: 'store',
      rollout_position: 37.25,
      last_check: { at: '2026-11-29T09:00:00.000Z', error: null },
    });
    updates.update({ waitingForSale: true });
    expect(await checkedEvent(window, 'agent.update', (update) => update.waiting_for_sale === true)).toMatchObject({
      version: '1.4.0',
    });
    expect(await call(window, 'operator.updates')).toMatchObject({ state: 'downloaded', waiting_for_sale: true });
    expect(await refused(posClient, 'operator.updates')).toMatchObject({ code: 'OPERATOR_ONLY' });
    expect(posClient.events('agent.update')).toEqual([]);
  });
});
