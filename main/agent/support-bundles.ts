/**
 * The window's support bundles (operator.supportBundle, operator.sendSupportBundle): the same
 * archive as `pinbridge support bundle` (main/support/) made by the running agent — its own
 * doctor's report, its log files, the trace of its PINPAD's connection (from memory, so a disk that
 * took none of it does not matter; else the newest trace kept), the settings
 * without secrets, the versions — masked and scanned a slice at a time, so a sale going on meanwhile
 * is not held up.
 *
 * The archive is saved in ~/.pinbridge/support/ (the newest BUNDLES_KEPT) and kept in memory until
 * the next one: a disk that cannot take it (full, read-only) costs the file only — the window still
 * downloads it and can still send it, and is told why it was not saved, in English and pt-BR.
 *
 * Sending is a second call, which the window makes only after the cashier confirmed (its dialog
 * says what goes and where): one HTTP PUT to the settings' support.upload_url (main/support/
 * upload.ts), a network wait on the event loop, never CPU a payment would wait for. A failure is
 * an answer, not an error: the window shows why, in pt-BR.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageOf } from '../../lib/errors.js';
import type { Logger } from '../log.js';
import type { SupportBundleMade, SupportBundleSent } from '../pos/server/agent.js';
import { buildBundleInSlices, SupportBundleError, type BundleFile } from '../support/bundle.js';
import { collectSupportFiles } from '../support/collect.js';
import type { TraceFolder } from '../support/trace-folder.js';
import { uploadBundle, UploadError } from '../support/upload.js';

/** How many bundles ~/.pinbridge/support/ keeps. */
export const BUNDLES_KEPT = 5;
/** The logs a bundle of the window carries at most: the newest 2 MB, as the log export reads. */
export const AGENT_LOG_BYTES = 2 * 1024 * 1024;
/** How long the window's upload may take. */
export const UPLOAD_TIMEOUT_MS = 30_000;

const NAME = /^pinbridge-support-[0-9TZ-]+\.tar\.gz$/;

/** A bundle made, and a send's outcome: the types of the port the window reaches them through. */
type MadeBundle = SupportBundleMade;
type SendOutcome = SupportBundleSent;
type NotSaved = NonNullable<SupportBundleMade['not_saved']>;

/** Why a bundle cannot be made or sent at all: a stable reason, the English and the pt-BR. */
export class SupportBundleRefusal extends Error {
  constructor(
    readonly reason: 'BUNDLE_HAS_CARD_DATA' | 'NO_UPLOAD_URL' | 'BUNDLE_UNKNOWN',
    message: string,
    readonly cashierMessage: string,
  ) {
    super(message);
  }
}

export interface SupportBundlesOptions {
  /** ~/.pinbridge/support/ */
  readonly dir: string;
  readonly home?: string;
  /** The settings file the agent reads (its copy in the bundle is redacted). */
  readonly settingsPath: string;
  /** The agent's log files (its log, the rotated one, the audit trail). */
  readonly logFiles: () => readonly string[];
  /** Lines the log file could not take (a full disk), from memory. */
  readonly unwrittenLogLines?: () => readonly string[];
  readonly traces?: TraceFolder;
  /** The running agent's doctor, as the window's operator.doctor runs it. */
  readonly doctor: () => Promise<unknown>;
  /** support.upload_url of the settings in use. */
  readonly uploadUrl: string | undefined;
  readonly logger: Logger;
  readonly keep?: number;
  readonly uploadTimeoutMs?: number;
  readonly now?: () => Date;
}

function notSavedOf(error: unknown, dir: string): NotSaved {
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  const message = `the bundle could not be saved in ${dir}: ${messageOf(error)}`;
  const cashier_message =
    code === 'ENOSPC'
      ? 'O pacote não foi salvo: o disco está cheio. Você ainda pode baixá-lo ou enviá-lo ao suporte.'
      : `O pacote não foi salvo: a pasta ${dir} não aceita gravação (${code}). Você ainda pode baixá-lo ou enviá-lo ao suporte.`;
  return { code, message, cashier_message };
}

function cashierReasonOf(error: UploadError, to: string): string {
  switch (error.kind) {
    case 'bad_url':
      return 'O endereço de envio nas configurações (support.upload_url) não é válido: use um endereço https://.';
    case 'timeout':
      return `${to} não respondeu a tempo. Tente de novo mais tarde.`;
    case 'refused':
      return `${to} recusou o pacote (HTTP ${error.status ?? '?'}). Avise o suporte.`;
    case 'unreachable':
      return `Não foi possível conectar a ${to}. Verifique a conexão com a internet e tente de novo.`;
  }
}

export class SupportBundles {
  readonly #options: SupportBundlesOptions;
  readonly #now: () => Date;
  #making: Promise<MadeBundle> | undefined;
  #last: MadeBundle | undefined;

