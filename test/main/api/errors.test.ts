import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  InvalidResponseError,
  NotEnabledError,
  NotFoundError,
  parseErrorBody,
  PaymentsApiError,
  PermissionError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  ValidationError,
} from '../../../main/api/index.js';
import { startStub, stubClient, TXN_ID, type Stub, type StubReply } from './stub-server.js';

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** The error the client throws for a GET answered with `reply` (no retries). */
async function errorFor(reply: StubReply): Promise<PaymentsApiError> {
  stub = await startStub(reply);
  try {
    await stubClient(stub, { maxRetries: 0 }).transactions.retrieve(TXN_ID);
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentsApiError);
    return error as PaymentsApiError;
  }
  throw new Error('expected the call to fail');
}

describe('error body shapes', () => {
  it('reads shape A {status, detail, trace_id}', async () => {
    const error = await errorFor({
      status: 404,
      body: { status: 404, detail: 'Transaction not found', trace_id: 'a1b2c3' },
    });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', detail: 'Transaction not found', traceId: 'a1b2c3' });
    expect(error.message).toBe('Transaction not found');
    expect(error.method).toBe('GET');
    expect(error.path).toContain(`/transactions/${TXN_ID}`);
  });

  it('reads shape B {status_code, type, message}', async () => {
    const error = await errorFor({
      status: 400,
      body: {
        status_code: 400,
        type: 'validation_error',
        message: 'Invalid bank_account_id: expected 32 hexadecimal characters',
      },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_error',
      type: 'validation_error',
      detail: 'Invalid bank_account_id: expected 32 hexadecimal characters',
      traceId: undefined,
    });
    expect((error as ValidationError).field).toBe('bank_account_id');
  });

  it("reads Zoop's envelope {error: {status, status_code, type, category, message, reasons}}", async () => {
    const error = await errorFor({
      status: 409,
      body: {
        error: {
          status: 'Conflict',
          status_code: 409,
          type: 'invalid_request_error',
          category: 'duplicate_taxpayer_id',
          message: 'Buyer with this taxpayer_id already exists',
          reasons: ['duplicate taxpayer_id'],
        },
      },
    });
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      code: 'conflict',
      type: 'invalid_request_error',
      category: 'duplicate_taxpayer_id',
      detail: 'Buyer with this taxpayer_id already exists',
      reasons: ['duplicate taxpayer_id'],
    });
  });

  it('reads an RFC 7807 problem, dropping the trace id the detail repeats', async () => {
    const error = await errorFor({
      status: 400,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-77' },
      body: {
        type: 'https://httpstatuses.com/400',
        title: 'Bad Request',
        status: 400,
        detail: 'Field installment_plan.number_installments must be between 1 and 12 [f00d42]',
        trace_id: 'f00d42',
      },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      type: 'https://httpstatuses.com/400',
      detail: 'Field installment_plan.number_installments must be between 1 and 12',
      traceId: 'f00d42',
      requestId: 'req-77',
    });
    expect((error as ValidationError).field).toBe('installment_plan.number_installments');
  });

  it('reads retry_after and category of an RFC 7807 429', async () => {
    const error = await errorFor({
      status: 429,
      body: {
        type: 'https://httpstatuses.com/429',
        title: 'Too Many Requests',
        status: 429,
        detail: 'Rate limit exceeded. Try again in 60 seconds',
        trace_id: 'aa11bb',
        retry_after: 60,
        category: 'rate_limit',
      },
    });
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', category: 'rate_limit', traceId: 'aa11bb' });
    expect((error as RateLimitError).retryAfterMs).toBe(60_000);
  });

  it('reads a 403 into PermissionError', async () => {
    const error = await errorFor({
      status: 403,
      body: {
        type: 'https://httpstatuses.com/403',
        title: 'Forbidden',
        status: 403,
        detail: 'Unauthorized to access this seller',
        trace_id: 'x',
      },
    });
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({
      status: 403,
      code: 'permission_denied',
      detail: 'Unauthorized to access this seller',
    });
  });

  it('reads a 422 into ValidationError', async () => {
    const error = await errorFor({
      status: 422,
      body: { status: 422, detail: 'Unexpected fields in request [foo, bar]', trace_id: 't' },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('foo');
  });

  it('reads a 401 of any shape into AuthenticationError', async () => {
    const error = await errorFor({
      status: 401,
      body: {
        type: 'https://httpstatuses.com/401',
        title: 'Unauthorized',
        status: 401,
        detail: 'Token OAuth expirado',
        trace_id: 'z9',
      },
    });
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      code: 'authentication_failed',
      detail: 'Token OAuth expirado',
      traceId: 'z9',
    });
  });

  it('reads a 408 into RequestTimeoutError and a 501 into NotEnabledError', async () => {
    const timeout = await errorFor({
      status: 408,
      body: {
        error: {
          status: 'Request Timeout',
          status_code: 408,
          type: 'invalid_request_error',
          category: 'service_request_timeout',
          message: 'Request timed out',
        },
      },
    });
    expect(timeout).toBeInstanceOf(RequestTimeoutError);
    expect(timeout).toMatchObject({ status: 408, code: 'request_timeout', category: 'service_request_timeout' });
    const disabled = await errorFor({
      status: 501,
      body: { status: 501, detail: 'Tap to pay flow not yet implemented', trace_id: 'n1' },
    });
    expect(disabled).toBeInstanceOf(NotEnabledError);
    expect(disabled).toMatchObject({ status: 501, code: 'not_enabled', detail: 'Tap to pay flow not yet implemented' });
  });

  it('keeps a status without a class as a PaymentsApiError with code request_failed', async () => {
    const error = await errorFor({
      status: 402,
      body: {
        error: {
          status_code: 402,
          type: 'card_error',
          category: 'insufficient_funds_error',
          message: 'Insufficient funds',
        },
      },
    });
    expect(error.constructor).toBe(PaymentsApiError);
    expect(error).toMatchObject({
      status: 402,
      code: 'request_failed',
      type: 'card_error',
      category: 'insufficient_funds_error',
    });
  });
});

