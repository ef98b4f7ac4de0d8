/**
 * The `payments-api` check: with the real API's options (base URL, token, marketplace, seller),
 * one authenticated read — the seller's bank accounts, first page, one record — through the typed
 * client, no retries. It tells apart the failures a technician fixes differently: no answer
 * (network: address, firewall, proxy), 401/403 (credentials), 404 (marketplace or seller id),
 * 5xx (the service itself). Without the options the agent runs in training mode on its embedded
 * sandbox, and there is nothing to reach. The token never appears in the result.
 */
import {
  AuthenticationError,
  ConnectionError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  PaymentsApiError,
  PaymentsClient,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../api/index.js';
import { DeadlineError, formatSeconds, messageOf, withDeadline, type CheckResult, type CheckDetails } from './check.js';

/** The real payments API; undefined: training mode. */
export interface PaymentsApiTarget {
  readonly baseUrl: string;
  readonly token: string;
  readonly marketplaceId: string;
  readonly sellerId: string;
}

export interface PaymentsApiCheckOptions {
  readonly api: PaymentsApiTarget | undefined;
  readonly timeoutMs: number;
}

/** What each kind of failure says and what to do about it. */
function diagnose(error: unknown, api: PaymentsApiTarget, timeoutMs: number): { summary: string; fix: string; kind: string } {
  const url = api.baseUrl;
  const network = `Check the address (--api ${url}), this computer's internet connection and any firewall or proxy in between: \`curl -sS -o /dev/null -w '%{http_code}\\n' ${url}\` must print a status code.`;
  if (error instanceof DeadlineError || error instanceof TimeoutError) {
    return { kind: 'timeout', summary: `The payments API at ${url} did not answer within ${formatSeconds(timeoutMs)}`, fix: network };
  }
  if (error instanceof ConnectionError) {
    return { kind: 'network', summary: `The payments API at ${url} cannot be reached: ${error.message}`, fix: network };
  }
  if (error instanceof AuthenticationError) {
    return {
      kind: 'credentials',
      summary: `The payments API at ${url} refused the token (401: invalid or expired)`,
      fix: 'Get a valid API token from the payments provider\'s dashboard and pass it with --token (the same one `pinbridge start` is given).',
    };
  }
  if (error instanceof PermissionError) {
    return {
      kind: 'credentials',
      summary: `The payments API at ${url} refused access to marketplace ${api.marketplaceId} (403)`,
      fix: `Use a token issued for marketplace ${api.marketplaceId} (--token), or the marketplace that token belongs to (--marketplace).`,
    };
  }
  if (error instanceof NotFoundError) {
    return {
      kind: 'ids',
      summary: `The payments API at ${url} does not know marketplace ${api.marketplaceId} or seller ${api.sellerId} (404)`,
      fix: 'Check --marketplace and --seller against the payments provider\'s dashboard (the token must belong to that marketplace).',
    };
  }
  if (error instanceof InvalidRequestError) {
    return { kind: 'ids', summary: `The seller id "${api.sellerId}" is not valid: ${error.message}`, fix: 'Check --seller against the payments provider\'s dashboard.' };
  }
  if (error instanceof ServerError || error instanceof RateLimitError) {
    return {
      kind: 'service',
      summary: `The payments API at ${url} is failing (HTTP ${error.status ?? '5xx'}): ${error.message}`,
      fix: 'The service itself is in trouble: try again in a few minutes, and call the payments provider\'s support if it lasts.',
    };
  }
  if (error instanceof InvalidResponseError) {
    return {
      kind: 'not-the-api',
      summary: `${url} answered, but not as the payments API does: ${error.message}`,
      fix: `Check that --api ${url} is the payments API's base URL (without /v1), not a web page or a proxy's login.`,
    };
  }
  return { kind: 'other', summary: `The payments API at ${url} answered with an error: ${messageOf(error)}`, fix: network };
}

/** Replaces the token wherever an error text might have picked it up (it should not, but this is printed). */
function scrub(text: string, token: string): string {
  return token.length >= 4 ? text.split(token).join('[token]') : text;
}

export async function checkPaymentsApi(options: PaymentsApiCheckOptions): Promise<CheckResult> {
  const { api, timeoutMs } = options;
  if (api === undefined) {
    return {
      id: 'payments-api',
      status: 'skip',
      summary: 'Training mode (no --api): the embedded sandbox answers the payment calls, there is no API to reach',
      details: { mode: 'training' },
    };
  }
  const details: CheckDetails = { mode: 'live', url: api.baseUrl, marketplace_id: api.marketplaceId, seller_id: api.sellerId };
  let client: PaymentsClient;
  try {
    new URL(api.baseUrl);
    client = new PaymentsClient({ baseUrl: api.baseUrl.replace(/\/+$/, ''), token: api.token, marketplaceId: api.marketplaceId, timeoutMs, maxRetries: 0, authFailureCooldownMs: 0 });
  } catch (error) {
    return {
      id: 'payments-api',
      status: 'fail',
      summary: scrub(`The payments API options are not usable: ${messageOf(error)}`, api.token),
      details,
      fix: 'Give the base URL with its scheme (--api https://api.example.com) and a marketplace id (--marketplace).',
    };
  }
  const started = performance.now();
  try {
    const page = await withDeadline(client.bankAccounts.list(api.sellerId, { limit: 1 }), timeoutMs, `Reading from the payments API at ${api.baseUrl}`);
    return {
      id: 'payments-api',
      status: 'ok',
      summary: `The payments API at ${api.baseUrl} accepted the token (marketplace ${api.marketplaceId}, seller ${api.sellerId})`,
      details: { ...details, ms: Math.round(performance.now() - started), bank_accounts_seen: page.items.length },
    };
  } catch (error) {
    const { summary, fix, kind } = diagnose(error, api, timeoutMs);
    return {
      id: 'payments-api',
      status: 'fail',
      summary: scrub(summary, api.token),
      details: {
        ...details,
        problem: kind,
        http_status: error instanceof PaymentsApiError ? (error.status ?? null) : null,
        error: scrub(messageOf(error), api.token),
      },
      fix,
    };
  }
}
