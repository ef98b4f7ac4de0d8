/**
 * What every `pinbridge doctor` check returns, and the small helpers the checks share: a
 * deadline for work that talks to devices and networks, and the worst-of rule that turns several
 * findings into one status.
 */

export const CHECK_IDS = ['serial-permissions', 'pinpads', 'printers', 'payments-api', 'pos-ports', 'settings'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** ok: nothing to do; warn: works, but look at it; fail: something a store needs does not work; skip: not checked, `summary` says why. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** A JSON-serialisable value (the details go out as-is with `--json`). */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue | undefined };
export type CheckDetails = { readonly [key: string]: JsonValue | undefined };

export interface CheckResult {
  readonly id: CheckId;
  readonly status: CheckStatus;
  /** One English line: what was found. */
  readonly summary: string;
  readonly details: CheckDetails;
  /** When the status is warn or fail: what to do, with the exact command to run. */
  readonly fix?: string;
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

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The error's machine code (DriverError, PaymentsApiError, Node errno), if it has one. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A word safe inside a shell command line as one argument. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
