/**
 * Reads an error response, whatever shape it has, into one set of fields, and picks the error
 * class for its status. The service family answers errors in (at least) five ways:
 *
 *   A        {status, detail, trace_id}                                  buyers, transactions
 *   B        {status_code, type, message}                                bank accounts, every 401
 *   Zoop     {error: {status, status_code, type, category, message, reasons}}
 *   RFC 7807 {type: <url>, title, status, detail, trace_id, retry_after?, category?}
 *   text     a plain text or HTML page from a proxy or load balancer
 */
import {
  AuthenticationError,
  ConflictError,
  InvalidResponseError,
  NotFoundError,
  NotEnabledError,
  PaymentsApiError,
  PermissionError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  ValidationError,
} from './errors.js';

export type ErrorBodyShape = 'A' | 'B' | 'zoop' | 'problem' | 'json' | 'text' | 'empty';

export interface ParsedErrorBody {
  readonly shape: ErrorBodyShape;
  /** The human-readable reason (never empty). */
  readonly detail: string;
  readonly type?: string;
  readonly category?: string;
  readonly traceId?: string;
  readonly reasons?: readonly string[];
  /** Seconds, from an RFC 7807 `retry_after`. */
  readonly retryAfterSeconds?: number;
  /** Parsed JSON, or the text truncated. */
  readonly raw: unknown;
}

const MAX_RAW_TEXT = 4096;
const MAX_DETAIL_TEXT = 300;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(value)) return Number(value);
  return undefined;
};

/** "Transaction not found [a1b2c3]" → "Transaction not found" when a1b2c3 is the trace id. */
function withoutTraceSuffix(detail: string, traceId: string | undefined): string {
  if (traceId === undefined) return detail;
  const suffix = ` [${traceId}]`;
  return detail.endsWith(suffix) ? detail.slice(0, -suffix.length) : detail;
}

/** Plain text of an HTML page: its <title> when it has one, else the tag-stripped text. */
function textDetail(text: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > MAX_DETAIL_TEXT ? `${plain.slice(0, MAX_DETAIL_TEXT)}…` : plain;
}

function fromJson(body: unknown, fallback: string): ParsedErrorBody | undefined {
  if (!isRecord(body)) return undefined;
  const error = body.error;
  if (isRecord(error)) {
    const reasons = Array.isArray(error.reasons)
      ? error.reasons.filter((r): r is string => typeof r === 'string')
      : undefined;
    return {
      shape: 'zoop',
      detail: str(error.message) ?? reasons?.[0] ?? str(error.status) ?? fallback,
      type: str(error.type),
      category: str(error.category),
      reasons,
      raw: body,
    };
  }
  if (body.status_code !== undefined && (str(body.message) !== undefined || str(body.type) !== undefined)) {
    return { shape: 'B', detail: str(body.message) ?? fallback, type: str(body.type), raw: body };
  }
  const traceId = str(body.trace_id) ?? str(body.traceId);
  const typeUrl = str(body.type);
  if (typeUrl !== undefined && (str(body.title) !== undefined || str(body.detail) !== undefined)) {
    return {
      shape: 'problem',
      detail: withoutTraceSuffix(str(body.detail) ?? str(body.title) ?? fallback, traceId),
      type: typeUrl,
      category: str(body.category),
      traceId,
      retryAfterSeconds: num(body.retry_after),
      raw: body,
    };
  }
  if (str(body.detail) !== undefined) {
    return { shape: 'A', detail: withoutTraceSuffix(str(body.detail) ?? fallback, traceId), traceId, raw: body };
  }
  const message = str(body.message) ?? str(body.error) ?? str(body.title);
  return { shape: 'json', detail: message ?? fallback, traceId, raw: body };
}

/** Parses an error response body of any shape. `statusText` is the fallback detail. */
export function parseErrorBody(text: string, fallback: string): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed === '') return { shape: 'empty', detail: fallback, raw: undefined };
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const parsed = fromJson(JSON.parse(trimmed) as unknown, fallback);
      if (parsed) return parsed;
    } catch {
      // not JSON after all: read it as text
    }
  }
  const detail = textDetail(trimmed);
  return {
    shape: 'text',
    detail: detail === '' ? fallback : detail,
    raw: trimmed.length > MAX_RAW_TEXT ? `${trimmed.slice(0, MAX_RAW_TEXT)}…` : trimmed,
  };
}

/**
 * The field a validation detail names: "Field installment_plan.number_installments must …",
 * "Query parameter ein …", "Invalid on_behalf_of (seller_id) format", "Invalid taxpayer_id: …",
 * "Unexpected fields in request [foo, bar]".
 */
export function fieldOfDetail(detail: string): string | undefined {
  const named = /\b(?:Field|Query parameter|Path parameter|Parameter) ([A-Za-z_][\w]*(?:\.[\w]+)*)/.exec(detail);
  if (named) return named[1];
  const unexpected = /^Unexpected fields in request \[([^,\]]+)/.exec(detail);
  if (unexpected) return unexpected[1]?.trim();
  const invalid = /^Invalid ([a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)\b/.exec(detail);
  if (invalid) return invalid[1];
  return undefined;
}

export interface ResponseContext {
  readonly status: number;
  readonly statusText: string;
  readonly method: string;
  readonly path: string;
  readonly requestId?: string;
  /** From the Retry-After header, already in milliseconds. */
  readonly retryAfterMs?: number;
}

/** The error for an HTTP error response: the class by status, the fields from the body. */
export function errorFromResponse(context: ResponseContext, body: ParsedErrorBody): PaymentsApiError {
  const { status } = context;
  const retryAfterMs =
    context.retryAfterMs ??
    (body.retryAfterSeconds === undefined ? undefined : Math.round(body.retryAfterSeconds * 1000));
  const init = {
    message: body.detail,
    detail: body.detail,
    status,
    type: body.type,
    category: body.category,
    traceId: body.traceId,
    requestId: context.requestId,
    reasons: body.reasons,
    raw: body.raw,
    method: context.method,
    path: context.path,
  };
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 400 || status === 413 || status === 422) {
    return new ValidationError({
      ...init,
      field: fieldOfDetail(body.detail) ?? body.reasons?.map(fieldOfDetail).find(Boolean),
    });
  }
  if (status === 409) return new ConflictError(init);
  if (status === 429) return new RateLimitError({ ...init, retryAfterMs });
  if (status === 408) return new RequestTimeoutError(init);
  if (status === 501) {
    const validated =
      typeof body.raw === 'object' && body.raw !== null && 'validated_data' in body.raw
        ? body.raw.validated_data
        : undefined;
    return new NotEnabledError({ ...init, ...(validated === undefined ? {} : { validatedData: validated }) });
  }
  if (status >= 500 && status <= 599) return new ServerError({ ...init, retryAfterMs });
  if (status >= 300 && status <= 399) {
    return new InvalidResponseError({
      ...init,
      message: `Payments API answered ${context.method} ${context.path} with a redirect (HTTP ${status}); not followed`,
    });
  }
  if (status >= 200 && status <= 299) return new InvalidResponseError(init);
  return new PaymentsApiError({ ...init, code: 'request_failed' });
}