describe('bodies that are not JSON', () => {
  it("reads a proxy's HTML page by its title", async () => {
    const error = await errorFor({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>',
    });
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: 'server_error', detail: '502 Bad Gateway', traceId: undefined });
    expect(String(error.raw)).toContain('nginx');
  });

  it('reads a plain text body as the detail', async () => {
    const error = await errorFor({
      status: 503,
      headers: { 'content-type': 'text/plain' },
      body: 'upstream connect error',
    });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.detail).toBe('upstream connect error');
  });

  it('falls back to the status line for an empty body', async () => {
    const error = await errorFor({ status: 404 });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.detail).toBe('HTTP 404 Not Found');
  });

  it('reads broken JSON as text', () => {
    const parsed = parseErrorBody('{"status": 500, "detail": ', 'HTTP 500');
    expect(parsed.shape).toBe('text');
    expect(parsed.detail).toBe('{"status": 500, "detail":');
  });
});

describe('success responses that cannot be read', () => {
  it('throws InvalidResponseError for a 200 whose body is not JSON', async () => {
    const error = await errorFor({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html>captive portal</html>',
    });
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ status: 200, code: 'invalid_response' });
    expect(stub?.requests).toHaveLength(1);
  });

  it('does not follow a redirect (it could carry the token elsewhere): InvalidResponseError', async () => {
    const error = await errorFor({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.status).toBe(302);
    expect(error.message).toMatch(/redirect/);
    expect(stub?.requests).toHaveLength(1);
  });

  it('throws InvalidResponseError for JSON that is not a transaction', async () => {
    const error = await errorFor({ status: 200, body: { hello: 'world' } });
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/no valid id/);
  });

  it('throws InvalidResponseError for a transaction without a known status', async () => {
    const error = await errorFor({ status: 200, body: { id: TXN_ID, resource: 'transaction', amount: 100 } });
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/status/);
  });
});
