/**
 * The payments API (the real one, or an embedded sandbox in training mode), the journal and the
 * payment engine, opened in that order and closed in reverse: what `pay`, `start` and the
 * desktop app all run payments on.
 *
 * Training mode keeps its journal beside the embedded sandbox's data (~/.pinbridge/training/),
 * so a payment left unfinished is recovered against the same sandbox records next time, and
 * training sales never mix with real ones in ~/.pinbridge/journal.db.
 */
import { dirname, join } from 'node:path';
import {
  certificateInfo,
  loadClientTls,
  PaymentsClient,
  type AttemptReport,
  type AuthScheme,
  type CertificateInfo,
  type ClientCertificateFiles,
  type ClientTls,
  type ProviderCapabilities,
} from '../api/index.js';
import { PaymentEngine, type EngineConfig } from '../core/engine.js';
import { Journal } from '../core/journal/journal.js';
import { DEFAULT_RESERVE_BYTES, DiskReserve } from '../core/journal/disk-reserve.js';
import { ioFaultOf } from '../../lib/io-faults.js';
import type { Logger } from '../log.js';
import type { RunningSandbox } from '../sandbox/server.js';
import { paymentsPortOf } from './payments-port.js';
import { defaultDataDir, defaultJournalPath, trainingJournalPath } from '../paths.js';
import { createPrivateFiles, makePrivate } from './private-files.js';

/** The real payments API; absent fields mean training mode (all four or none). */
export interface ApiOptions {
  api?: string;
  token?: string;
  marketplace?: string;
  seller?: string;
  /** How the key is sent: `bearer` (the contract, default) or `basic` (Zoop: the key as the user name). */
  authScheme?: AuthScheme;
  /** The client certificate every call presents (mutual TLS), and a CA for the provider's server; paths resolved. */
  certificate?: ClientCertificateFiles;
  /** What the provider offers beyond its documented calls (both false by default: used only when the settings say so). */
  capabilities?: Partial<ProviderCapabilities>;
}

/** The client options that reach the real API as the store configured it: the auth scheme and the certificate (read and checked here). */
export function apiConnectionOptions(api: ApiOptions): {
  authScheme?: AuthScheme;
  tls?: ClientTls;
  capabilities?: Partial<ProviderCapabilities>;
} {
  const tls = api.certificate === undefined ? undefined : loadClientTls(api.certificate);
  return {
    ...(api.authScheme === undefined ? {} : { authScheme: api.authScheme }),
    ...(tls === undefined ? {} : { tls }),
    ...(api.capabilities === undefined ? {} : { capabilities: api.capabilities }),
  };
}

/** Whether the options name no API at all (training mode) — all four given, or none. */
export function apiOptionsProblem(options: ApiOptions): string | undefined {
  const given = [options.api, options.token, options.marketplace, options.seller].filter(
    (value) => value !== undefined,
  ).length;
  return given > 0 && given < 4
    ? 'the API base URL, token, marketplace and seller go together (or none of them, for the embedded sandbox)'
    : undefined;
}

export interface PaymentStack {
  readonly training: boolean;
  readonly journalPath: string;
  readonly journal: Journal;
  readonly client: PaymentsClient;
  readonly engine: PaymentEngine;
  /** The embedded sandbox, in training mode. */
  readonly sandbox: RunningSandbox | undefined;
  /** The seller the payments are made for. */
  readonly sellerId: string;
  /** The client certificate every call to the real API presents (mutual TLS); undefined without one. */
  readonly clientCertificate: CertificateInfo | undefined;
  close(): Promise<void>;
}

/**
 * Training's embedded sandbox, its data beside the training journal. On a full disk (issue 33) the
 * journal's reserve is given back for it to open on — as the journal itself would — so training
 * starts on a full disk too (new sales are refused there all the same, DISK_FULL).
 */