  constructor(options: SupportBundlesOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** The origin a bundle goes to, or null when no support.upload_url is set. */
  get uploadTo(): string | null {
    const url = this.#options.uploadUrl;
    if (url === undefined) return null;
    try {
      return new URL(url).origin;
    } catch {
      return url;
    }
  }

  /** Makes a bundle (a second ask while one is being made gets the same one). */
  make(): Promise<MadeBundle> {
    this.#making ??= this.#make().finally(() => {
      this.#making = undefined;
    });
    return this.#making;
  }

  async #make(): Promise<MadeBundle> {
    const options = this.#options;
    const now = this.#now();
    // What the PINPAD exchanged up to now: on disk for the folder, and from memory for the bundle
    // (the connection open now, whatever the disk took of it).
    await options.traces?.flush();
    const trace = options.traces?.current();
    let doctor: unknown;
    try {
      doctor = await options.doctor();
    } catch (error) {
      doctor = { error: messageOf(error) };
    }
    const files: BundleFile[] = [
      { name: 'doctor.json', text: `${JSON.stringify(doctor, null, 2)}\n` },
      ...collectSupportFiles({
        ...(options.home === undefined ? {} : { home: options.home }),
        settingsPath: options.settingsPath,
        logFiles: options.logFiles(),
        logBytes: AGENT_LOG_BYTES,
        unwrittenLogLines: options.unwrittenLogLines?.() ?? [],
        ...(trace === undefined ? {} : { trace }),
      }),
    ];
    let built;
    try {
      built = await buildBundleInSlices(files, { now });
    } catch (error) {
      if (error instanceof SupportBundleError && error.code === 'BUNDLE_HAS_CARD_DATA') {
        options.logger.error({ err: error.message }, 'support bundle refused: card data found after masking');
        throw new SupportBundleRefusal(
          'BUNDLE_HAS_CARD_DATA',
          error.message,
          'O pacote de suporte não foi gerado: o verificador ainda encontrou dados de cartão depois do mascaramento. Avise o suporte do Pinbridge.',
        );
      }
      throw error;
    }
    const id = `pinbridge-support-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    const file = join(options.dir, id);
    let notSaved: NotSaved | null = null;
    try {
      await mkdir(options.dir, { recursive: true, mode: 0o700 });
      await writeFile(file, built.archive, { mode: 0o600 });
      await this.#prune().catch(() => undefined);
    } catch (error) {
      await rm(file, { force: true }).catch(() => undefined);
      notSaved = notSavedOf(error, options.dir);
      options.logger.warn({ code: notSaved.code, err: messageOf(error) }, 'support bundle made but not saved');
    }
    const made: MadeBundle = {
      id,
      created_at: built.manifest.created_at,
      file: notSaved === null ? file : null,
      not_saved: notSaved,
      bytes: built.archive.length,
      sha256: createHash('sha256').update(built.archive).digest('hex'),
      files: built.manifest.files.map(({ name, size }) => ({ name, size })),
      archive: built.archive,
      upload_to: this.uploadTo,
    };
    this.#last = made;
    options.logger.info(
      { bundle: id, bytes: made.bytes, files: made.files.length, saved: notSaved === null },
      'support bundle made from the window',
    );
    return made;
  }

  async #prune(): Promise<void> {
    const dir = this.#options.dir;
    const names = (await readdir(dir)).filter((name) => NAME.test(name)).sort();
    const keep = Math.max(1, this.#options.keep ?? BUNDLES_KEPT);
    await Promise.all(
      names.slice(0, Math.max(0, names.length - keep)).map((name) => rm(join(dir, name), { force: true })),
    );
  }

  /** Sends the bundle `id` (the last one made) to support.upload_url; a failure is said, not thrown. */
  async send(id: string): Promise<SendOutcome> {
    const url = this.#options.uploadUrl;
    const to = this.uploadTo;
    if (url === undefined || to === null)
      throw new SupportBundleRefusal(
        'NO_UPLOAD_URL',
        'No support.upload_url in the settings in use: the bundle cannot be sent from here.',
        'Não há endereço de envio ao suporte nas configurações (support.upload_url): baixe o pacote e envie de outro jeito.',
      );
    const bundle = this.#last;
    if (bundle === undefined || bundle.id !== id)
      throw new SupportBundleRefusal(
        'BUNDLE_UNKNOWN',
        `There is no bundle ${id.slice(0, 80)} to send: make a new one.`,
        'Este pacote não está mais disponível: gere um novo pacote de suporte.',
      );
    try {
      const { status } = await uploadBundle(url, bundle.archive, this.#options.uploadTimeoutMs ?? UPLOAD_TIMEOUT_MS);
      this.#options.logger.info({ bundle: id, to, status }, 'support bundle sent');
      return { sent: true, to, status };
    } catch (error) {
      if (!(error instanceof UploadError)) throw error;
      this.#options.logger.warn({ bundle: id, to, reason: error.kind, err: error.message }, 'support bundle not sent');
      return {
        sent: false,
        to,
        code: 'UPLOAD_FAILED',
        reason: error.kind,
        message: error.message,
        cashier_message: cashierReasonOf(error, to),
      };
    }
  }
}
