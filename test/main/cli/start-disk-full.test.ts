/**
 * No write can kill the agent (issue 33). `pinbridge start` as a store runs it — a real process,
 * its home (journal, logs, print journal, clients file, receipts folder) all on one small disk of
 * its own (a real tmpfs), against the payments API sandbox in a process of its own — while the
 * disk fills at every progress step of a sale and stays full for a while, and while it starts on
 * a disk already full. Whatever the disk does:
 * - the agent never exits (and no error reaches its process guard: each writer degrades itself);
 * - the POS always gets an answer, and nothing the API holds charged is ever called failed;
 * - a new sale on the full disk is refused with DISK_FULL, and the window and agent.status say so;
 * - once there is room, the next sale is approved, without a restart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checkedCall, checkedFailure, openSocket, RpcClient } from '../pos/pos-rig.js';
import {
  agrees,
  ANSWER_MS,
  answered,
  atApi,
  decided,
  FULL_FOR_MS,
  homeOnSmallDisk,
  keepFull,
  noUnhandledFault,
  pairedPos,
  SALE_STEPS,
  sale,
  smallDisk,
  startAgent,
  stillRunning,
  useSandboxAndSmallDisk,
} from './small-disk-agent.js';

useSandboxAndSmallDisk();

describe('pinbridge start with its home on a disk that fills (issue 33)', () => {
  it(
    'filled at every progress step of a sale and kept full a while: never exits, always answers, never calls a charged card failed, refuses new sales with DISK_FULL, and sells again once there is room',
    async () => {
      const home = homeOnSmallDisk();
      const agent = await startAgent(home);
      const pid = agent.child.pid;
      const pos = await pairedPos(agent);
      const window = new RpcClient(await openSocket(agent.ready.ws as string));
      await window.call('session.operator', {
        key: readFileSync(join(home, '.pinbridge', 'operator.key'), 'utf8').trim(),
      });

      for (const step of SALE_STEPS) {
        const params = sale();
        let filled: Promise<void> | undefined;
        const onMessage = (data: Buffer): void => {
          const message = JSON.parse(data.toString('utf8')) as { method?: string; params?: Record<string, unknown> };
          if (filled !== undefined || message.method !== 'payment.progress') return;
          if (message.params?.reference_id !== params.reference_id || message.params.step !== step) return;
          filled = keepFull(FULL_FOR_MS);
        };
        pos.socket.on('message', onMessage);
        const answer = await answered(checkedCall(pos, 'payment.start', params), `payment.start filled at ${step}`);
        pos.socket.off('message', onMessage);
        expect(filled, `the sale never reached ${step}`).toBeDefined();
        expect(answer.status, `filled at ${step}`).not.toBe('failed');
        const apiThen = await atApi(params.reference_id);
        expect(agrees(answer.status, apiThen), `filled at ${step}: told ${answer.status}, the API has ${apiThen}`).toBe(
          true,
        );

        // While the disk is full: a new sale is refused before anything happens, and everyone is told why.
        const refused = sale();
        const error = await answered(checkedFailure(pos, 'payment.start', refused), 'payment.start on a full disk');
        expect(error.code).toBe('DISK_FULL');
        expect(await atApi(refused.reference_id)).toBeNull();
        expect(await checkedCall(pos, 'agent.info')).toMatchObject({ name: 'Pinbridge' });
        await vi.waitFor(
          async () =>
            expect((await checkedCall(window, 'agent.status')).disk, `filled at ${step}`).toMatchObject({
              state: 'full',
              sales_refused: true,
              cashier_message: 'Disco do computador cheio: novas vendas estão suspensas até liberar espaço.',
            }),
          { timeout: 10_000, interval: 250 },
        );
        if (step === SALE_STEPS[0]) {
          // The window's saves say the disk is full, in Portuguese, and leave the file as it was.
          const settingsFile = join(home, '.pinbridge', 'settings.json');
          const before = readFileSync(settingsFile, 'utf8');
          const saved = await checkedFailure(window, 'operator.saveSettings', { settings: { confirmation: 'pos' } });
          expect(saved).toMatchObject({
            code: 'DISK_FULL',
            cashier_message:
              'As configurações não foram salvas: o disco do computador está cheio. Libere espaço e salve de novo.',
          });
          expect(readFileSync(settingsFile, 'utf8')).toBe(before);
          // And the log export says the log file is not being written, with the lines it missed from memory.
          const logs = await checkedCall(window, 'operator.exportLogs', {});
          expect(logs.not_written).toMatchObject({ code: 'ENOSPC' });
          const inFile = readFileSync(join(home, '.pinbridge', 'logs', 'pinbridge.log'), 'utf8');
          expect(logs.text.split('\n').filter((line) => line !== '' && !inFile.includes(line)).length).toBeGreaterThan(
            0,
          );
        }
        await filled;
        stillRunning(agent, pid);

        // Room again: nothing to restart — the next sale is approved, and the one the disk stopped ends agreeing with the API.
        smallDisk().free();
        const next = sale();
        expect(await answered(checkedCall(pos, 'payment.start', next), 'the next sale')).toMatchObject({
          status: 'approved',
        });
        expect(await atApi(next.reference_id)).toBe('succeeded');
        const outcome = await decided(pos, params.reference_id);
        const apiNow = await atApi(params.reference_id);
        expect(
          agrees(outcome.status, apiNow),
          `filled at ${step}: ended ${outcome.status}, the API has ${apiNow}`,
        ).toBe(true);
        if (apiNow === 'succeeded') expect(outcome.status).toBe('approved');
        await vi.waitFor(async () => expect((await checkedCall(window, 'agent.status')).disk.state).toBe('ok'), {
          timeout: 10_000,
          interval: 250,
        });
      }

      stillRunning(agent, pid);
      noUnhandledFault(agent);
      // The window heard the disk fill and empty, and the audit trail has each change once.
      expect(window.events('agent.disk').map((event) => (event as { state: string }).state)).toContain('full');
      const audit = readFileSync(join(home, '.pinbridge', 'logs', 'audit.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind: string });
      const full = audit.filter((line) => line.kind === 'disk.full').length;
      const recovered = audit.filter((line) => line.kind === 'disk.recovered').length;
      expect(full).toBeGreaterThanOrEqual(SALE_STEPS.length);
      expect(recovered).toBe(full);
      // The log file kept every line whole, and says where it could not be written.
      const log = readFileSync(join(home, '.pinbridge', 'logs', 'pinbridge.log'), 'utf8')
        .trim()
        .split('\n');
      for (const line of log) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(log.some((line) => line.includes('the log file could not be written from'))).toBe(true);
      expect(await agent.stop()).toBe(0);
    },
    SALE_STEPS.length * (ANSWER_MS / 2) + 60_000,
  );
});
