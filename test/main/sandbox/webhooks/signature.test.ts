import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  newWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../../main/sandbox/webhooks/signature.js';
import { thrown } from '../../../helpers/thrown.js';

/**
 * Known-answer vector from the Standard Webhooks reference library's own test ("sign function
 * works"): github.com/standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts.
 */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const NOW = new Date('2026-03-02T12:00:00Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

function signedHeaders(
  secret: string,
  body: string,
  timestamp = nowSeconds,
  id = 'evt_0123456789abcdef0123456789abcdef',
) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook({ secret, id, timestamp, body }),
  };
}

function verificationError(fn: () => unknown): string {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as Error).message;
}

describe('webhook signatures (Standard Webhooks)', () => {
  it("reproduces the reference library's known answer", () => {
    expect(signWebhook(VECTOR)).toBe(VECTOR.signature);
  });

  it('accepts the secret with or without the whsec_ prefix, and a Date timestamp truncated to seconds', () => {
    const bare = VECTOR.secret.slice('whsec_'.length);
    expect(signWebhook({ ...VECTOR, secret: bare })).toBe(VECTOR.signature);
    expect(signWebhook({ ...VECTOR, timestamp: new Date(VECTOR.timestamp * 1000 + 999) })).toBe(VECTOR.signature);
  });

  it('signs "id.timestamp.body" with the base64-decoded secret as the HMAC-SHA256 key', () => {
    const secret = newWebhookSecret();
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const body = '{"event":"transaction.succeeded","amount":1500}';
    const expected = createHmac('sha256', key).update(`evt_1.${nowSeconds}.${body}`).digest('base64');
    expect(signWebhook({ secret, id: 'evt_1', timestamp: nowSeconds, body })).toBe(`v1,${expected}`);
    expect(signWebhook({ secret, id: 'evt_1', timestamp: nowSeconds, body: Buffer.from(body) })).toBe(`v1,${expected}`);
  });

  it('makes secrets of "whsec_" and 24 random bytes, different each time', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(a).not.toBe(b);
  });

  it('verifies an authentic delivery, with Node headers or fetch Headers', () => {
    const secret = newWebhookSecret();
    const body = '{"id":"evt_1","event":"transaction.failed"}';
    const headers = signedHeaders(secret, body);
    expect(verifyWebhook({ secret, headers, body, now: NOW })).toBe(true);
    expect(verifyWebhook({ secret, headers: new Headers(headers), body: Buffer.from(body), now: NOW })).toBe(true);
    const capitalized = {
      'Webhook-Id': headers['webhook-id'],
      'Webhook-Timestamp': headers['webhook-timestamp'],
      'Webhook-Signature': headers['webhook-signature'],
    };
    expect(verifyWebhook({ secret, headers: capitalized, body, now: NOW })).toBe(true);
  });

  it('verifies the known-answer vector at its own time', () => {
    const headers = {
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    };
    expect(
      verifyWebhook({ secret: VECTOR.secret, headers, body: VECTOR.body, now: new Date(VECTOR.timestamp * 1000) }),
    ).toBe(true);
  });

  it('accepts a list of signatures when one of them matches (secret rotation)', () => {
    const secret = newWebhookSecret();
    const body = '{}';
    const headers = signedHeaders(secret, body);
    const other = signedHeaders(newWebhookSecret(), body)['webhook-signature'];
    const rotated = { ...headers, 'webhook-signature': `${other} v1a,ignored ${headers['webhook-signature']}` };
    expect(verifyWebhook({ secret, headers: rotated, body, now: NOW })).toBe(true);
  });

  it('rejects a wrong secret, a tampered body, a changed id and a changed timestamp', () => {
    const secret = newWebhookSecret();
    const body = '{"amount":1500}';
    const headers = signedHeaders(secret, body);
    expect(verificationError(() => verifyWebhook({ secret: newWebhookSecret(), headers, body, now: NOW }))).toMatch(
      /No matching signature/,
    );
    expect(verificationError(() => verifyWebhook({ secret, headers, body: '{"amount":15000}', now: NOW }))).toMatch(
      /No matching signature/,
    );
    expect(verificationError(() => verifyWebhook({ secret, headers, body: '{"amount": 1500}', now: NOW }))).toMatch(
      /No matching signature/,
    );
    expect(
      verificationError(() =>
        verifyWebhook({ secret, headers: { ...headers, 'webhook-id': 'evt_other' }, body, now: NOW }),
      ),
    ).toMatch(/No matching signature/);
    expect(
      verificationError(() =>
        verifyWebhook({ secret, headers: { ...headers, 'webhook-timestamp': String(nowSeconds - 1) }, body, now: NOW }),
      ),
    ).toMatch(/No matching signature/);
  });

  it('rejects a truncated signature and one of another version', () => {
    const secret = newWebhookSecret();
    const body = '{}';
    const headers = signedHeaders(secret, body);
    const signature = headers['webhook-signature'];
    for (const bad of [signature.slice(0, 8), 'v1,', signature.replace('v1,', 'v2,')]) {
      expect(
        verificationError(() =>
          verifyWebhook({ secret, headers: { ...headers, 'webhook-signature': bad }, body, now: NOW }),
        ),
      ).toMatch(/No matching signature/);
    }
  });

  it('rejects timestamps outside the tolerance, either way, and honours a custom tolerance', () => {
    const secret = newWebhookSecret();
    const body = '{}';
    const old = signedHeaders(secret, body, nowSeconds - 301);
    const future = signedHeaders(secret, body, nowSeconds + 301);
    expect(verificationError(() => verifyWebhook({ secret, headers: old, body, now: NOW }))).toMatch(/too old/);
    expect(verificationError(() => verifyWebhook({ secret, headers: future, body, now: NOW }))).toMatch(/too new/);
    expect(verifyWebhook({ secret, headers: signedHeaders(secret, body, nowSeconds - 300), body, now: NOW })).toBe(
      true,
    );
    expect(verifyWebhook({ secret, headers: old, body, now: NOW, toleranceSeconds: 600 })).toBe(true);
  });

  it('names the missing or malformed header', () => {
    const secret = newWebhookSecret();
    const body = '{}';
    const headers = signedHeaders(secret, body);
    const without = (name: keyof typeof headers) =>
      Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
    expect(verificationError(() => verifyWebhook({ secret, headers: without('webhook-id'), body, now: NOW }))).toBe(
      'Missing webhook-id header',
    );
    expect(
      verificationError(() => verifyWebhook({ secret, headers: without('webhook-timestamp'), body, now: NOW })),
    ).toBe('Missing webhook-timestamp header');
    expect(
      verificationError(() => verifyWebhook({ secret, headers: without('webhook-signature'), body, now: NOW })),
    ).toBe('Missing webhook-signature header');
    expect(
      verificationError(() =>
        verifyWebhook({ secret, headers: { ...headers, 'webhook-timestamp': 'hello' }, body, now: NOW }),
      ),
    ).toMatch(/integer Unix seconds/);
  });

  it('refuses an empty secret', () => {
    expect(verificationError(() => signWebhook({ secret: 'whsec_', id: 'a', timestamp: 1, body: '' }))).toMatch(
      /empty/,
    );
  });
});
