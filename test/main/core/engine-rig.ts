/**
 * A whole payment stack for engine tests: the payments API sandbox on loopback (real HTTP), the
 * typed client, a real SQLite journal in a temp dir, and simulated PINPADs over in-memory links
 * driven by the real ABECS driver.
 */
import { centavos } from '../../../main/core/money.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import type { LinkTimings } from '../../../drivers/abecs/link.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type DeviceLink,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import type { MemoryLink } from '../../../drivers/transports/memory.js';
import { PaymentsClient, type PaymentsClientOptions } from '../../../main/api/index.js';
import { paymentsPortOf } from '../../../main/agent/payments-port.js';
import { PaymentEngine, type EngineConfig } from '../../../main/core/engine.js';
import type { PaymentProgress } from '../../../main/core/events.js';
import { Journal, type JournalOptions } from '../../../main/core/journal/journal.js';
import { attachPinpad } from '../../../main/pinpad/attach.js';
import type { SaleTimeouts } from '../../../main/pinpad/sale-session.js';
import type { PaymentsPort } from '../../../main/core/ports.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { createLogger, type Logger } from '../../../main/log.js';
import { artifactsDir, recordSecrets } from '../../helpers/card-data-scan.js';
import type { Scheduler } from '../../../main/core/scheduler.js';
export { displayed } from '../../helpers/pinpad-display.js';

export interface EnginePinpad {
  readonly serial: string;
  readonly sim: PinpadSimulator;
  readonly pinpad: Pinpad;
  /** The in-memory cable between driver and simulator (`unplug()` pulls it). */
  readonly link: MemoryLink;
  /** The simulator's side of the ABECS link layer: `faults` (NAKs, corrupted frames, lost ACKs) and `trace`. */
  readonly deviceLink: DeviceLink;
}

export interface EngineRig {
  readonly sandbox: RunningSandbox;
  readonly client: PaymentsClient;
  readonly journalPath: string;
  journal: Journal;
  engine: PaymentEngine;
  readonly pinpads: EnginePinpad[];
  readonly events: PaymentProgress[];
  /** The engine's and the drivers' log (trace level, JSON lines), kept for the card-data scan. */
  readonly logger: Logger;
  readonly logPath: string;
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
  /** A sandbox shared by several rigs (started once per file); left running at close. Default: one of the rig's own. */
  readonly sandbox?: RunningSandbox;
  /** Where the client sends its requests (e.g. a fault proxy in front of the sandbox); the sandbox by default. */
  readonly apiBaseUrl?: (sandbox: RunningSandbox) => string | Promise<string>;
  /** The client's retry and timeout settings (default: no retries, 2 s per attempt). */
  readonly clientOptions?: Partial<
    Pick<PaymentsClientOptions, 'maxRetries' | 'timeoutMs' | 'retryBaseDelayMs' | 'retryMaxDelayMs' | 'capabilities'>
  >;
  /** The host driver's link-layer timings (shorter ACK and silence waits for line-noise tests). */
  readonly pinpadTimings?: Partial<LinkTimings>;
  /** Where the journal lives (a small disk of its own); default: the rig's artifacts folder. */
  readonly journalDir?: string;
  readonly journalOptions?: JournalOptions;
  /** The engine's timers and clocks (test/helpers/fake-scheduler.ts); default: the real ones. */
  readonly scheduler?: Scheduler;
  readonly now?: () => Date;
}

/**
 * The journal's disk reserve in a rig, unless the spec gives its own: 64 KiB instead of the
 * agent's 8 MiB (DEFAULT_RESERVE_BYTES), written, held and checked the same way, with fewer zeros.
 * At 8 MiB each rig's journal cost about 20 ms of CPU to write (mostly the kernel's) and stayed on
 * the disk until the run's card-data scan read it back. The reserve's own specs (disk-full,
 * journal) give their sizes.
 */
const RIG_RESERVE_BYTES = 64 * 1024;

const FAST: Partial<EngineConfig> = {
  apiTimeoutMs: 2_000,
  unknownResolution: { attempts: 2, delayMs: 10 },
  undoRetry: { baseMs: 20, maxMs: 200 },
};

/**
 * The sensitive values of every authorization and completion request (PIN block, encrypted card
 * data, chip data with its cryptograms) are recorded as they pass, so the final scan can prove none of them was logged or
 * journaled.
 */
