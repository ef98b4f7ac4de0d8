/**
 * A whole payment stack for engine tests: the payments API sandbox on loopback (real HTTP), the
 * typed client, a real SQLite journal in a temp dir, and simulated PINPADs over in-memory links
 * driven by the real ABECS driver.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator, type PinpadSimulatorOptions } from '../../../drivers/simulator/index.js';
import { PaymentsClient } from '../../../main/api/index.js';
import { PaymentEngine, type EngineConfig } from '../../../main/core/engine.js';
import type { PaymentProgress } from '../../../main/core/events.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { attachPinpad } from '../../../main/core/pinpad/attach.js';
import type { SaleTimeouts } from '../../../main/core/pinpad/sale-session.js';
import type { PaymentsPort } from '../../../main/core/ports.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';

export interface EnginePinpad {
  readonly serial: string;
  readonly sim: PinpadSimulator;
  readonly pinpad: Pinpad;
}

export interface EngineRig {
  readonly sandbox: RunningSandbox;
  readonly client: PaymentsClient;
  readonly journalPath: string;
  journal: Journal;
  engine: PaymentEngine;
  readonly pinpads: EnginePinpad[];
  readonly events: PaymentProgress[];
  /** Another engine on the same journal and API (a restart), with the same PINPADs attached. */
  restart(config?: Partial<EngineConfig>, payments?: PaymentsPort): Promise<PaymentEngine>;
  addPinpad(serial: string, options?: PinpadSimulatorOptions): Promise<EnginePinpad>;
  close(): Promise<void>;
}

export interface RigOptions {
  readonly config?: Partial<EngineConfig>;
  readonly simulator?: PinpadSimulatorOptions;
  readonly timeouts?: Partial<SaleTimeouts>;
  readonly slowAuthorizationMs?: number;
  /** Wraps the client (fault injection). */
  readonly payments?: (client: PaymentsClient) => PaymentsPort;
}

const FAST: Partial<EngineConfig> = {
  apiTimeoutMs: 2_000,
  unknownResolution: { attempts: 2, delayMs: 10 },
  undoRetry: { baseMs: 20, maxMs: 200 },
};

export async function engineRig(options: RigOptions = {}): Promise<EngineRig> {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-engine-'));
  const sandbox = await startSandbox({ settings: { slowAuthorizationDelayMs: options.slowAuthorizationMs ?? 1_500 } });
  const client = new PaymentsClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    marketplaceId: sandbox.marketplaceId,
    maxRetries: 0,
    timeoutMs: 2_000,
  });
  const journalPath = join(dir, 'journal.db');
  const events: PaymentProgress[] = [];
  const closers: Array<() => Promise<void>> = [];
  const pinpads: EnginePinpad[] = [];

  const makeEngine = (journal: Journal, config?: Partial<EngineConfig>, payments?: PaymentsPort): PaymentEngine => {
    const engine = new PaymentEngine({
      journal,
      payments: payments ?? options.payments?.(client) ?? client,
      sellerId: sandbox.sellerId,
      config: { ...FAST, ...options.config, ...config },
    });
    engine.on('progress', (event) => events.push(event));
    return engine;
  };

  const rig: EngineRig = {
    sandbox,
    client,
    journalPath,
    journal: Journal.open(journalPath),
    engine: undefined as unknown as PaymentEngine,
    pinpads,
    events,
    async restart(config, payments) {
      await rig.engine.close();
      rig.journal.close();
      rig.journal = Journal.open(journalPath);
      rig.engine = makeEngine(rig.journal, config, payments);
      for (const p of pinpads) await attachPinpad(rig.engine, p.pinpad, options.timeouts ? { timeouts: options.timeouts } : {});
      return rig.engine;
    },
    async addPinpad(serial, simOptions) {
      const sim = new PinpadSimulator({ serialNumber: serial, ...options.simulator, ...simOptions });
      const served = await startMemorySimulator(sim, { name: serial });
      const pinpad = new Pinpad(served.link.host);
      await pinpad.open();
      closers.push(async () => {
        await pinpad.close(null).catch(() => {});
        await served.close();
      });
      await attachPinpad(rig.engine, pinpad, options.timeouts ? { timeouts: options.timeouts } : {});
      const entry = { serial, sim, pinpad };
      pinpads.push(entry);
      return entry;
    },
    async close() {
      await rig.engine.close();
      for (const close of closers.reverse()) await close();
      rig.journal.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  rig.engine = makeEngine(rig.journal);
  return rig;
}

/** Resolves when the simulator's display matches. */
export function displayed(sim: PinpadSimulator, pattern: RegExp): Promise<void> {
  if (pattern.test(sim.display.lines.join('\n'))) return Promise.resolve();
  return new Promise((resolve) => {
    const check = ({ lines }: { lines: readonly string[] }): void => {
      if (pattern.test(lines.join('\n'))) {
        sim.off('display', check);
        resolve();
      }
    };
    sim.on('display', check);
  });
}

/** Resolves at the first progress event of `step` for the reference. */
export function progressed(engine: PaymentEngine, reference: string, step: PaymentProgress['step']): Promise<PaymentProgress> {
  return new Promise((resolve) => {
    const listener = (event: PaymentProgress): void => {
      if (event.referenceId === reference && event.step === step) {
        engine.off('progress', listener);
        resolve(event);
      }
    };
    engine.on('progress', listener);
  });
}
