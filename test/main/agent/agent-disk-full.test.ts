/**
 * The agent when its disk fills (issue 33), in plain Node with its home on a real small disk (a
 * tmpfs) and its PINPAD a simulator over TCP whose screen the test reads: the idle PINPAD says
 * DISCO CHEIO / VENDAS SUSPENSAS while no sale fits, and that the checkout is free once there is
 * room again; the audit trail records each change once; agent.status says the same.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PinpadSimulator, startTcpSimulator, type TcpSimulator } from '../../../drivers/simulator/index.js';
import { Agent } from '../../../main/agent/agent.js';
import { DISK_FULL_IDLE_TEXT } from '../../../main/agent/pinpad-keeper.js';
import { createLogger } from '../../../main/log.js';
import { loadSettings } from '../../../main/settings/settings-file.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';
import { checkedCall, openSocket, RpcClient } from '../pos/pos-rig.js';
import { centavos } from '../../../main/core/money.js';

const MiB = 1024 * 1024;
let disk: SmallDisk | undefined;
let agent: Agent | undefined;
let tcp: TcpSimulator | undefined;

afterEach(async () => {
  await agent?.stop();
  await tcp?.close();
  disk?.unmount();
  agent = undefined;
  tcp = undefined;
  disk = undefined;
});

describe('the agent on a disk that fills', () => {
  it('shows DISCO CHEIO / VENDAS SUSPENSAS on the idle PINPAD while no sale fits, the checkout free again once there is room, and audits each change once', async () => {
    disk = mountSmallDisk(96 * MiB);
    const home = disk.dir;
    const sim = new PinpadSimulator();
    const screen: string[] = [];
    sim.on('display', ({ lines }: { lines: readonly string[] }) => screen.push(lines.join('\n')));
    tcp = await startTcpSimulator(sim, { host: '127.0.0.1', port: 0 });
    agent = await Agent.start({
      settings: loadSettings(undefined, home),
      api: {},
      pinpadAddress: tcp.address,
      home,
      posPorts: [0],
      logger: createLogger({ level: 'info', file: join(home, '.pinbridge', 'logs', 'pinbridge.log') }),
    });
    await agent.ready;
    await vi.waitFor(() => expect(screen.at(-1)).toBe('CAIXA LIVRE\nMODO TREINAMENTO'));
    const window = new RpcClient(await openSocket(agent.pos.url));
    await window.call('session.operator', { key: agent.operatorKey });

    disk.fill();
    agent.disk.check();
    expect(agent.disk.status).toMatchObject({ state: 'full', salesRefused: true });
    await vi.waitFor(() => expect(screen.at(-1)).toBe(DISK_FULL_IDLE_TEXT));
    expect(DISK_FULL_IDLE_TEXT.split('\n').every((line) => line.length <= 16)).toBe(true);
    expect((await checkedCall(window, 'agent.status')).disk).toMatchObject({ state: 'full', sales_refused: true });
    await expect(
      agent.stack.engine.start({
        referenceId: 'cheio-1',
        amount: centavos(100),
        paymentType: 'credit',
        description: 'x',
      }),
    ).rejects.toMatchObject({ code: 'DISK_FULL' });

    disk.free();
    agent.disk.check();
    await vi.waitFor(() => expect(agent!.disk.status.state).toBe('ok'), { timeout: 10_000 });
    await vi.waitFor(() => expect(screen.at(-1)).toBe('CAIXA LIVRE\nMODO TREINAMENTO'));
    const kinds = agent.audit.recent.map((line) => line.kind).filter((kind) => kind.startsWith('disk.'));
    expect(kinds).toEqual(['disk.full', 'disk.recovered']);
    expect(window.events('agent.disk').map((event) => (event as { state: string }).state)).toEqual(['full', 'ok']);
    await window.close();
  }, 60_000);
});
