/**
 * `pinbridge sandbox`: serves the payments API sandbox on loopback until stopped. stdout carries
 * exactly one JSON line when it is ready — {"url", "marketplace_id", "seller_id", "token"} — so
 * a script or a POS developer can start it and call it with curl at once.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { TERMINAL_CHANNEL_VERSION } from '../../contract/index.js';
import { terminalChannelDocument } from '../../sandbox/openapi.js';
import { startSandbox, type SandboxTls } from '../../sandbox/server.js';
import type { AmountFormat } from '../../sandbox/context.js';
import { createLogger, logFormat } from '../../log.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseMilliseconds, parsePort } from '../parse.js';

interface SandboxCliOptions {
  port: number;
  host: string;
  data?: string;
  amounts: string;
  cancellationDelay?: number;
  slowAuthorization?: number;
  openapi?: boolean | string;
  auth: string;
  idempotencyKey: boolean;
  findByReference: boolean;
  allowReplayedKsn?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  tlsCa?: string;
}

const AUTH_SCHEMES = ['bearer', 'basic', 'any'] as const;

/** The HTTPS files as the flags name them (all read now, so a wrong path stops the start). */
function sandboxTls(options: SandboxCliOptions): SandboxTls | undefined {
  const { tlsCert, tlsKey, tlsCa } = options;
  if (tlsCert === undefined && tlsKey === undefined && tlsCa === undefined) return undefined;
  if (tlsCert === undefined || tlsKey === undefined) {
    throw new UsageError(
      '--tls-cert and --tls-key (the server certificate and its key) are needed for HTTPS, and with --tls-ca',
    );
  }
  const read = (path: string, flag: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new UsageError(`${flag} ${path} cannot be read: ${(error as Error).message}`);
    }
  };
  return {
    cert: read(tlsCert, '--tls-cert'),
    key: read(tlsKey, '--tls-key'),
    ...(tlsCa === undefined ? {} : { ca: read(tlsCa, '--tls-ca') }),
  };
}

const AMOUNT_FORMATS: readonly AmountFormat[] = ['integer', 'decimal'];

export function registerSandboxCommand(program: Command, io: CliIo): void {
  program
    .command('sandbox')
    .description(COMMAND_LINES.sandbox.description)
    .option('--port <port>', 'TCP port on the loopback address (0 picks a free one)', parsePort, 0)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--data <dir>', 'keep the records in this directory (SQLite); without it they live in memory')
    .option(
      '--amounts <format>',
      'transaction amounts in responses: integer (centavos) or decimal (reais strings)',
      'integer',
    )
    .option('--cancellation-delay <ms>', 'delay before a boleto cancellation takes effect', parseMilliseconds)
    .option(
      '--slow-authorization <ms>',
      'how long the "slow" test amount (…96 centavos) holds its answer',
      parseMilliseconds,
    )
    .option(
      '--auth <scheme>',
      "how the key may arrive: bearer (the contract; GoPag), basic (Zoop: the key as the Basic user name) or any; basic and any also take Zoop's sort=time-descending|time-ascending on the transaction listings",
      'bearer',
    )
    .option(
      '--no-idempotency-key',
      'ignore Idempotency-Key, as a provider that does not document it (a repeated POST does it again)',
    )
    .option(
      '--no-find-by-reference',
      "answer 404 to the marketplace's transaction list (the reference_id filter): only the seller's list, as GoPag documents",
    )
    .option(
      '--allow-replayed-ksn',
      'accept a DUKPT KSN whose counter does not advance (a host refuses it): for a test PINPAD that cannot keep its counters (the simulated one keeps them in ~/.pinbridge/simulator/ksn-counters.json)',
    )
    .option('--tls-cert <file>', 'serve HTTPS with this server certificate (PEM), with --tls-key')
    .option('--tls-key <file>', 'private key (PEM) of --tls-cert')
    .option(
      '--tls-ca <file>',
      'require a client certificate issued by this CA (PEM) on every call, whose serial number is the marketplace id (mutual TLS, as GoPag); needs --tls-cert and --tls-key',
    )
    .option(
      '--openapi [part]',
      'print the OpenAPI document of the sandbox and exit; `--openapi terminal-channel`: the terminal channel alone, as a provider implements it',
    )
    .action(async (options: SandboxCliOptions) => {
      if (!AMOUNT_FORMATS.includes(options.amounts as AmountFormat)) {
        throw new UsageError(`--amounts must be one of ${AMOUNT_FORMATS.join(', ')}`);
      }
      if (!(AUTH_SCHEMES as readonly string[]).includes(options.auth))
        throw new UsageError(`--auth must be one of ${AUTH_SCHEMES.join(', ')}`);
      const tls = options.openapi ? undefined : sandboxTls(options);
      const logger = createLogger({
        format: logFormat(io.env),
        level: io.env.PINBRIDGE_LOG_LEVEL ?? 'info',
        name: 'pinbridge-sandbox',
      });
      const sandbox = await startSandbox({
        host: options.host,
        port: options.openapi ? 0 : options.port,
        logger,
        ...(options.openapi ? { openapi: true } : {}),
        ...(options.openapi || options.data === undefined ? {} : { dataDir: options.data }),
        ...(tls === undefined ? {} : { tls }),
        settings: {
          amountFormat: options.amounts as AmountFormat,
          authScheme: options.auth as (typeof AUTH_SCHEMES)[number],
          idempotencyKeys: options.idempotencyKey,
          marketplaceTransactionList: options.findByReference,
          refuseReplayedKsn: options.allowReplayedKsn !== true,
          ...(options.cancellationDelay === undefined ? {} : { boletoCancellationDelayMs: options.cancellationDelay }),
          ...(options.slowAuthorization === undefined ? {} : { slowAuthorizationDelayMs: options.slowAuthorization }),
        },
      }).catch((error: unknown) => {
        throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? new Error(
              `port ${options.port} on ${options.host} is already in use; choose another with --port (0 picks a free one)`,
            )
          : error;
      });
      try {
        if (options.openapi) {
          if (options.openapi !== true && options.openapi !== 'terminal-channel')
            throw new UsageError('--openapi takes nothing, or terminal-channel');
          const document =
            options.openapi === 'terminal-channel'
              ? terminalChannelDocument(sandbox.openapi(), String(TERMINAL_CHANNEL_VERSION))
              : sandbox.openapi();
          io.stdout(`${JSON.stringify(document, null, 2)}\n`);
          return;
        }
        io.stdout(
          `${JSON.stringify({
            url: sandbox.url,
            marketplace_id: sandbox.marketplaceId,
            seller_id: sandbox.sellerId,
            token: sandbox.token,
          })}\n`,
        );
        logger.info({ url: sandbox.url, data: options.data ?? null }, 'payments API sandbox ready');
        await new Promise<void>((resolve) => {
          if (io.signal.aborted) resolve();
          else io.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      } finally {
        await sandbox.close();
      }
    });
}
