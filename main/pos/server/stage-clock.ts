/**
 * What each stage of a request costs, measured on the real path (dispatch.ts) while a clock is
 * set: the benchmark (test/bench/pos.bench.ts) reads it beside the round trips, so a stage that
 * grows shows by name. No clock is set in normal running, and the path then reads no time at all.
 */

/**
 * The stages of one request, in the order they run:
 * - parse: the frame's bytes as text, and JSON.parse;
 * - envelope: the JSON-RPC 2.0 checks (id, method, params) and the method's description;
 * - rateLimit: the client's token bucket;
 * - auth: who may call the method, and whether its client is still paired (a revocation, made
 *   in any process, counts at once: one read of the clients file's change marker, and the
 *   clients read again only when it moved — pos/clients/change-marker.ts);
 * - cardData: the card-data guard over every key and string of the params (card-data-guard.ts);
 * - validate: the params against the method's schema (compiled on first use);
 * - handler: the method itself;
 * - serialise: the answer as JSON text;
 * - log: the refusals counted for the log's summary (refusals.ts) and lines written, if any;
 * - send: the frame handed to the socket (ws, and the write to the kernel).
 * A request refused early skips the stages after its refusal.
 */
export const STAGES = [
  'parse',
  'envelope',
  'rateLimit',
  'auth',
  'cardData',
  'validate',
  'handler',
  'serialise',
  'log',
  'send',
] as const;

export type Stage = (typeof STAGES)[number];

export interface StageCost {
  /** Requests that went through the stage. */
  readonly requests: number;
  readonly medianUs: number;
  readonly meanUs: number;
  readonly p99Us: number;
}

/** One request's laps: where it is, and the time of its last lap. */
export interface RequestLaps {
  lap(stage: Stage): void;
}

export class StageClock {
  readonly #samples = new Map<Stage, number[]>(STAGES.map((stage) => [stage, []]));
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** A request starts: its first lap is timed from now. */
  start(): RequestLaps {
    const samples = this.#samples;
    const now = this.#now;
    let at = now();
    return {
      lap(stage) {
        const time = now();
        samples.get(stage)!.push(time - at);
        at = time;
      },
    };
  }

  /** Each stage's cost in microseconds, in the order they run (stages no request reached are left out). */
  costs(): Partial<Record<Stage, StageCost>> {
    const costs: Partial<Record<Stage, StageCost>> = {};
    for (const stage of STAGES) {
      const times = [...this.#samples.get(stage)!].sort((a, b) => a - b);
      if (times.length === 0) continue;
      const at = (p: number): number => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
      const us = (ms: number): number => Math.round(ms * 1e5) / 100;
      costs[stage] = {
        requests: times.length,
        medianUs: us(at(0.5)),
        meanUs: us(times.reduce((sum, time) => sum + time, 0) / times.length),
        p99Us: us(at(0.99)),
      };
    }
    return costs;
  }
}
