/**
 * What every `pinbridge doctor` check returns, and the small helpers the checks share: each
 * message in English (the CLI) and Brazilian Portuguese (the cashier's window) written side by
 * side, a deadline for work that talks to devices and networks, and the worst-of rule that turns
 * several findings into one status.
 */

export const CHECK_IDS = [
  'serial-permissions',
  'pinpads',
  'printers',
  'payments-api',
  'client-certificate',
  'pos-ports',
  'disk',
  'remote-settings',
  'updates',
  'settings',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** ok: nothing to do; warn: works, but look at it; fail: something a store needs does not work; skip: not checked, `summary` says why. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** A JSON-serialisable value (the details go out as-is with `--json`). */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue | undefined };
export type CheckDetails = { readonly [key: string]: JsonValue | undefined };

export interface CheckResult {
  readonly id: CheckId;
  readonly status: CheckStatus;
  /** One English line: what was found. */
  readonly summary: string;
  readonly details: CheckDetails;
  /** When the status is warn or fail: what to do, with the exact command to run. */
  readonly fix?: string;
  /**
   * The summary and the fix in Brazilian Portuguese, for the cashier's window: the same facts,
   * with the commands, paths, addresses, ports and ids exactly as in the English; `fix` exactly
   * when the English one is there. (Error texts from devices, the network and the settings
   * validation are quoted as they came, in English.)
   */
  readonly pt: PortugueseTexts;
}

export interface PortugueseTexts {
  readonly summary: string;
  readonly fix?: string;
}

/** One message in both of the doctor's languages. */
export interface Bilingual {
  readonly en: string;
  readonly pt: string;
}

/**
 * The English and the Brazilian Portuguese of one message. Every summary and fix is made with
 * this where it is worded, so the two versions of a sentence sit together and cannot drift apart.
 */
export function bilingual(en: string, pt: string): Bilingual {
  return { en, pt };
}

/** The same words in both languages: a path, an address, a command. */
export function verbatim(text: string): Bilingual {
  return { en: text, pt: text };
}

/** Messages joined into one, each language from its own parts. */
export function joinBilingual(parts: readonly Bilingual[], separator: Bilingual | string): Bilingual {
  const between = typeof separator === 'string' ? verbatim(separator) : separator;
  return { en: parts.map((part) => part.en).join(between.en), pt: parts.map((part) => part.pt).join(between.pt) };
}

/** A check's result from its summary and (for warn and fail) fix in both languages. */
export function checkResult(result: {
  id: CheckId;
  status: CheckStatus;
  summary: Bilingual;
  details: CheckDetails;
  fix?: Bilingual | undefined;
}): CheckResult {
  const { id, status, summary, details, fix } = result;
  return {
    id,
    status,
    summary: summary.en,
    details,
    ...(fix === undefined ? {} : { fix: fix.en }),
    pt: { summary: summary.pt, ...(fix === undefined ? {} : { fix: fix.pt }) },
  };
}

export interface DoctorReport {
  /** In CHECK_IDS order. */
  readonly checks: readonly CheckResult[];
  /** False when any check failed. */
  readonly ok: boolean;
}

const SEVERITY: Readonly<Record<CheckStatus, number>> = { skip: 0, ok: 1, warn: 2, fail: 3 };

/** The most serious of several statuses ('ok' when there are none). */
export function worstStatus(statuses: readonly CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((worst, status) => (SEVERITY[status] > SEVERITY[worst] ? status : worst), 'ok');
}

/** The work did not finish within the check's time limit. */
export class DeadlineError extends Error {
  constructor(
    readonly ms: number,
    what: string,
  ) {
    super(`${what} did not finish within ${formatSeconds(ms)}`);
    this.name = 'DeadlineError';
  }
}

/**
 * `work`, or DeadlineError after `ms`. The work itself is not stopped: the caller closes whatever
 * it opened (a port, a socket), which makes the work end.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  // The loser of the race must not become an unhandled rejection.
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(ms, what)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** 5000 → "5 s", 1500 → "1.5 s", 300 → "300 ms". */
export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** formatSeconds in both languages: "1.5 s" and "1,5 s" (Brazil writes a decimal comma). */
export function formatDuration(ms: number): Bilingual {
  const en = formatSeconds(ms);
  return { en, pt: en.replace('.', ',') };
}

export { messageOf } from '../../lib/errors.js';

/** The error's machine code (DriverError, PaymentsApiError, Node errno), if it has one. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A word safe inside a shell command line as one argument. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
