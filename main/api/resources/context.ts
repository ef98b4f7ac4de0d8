/**
 * What every resource module shares: the request core, the marketplace, path building (every
 * id URI-encoded) and the send-then-normalize step.
 */
import type { CallOptions, HttpCore, HttpRequest } from '../http.js';
import type { ResponseOrigin } from '../normalize.js';

/** Options of a call that creates something: its Idempotency-Key can be chosen by the caller. */
export interface CreateOptions extends CallOptions {
  /** Replaces the derived key (see idempotency.ts). */
  readonly idempotencyKey?: string;
}

export const callOptions = (options: CallOptions | undefined): CallOptions => ({
  signal: options?.signal,
  timeoutMs: options?.timeoutMs,
  maxRetries: options?.maxRetries,
});

export class ApiContext {
  readonly #prefix: string;

  constructor(
    readonly http: HttpCore,
    readonly marketplaceId: string,
  ) {
    this.#prefix = `/v1/marketplaces/${encodeURIComponent(marketplaceId)}`;
  }

  /** "/v1/marketplaces/{mid}/<segments…>" (a plain loop: this runs on every call). */
  path(...segments: readonly string[]): string {
    let path = this.#prefix;
    for (const segment of segments) path += `/${encodeURIComponent(segment)}`;
    return path;
  }

  /** The same path under another version of the API ("/v2/marketplaces/{mid}/…": the terminal channel's v2). */
  versionedPath(version: number, ...segments: readonly string[]): string {
    return `/v${version}${this.path(...segments).slice('/v1'.length)}`;
  }

  send<T>(request: HttpRequest, parse: (body: unknown, origin: ResponseOrigin) => T): Promise<T> {
    return this.http.request(request).then((body) => parse(body, { method: request.method, path: request.path }));
  }
}