export function recordingSecrets(payments: PaymentsPort): PaymentsPort {
  const terminal = payments.terminal;
  return {
    transactions: payments.transactions,
    terminal: {
      pendingTransactions: (serial, options) => terminal.pendingTransactions(serial, options),
      authorize: (transactionId, request, options) => {
        recordSecrets([request.pin_block?.block, request.encrypted_card_data?.payload, request.emv_data]);
        return terminal.authorize(transactionId, request, options);
      },
      complete: (transactionId, request, options) => {
        // The second cryptogram (TC) travels here.
        recordSecrets([request.emv_data]);
        return terminal.complete(transactionId, request, options);
      },
      reverse: (transactionId, request, options) => terminal.reverse(transactionId, request, options),
      void: (transactionId, request, options) => terminal.void(transactionId, request, options),
    },
  };
}

export async function engineRig(options: RigOptions = {}): Promise<EngineRig> {
  // Kept after the test (logs and the journal file) for the card-data scan of the whole run.
  const dir = mkdtempSync(join(artifactsDir(), 'engine-'));
  const logPath = join(dir, 'engine.log');
  const logger = createLogger({ level: 'trace', name: 'engine-test', file: logPath });
  const sandbox =
    options.sandbox ??
    (await startSandbox({ settings: { slowAuthorizationDelayMs: options.slowAuthorizationMs ?? 1_500 } }));
  const client = new PaymentsClient({
    baseUrl: options.apiBaseUrl ? await options.apiBaseUrl(sandbox) : sandbox.url,
    token: sandbox.token,
    marketplaceId: sandbox.marketplaceId,
    maxRetries: 0,
    timeoutMs: 2_000,
    ...options.clientOptions,
  });
  const journalPath = join(options.journalDir ?? dir, 'journal.db');
  const journalOptions: JournalOptions = { reserveBytes: RIG_RESERVE_BYTES, ...options.journalOptions };
  const events: PaymentProgress[] = [];
  const closers: Array<() => Promise<void>> = [];
  const pinpads: EnginePinpad[] = [];

  const makeEngine = (journal: Journal, config?: Partial<EngineConfig>, payments?: PaymentsPort): PaymentEngine => {
    const engine = new PaymentEngine({
      journal,
      // The client's failures in the port's words, as the agent runs it (main/agent/payments-port.ts).
      payments: recordingSecrets(paymentsPortOf(payments ?? options.payments?.(client) ?? client)),
      sellerId: sandbox.sellerId,
      config: { ...FAST, ...options.config, ...config },
      logger,
      ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    engine.on('progress', (event) => events.push(event));
    return engine;
  };

  const rig: EngineRig = {
    sandbox,
    client,
    journalPath,
    journal: Journal.open(journalPath, journalOptions),
    engine: undefined as unknown as PaymentEngine,
    pinpads,
    events,
    logger,
    logPath,
    async restart(config, payments) {
      await rig.engine.close();
      rig.journal.close();
      rig.journal = Journal.open(journalPath, journalOptions);
      rig.engine = makeEngine(rig.journal, config, payments);
      for (const p of pinpads)
        await attachPinpad(
          rig.engine,
          p.pinpad,
          options.timeouts ? { timeouts: options.timeouts, logger } : { logger },
        );
      return rig.engine;
    },
    async addPinpad(serial, simOptions) {
      const sim = new PinpadSimulator({ serialNumber: serial, ...options.simulator, ...simOptions });
      const served = await startMemorySimulator(sim, { name: serial });
      const pinpad = new Pinpad(served.link.host, {
        logger,
        ...(options.pinpadTimings ? { timings: options.pinpadTimings } : {}),
      });
      await pinpad.open();
      closers.push(async () => {
        await pinpad.close(null).catch(() => {});
        await served.close();
      });
      await attachPinpad(rig.engine, pinpad, options.timeouts ? { timeouts: options.timeouts, logger } : { logger });
      const entry = { serial, sim, pinpad, link: served.link, deviceLink: served.session.link };
      pinpads.push(entry);
      return entry;
    },
    async close() {
      await rig.engine.close();
      for (const close of closers.reverse()) await close();
      rig.journal.close();
      if (!options.sandbox) await sandbox.close();
      logger.flush();
    },
  };
  rig.engine = makeEngine(rig.journal);
  return rig;
}

/** Resolves at the first progress event of `step` for the reference. */
export function progressed(
  engine: PaymentEngine,
  reference: string,
  step: PaymentProgress['step'],
): Promise<PaymentProgress> {
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

let saleCounter = 0;

/** A R$ 19,90 credit sale in one installment, with a fresh reference, as the engine takes it. */
export function saleParams(prefix: string, overrides: Partial<SaleRequest> = {}): SaleRequest {
  return {
    referenceId: `${prefix}-${++saleCounter}-${Date.now()}`,
    amount: centavos(1990),
    paymentType: 'credit',
    installments: 1,
    description: 'Venda de teste',
    notification: 'Loja Teste',
    ...overrides,
  };
}
