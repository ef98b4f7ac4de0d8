/**
 * `pinbridge start` on a disk already full (issue 33): after a crash left a sale in flight, after
 * a clean stop, and in training mode. It answers, refuses new sales with DISK_FULL, and once
 * there is room approves the next sale without a restart. (The disk that fills during sales:
 * start-disk-full.test.ts.)
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { serve } from '../../helpers/cli.js';
import { checkedCall, checkedFailure, openSocket, RpcClient } from '../pos/pos-rig.js';
import {
  agrees,
  answered,
  atApi,
  decided,
  FULL_FOR_MS,
  keepFull,
  homeOnSmallDisk,
  loggedIn,
  noUnhandledFault,
  pairedPos,
  sale,
  smallDisk,
  smallDiskOnly,
  startAgent,
  stillRunning,
  useSandboxAndSmallDisk,
} from './small-disk-agent.js';

useSandboxAndSmallDisk();

describe('pinbridge start on a disk already full (issue 33)', () => {
  it.each([
    ['after a crash left a sale in flight (its files as the crash left them)', true],
    ['after a clean stop (every file to be opened anew: the journal and the clients file read-only)', false],
  ] as const)(
    'starts on a disk already full, its reserve long gone, %s: answers, refuses new sales with DISK_FULL, and once there is room approves the next sale without a restart',
    async (_case, crash) => {
      const home = homeOnSmallDisk();
      const first = await startAgent(home);
      const pos = await pairedPos(first);
      const token = pos.token!;
      expect(await checkedCall(pos, 'payment.start', sale())).toMatchObject({ status: 'approved' });
      let inFlight: ReturnType<typeof sale> | undefined;
      if (crash) {
        // Killed (a power cut) while a card is being authorized.
        const params = sale();
        inFlight = params;
        const killed = new Promise<void>((resolve) =>
          pos.socket.on('message', (data: Buffer) => {
            const message = JSON.parse(data.toString('utf8')) as { method?: string; params?: Record<string, unknown> };
            if (message.method !== 'payment.progress' || message.params?.reference_id !== params.reference_id) return;
            if (message.params.step !== 'authorizing') return;
            first.child.kill('SIGKILL');
            resolve();
          }),
        );
        void pos.request('payment.start', params);
        await killed;
      }
      await first.stop();
      await pos.close();
      // The disk filled while the agent was away, after its reserve had already been given back.
      rmSync(join(home, '.pinbridge', 'journal.db.reserve'), { force: true });
      smallDisk().fill();

      const agent = await startAgent(home);
      const pid = agent.child.pid;
      expect(agent.ready).toMatchObject({ status: 'ready', mode: 'live', pinpad: { state: 'ready' } });
      // With nothing to give back, a journal closed cleanly could only be opened read-only: the log says so.
      if (!crash) expect(agent.stderr()).toContain('the journal was opened on a full disk');
      const client = await loggedIn(agent, token);
      expect(await checkedCall(client, 'agent.info')).toMatchObject({ name: 'Pinbridge', mode: 'live' });
      expect((await checkedCall(client, 'agent.status')).disk).toMatchObject({ state: 'full', sales_refused: true });
      const refused = sale();
      expect((await checkedFailure(client, 'payment.start', refused)).code).toBe('DISK_FULL');
      expect(await atApi(refused.reference_id)).toBeNull();
      if (inFlight !== undefined) {
        // The sale the crash left is read from the journal, not forgotten: undecided until it can be written.
        const left = await checkedCall(client, 'payment.status', { reference_id: inFlight.reference_id });
        expect(left.status).toBe('InProgress');
      }
      await keepFull(FULL_FOR_MS);
      stillRunning(agent, pid);
      expect(await checkedCall(client, 'agent.info')).toMatchObject({ name: 'Pinbridge' });

      smallDisk().free();
      const next = sale();
      expect(await answered(checkedCall(client, 'payment.start', next), 'the first sale with room')).toMatchObject({
        status: 'approved',
      });
      expect(await atApi(next.reference_id)).toBe('succeeded');
      if (inFlight !== undefined) {
        const outcome = await decided(client, inFlight.reference_id);
        expect(agrees(outcome.status, await atApi(inFlight.reference_id))).toBe(true);
      }
      await vi.waitFor(async () => expect((await checkedCall(client, 'agent.status')).disk.state).toBe('ok'), {
        timeout: 10_000,
        interval: 250,
      });
      // Its reserve is back for the next time.
      expect(existsSync(join(home, '.pinbridge', 'journal.db.reserve'))).toBe(true);
      stillRunning(agent, pid);
      noUnhandledFault(agent);
      expect(await agent.stop()).toBe(0);
    },
    180_000,
  );

  it('in training mode too: the embedded sandbox opens on the journal’s reserve, and new sales are refused with DISK_FULL until there is room', async () => {
    const disk = smallDiskOnly();
    const home = disk.dir;
    const first = await serve(['start', '--pos-port', '0'], { HOME: home, PINBRIDGE_LOG_FORMAT: 'json' });
    await first.stop();
    disk.fill();
    const agent = await serve(['start', '--pos-port', '0'], { HOME: home, PINBRIDGE_LOG_FORMAT: 'json' });
    expect(agent.ready).toMatchObject({ status: 'ready', mode: 'training' });
    expect(agent.stderr()).toContain("the journal's reserve was given back so that training's sandbox can open");
    const window = new RpcClient(await openSocket(agent.ready.ws as string));
    await window.call('session.operator', {
      key: readFileSync(join(home, '.pinbridge', 'operator.key'), 'utf8').trim(),
    });
    expect((await checkedFailure(window, 'payment.start', sale())).code).toBe('DISK_FULL');
    disk.free();
    expect(await answered(checkedCall(window, 'payment.start', sale()), 'a training sale with room')).toMatchObject({
      status: 'approved',
    });
    noUnhandledFault(agent);
    expect(await agent.stop()).toBe(0);
  }, 120_000);
});
