/**
 * A practice Pix through the whole agent (issue 38), in plain Node: training mode with its
 * embedded sandbox and a text-only simulated PINPAD over TCP. The window asks for a practice Pix
 * (operator.trainingPix); the PINPAD says PAGUE COM PIX / QR NA TELA and the agent asks the
 * desktop app to bring its window forward (the customer scans from it); "Simular pagamento"
 * (operator.trainingPayPix) is played by the embedded sandbox, and the PINPAD says PIX RECEBIDO.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PinpadSimulator, startTcpSimulator, type TcpSimulator } from '../../../drivers/simulator/index.js';
import { Agent } from '../../../main/agent/agent.js';
import type { PixOnScreen } from '../../../main/pos/server/server.js';
import { createLogger } from '../../../main/log.js';
import { loadSettings } from '../../../main/settings/settings-file.js';
import { checkedCall as call, checkedEvent, openSocket, RpcClient } from '../pos/pos-rig.js';

let agent: Agent | undefined;
let tcp: TcpSimulator | undefined;
let home: string | undefined;

afterEach(async () => {
  await agent?.stop();
  await tcp?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
  agent = undefined;
  tcp = undefined;
  home = undefined;
});

describe('a practice Pix in a training agent', () => {
  it('shows the QR for the window, brings the window forward, and the simulated payment ends it with PIX RECEBIDO', async () => {
    home = mkdtempSync(join(tmpdir(), 'pinbridge-training-pix-'));
    const sim = new PinpadSimulator();
    const screen: string[] = [];
    sim.on('display', ({ lines }: { lines: readonly string[] }) => screen.push(lines.slice(0, 2).join('\n')));
    tcp = await startTcpSimulator(sim, { host: '127.0.0.1', port: 0 });
    agent = await Agent.start({
      settings: loadSettings(undefined, home),
      api: {},
      pinpadAddress: tcp.address,
      home,
      posPorts: [0],
      logger: createLogger({ level: 'warn' }),
    });
    const forward: PixOnScreen[] = [];
    agent.on('pixOnScreen', (shown) => forward.push(shown));
    await agent.ready;
    await vi.waitFor(() => expect(screen.at(-1)).toBe('CAIXA LIVRE\nMODO TREINAMENTO'));

    const window = new RpcClient(await openSocket(agent.pos.url));
    await window.call('session.operator', { key: agent.operatorKey });
    const shown = await call(window, 'operator.trainingPix', { amount: 1_990 });
    expect(shown).toMatchObject({ amount: 1_990, pinpad: 'text' });
    expect(screen.at(-1)).toBe('PAGUE COM PIX\nQR NA TELA');
    expect(forward).toEqual([{ terminal: shown.terminal, transactionId: shown.transaction_id }]);

    await call(window, 'operator.trainingPayPix', { transaction_id: shown.transaction_id });
    expect(await checkedEvent(window, 'pix.paid', (p) => p.transaction_id === shown.transaction_id)).toMatchObject({
      amount: 1_990,
      via: 'pix',
    });
    await vi.waitFor(() => expect(screen.at(-1)).toBe('PIX RECEBIDO\nR$ 19,90'));
    await window.close();
  }, 30_000);
});
