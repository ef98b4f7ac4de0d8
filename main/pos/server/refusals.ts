/**
 * Refused connections and malformed requests, counted and written in aggregate: one log line per
 * reason per interval (a minute) with the count and a few of the peers, never one per refusal.
 * A program knocking on the POS port thousands of times a second thus adds a few lines a minute to
 * the agent's log instead of flushing it, and the same summary goes to the audit trail
 * (`connections.refused`), which has its own budget (main/audit-log.ts).
 */
import type { Logger } from 'pino';
import type { AuditEvent } from '../../audit-log.js';

/** Why a connection was refused or closed before it logged in, or a request was not even read. */
export type RefusalReason =
  /** The upgrade's Host is not this agent (DNS rebinding). */
  | 'HOST_NOT_ALLOWED'
  /** The upgrade asked for another path than the API's. */
  | 'NOT_FOUND'
  /** An Origin that can never pair ("null", file:). */
  | 'ORIGIN_NOT_ALLOWED'
  | 'ORIGIN_BLOCKED'
  | 'PROGRAM_BLOCKED'
  /** Closed to make room: its program held the most connections that had not logged in. */
  | 'TOO_MANY_CONNECTIONS'
  /** Closed because it had not logged in in time. */
  | 'IDLE'
  /** Not JSON, not JSON-RPC 2.0, a binary frame, or over the size limit. */
  | 'MALFORMED'
  /** Over its rate budget, or too many requests waiting. */
  | 'RATE_LIMITED'
  /** session.operator with a wrong key, or from a page the agent does not serve. */
  | 'OPERATOR_REFUSED'
  /** A pairing request withdrawn by a newer one from the same connection or program. */
  | 'PAIRING_REPLACED';

/** The peers named in one summary line, at most. */
export const SAMPLE_PEERS = 5;
export const DEFAULT_SUMMARY_INTERVAL_MS = 60_000;
const SAMPLE_CHARS = 100;

interface Tally {
  count: number;
  since: number;
  readonly peers: Set<string>;
}

export class RefusalLog {
  readonly #logger: Logger;
  readonly #record: ((event: AuditEvent) => void) | undefined;
  readonly #tallies = new Map<RefusalReason, Tally>();
  readonly #timer: NodeJS.Timeout;

  constructor(options: {
    readonly logger: Logger;
    /** The audit trail's `record`; none: the log alone. */
    readonly audit?: (event: AuditEvent) => void;
    readonly intervalMs?: number;
  }) {
    this.#logger = options.logger;
    this.#record = options.audit;
    this.#timer = setInterval(() => this.flush(), options.intervalMs ?? DEFAULT_SUMMARY_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Counts one refusal; `peer` is a few words saying who (an origin, a program, a Host). */
  count(reason: RefusalReason, peer: string): void {
    let tally = this.#tallies.get(reason);
    if (tally === undefined) {
      tally = { count: 0, since: Date.now(), peers: new Set() };
      this.#tallies.set(reason, tally);
    }
    tally.count += 1;
    if (tally.peers.size < SAMPLE_PEERS) tally.peers.add(peer.slice(0, SAMPLE_CHARS));
  }

  /** Writes one line per reason counted since the last time, and starts counting again. */
  flush(): void {
    for (const [reason, tally] of this.#tallies) {
      const peers = [...tally.peers];
      const since = new Date(tally.since).toISOString();
      this.#logger.warn(
        { reason, count: tally.count, since, peers },
        'POS connections or requests refused (counted since `since`)',
      );
      this.#record?.({ kind: 'connections.refused', reason, count: tally.count, since, peers: peers.join('; ') });
    }
    this.#tallies.clear();
  }

  /** Writes what is counted and stops. */
  close(): void {
    clearInterval(this.#timer);
    this.flush();
  }
}