async function startTrainingSandbox(journalPath: string, logger: Logger): Promise<RunningSandbox> {
  // Imported here: the sandbox (Fastify, Ajv and the routes, some 300 modules) is training mode's alone.
  const { startSandbox } = await import('../sandbox/server.js');
  const start = (): Promise<RunningSandbox> =>
    startSandbox({
      logger,
      dataDir: join(dirname(journalPath), 'sandbox'),
      settings: { idempotencyKeys: true, marketplaceTransactionList: true },
    });
  try {
    return await start();
  } catch (error) {
    const reserve = new DiskReserve(journalPath, { reserveBytes: DEFAULT_RESERVE_BYTES, minFreeBytes: 0 });
    if (ioFaultOf(error)?.kind !== 'full' || !reserve.release()) throw error;
    logger.error(
      { journal: journalPath },
      "the disk is full: the journal's reserve was given back so that training's sandbox can open",
    );
    return start();
  }
}

export async function openPaymentStack(options: {
  readonly api: ApiOptions;
  readonly journalPath?: string;
  readonly home?: string;
  readonly config: Partial<EngineConfig>;
  readonly logger: Logger;
  /** Told about every payments API attempt (the agent's health monitor). */
  readonly onAttempt?: (attempt: AttemptReport) => void;
}): Promise<PaymentStack> {
  const problem = apiOptionsProblem(options.api);
  if (problem !== undefined) throw new TypeError(problem);
  const { api, logger } = options;
  const training = api.api === undefined;
  const journalPath =
    options.journalPath ?? (training ? trainingJournalPath(options.home) : defaultJournalPath(options.home));
  // Private by default (private-files.ts): what this process creates from here on, and what is
  // there already — the data folder, and a journal kept elsewhere with its WAL.
  createPrivateFiles();
  const repaired = [defaultDataDir(options.home), journalPath, `${journalPath}-wal`, `${journalPath}-shm`].flatMap(
    (path) => makePrivate(path),
  );
  if (repaired.length > 0) logger.warn({ files: repaired }, 'files other users could read were made private');
  const closers: Array<() => Promise<void> | void> = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.reverse()) {
      try {
        await closer();
      } catch (error) {
        logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'close failed');
      }
    }
  };
  try {
    let sandbox: RunningSandbox | undefined;
    let client: PaymentsClient;
    let sellerId: string;
    let clientCertificate: CertificateInfo | undefined;
    if (training) {
      const running = await startTrainingSandbox(journalPath, logger);
      closers.push(() => running.close());
      sandbox = running;
      client = new PaymentsClient({
        baseUrl: running.url,
        token: running.token,
        marketplaceId: running.marketplaceId,
        onAttempt: options.onAttempt,
        // The embedded sandbox is started with both, above: training uses what its own sandbox
        // offers, said here rather than assumed by a default.
        capabilities: { idempotencyKey: true, findByReference: true },
      });
      sellerId = running.sellerId;
    } else {
      const connection = apiConnectionOptions(api);
      client = new PaymentsClient({
        baseUrl: api.api!,
        token: api.token!,
        marketplaceId: api.marketplace!,
        onAttempt: options.onAttempt,
        ...connection,
      });
      // A CA alone is no client certificate; one given was checked by loadClientTls already.
      const tls = connection.tls;
      if (tls !== undefined && (tls.cert !== undefined || tls.pfx !== undefined))
        clientCertificate = certificateInfo(tls);
      sellerId = api.seller!;
    }
    // Its connections to the provider end with the agent (before training's sandbox closes).
    const opened = client;
    closers.push(() => opened.close());
    const journal = Journal.open(journalPath, {
      onDiskFull: (message) => logger.error({ journal: journalPath }, message),
    });
    closers.push(() => journal.close());
    const engine = new PaymentEngine({
      journal,
      payments: paymentsPortOf(client),
      sellerId,
      logger,
      config: options.config,
    });
    closers.push(() => engine.close());
    return { training, journalPath, journal, client, engine, sandbox, sellerId, clientCertificate, close };
  } catch (error) {
    await close();
    throw error;
  }
}
