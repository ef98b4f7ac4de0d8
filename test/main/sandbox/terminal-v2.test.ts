/**
 * Terminal channel v2 as an acquirer's host reads it: the sealed card data opened under the ANSI
 * X9.24 test BDK and checked against the card the request names, the PIN block checked against
 * the issuer's PIN (a wrong PIN is a real 55), the chip's ARQC data checked tag by tag, and every
 * broken rule a 400 naming its field.
 *
 * The requests are sealed as a test PINPAD loaded from the test BDK seals them
 * (test/helpers/sealed-card.ts), not with Pinbridge's own request builder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorA, TerminalAuthorizationResultV2, Transaction } from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { call, freshMarket, type Market } from '../../helpers/sandbox.js';
import {
  arqc,
  chipRequest,
  DATA_KSN,
  PAN,
  PIN_KSN,
  sealPin,
  sealTrack,
  swipeRequest,
  TERMINAL,
  tlv,
  TRACK2,
} from '../../helpers/sealed-card.js';

let sandbox: RunningSandbox;
let market: Market;
beforeAll(async () => {
  sandbox = await startSandbox();
  market = await freshMarket(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

async function pending(amount: number): Promise<Transaction> {
  const { status, body } = await call<Transaction>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, {
    payment_locale: 'pinpad',
    payment_type: 'credit',
    on_behalf_of: market.sellerId,
    description: 'Venda',
    currency: 'BRL',
    amount,
    terminal: TERMINAL,
  });
  expect(status).toBe(201);
  return body;
}

const authorize = (transaction: Transaction, body: unknown) =>
  call<TerminalAuthorizationResultV2 & ErrorA>(
    market,
    'POST',
    `/v2/marketplaces/${market.id}/transactions/${transaction.id}/authorization`,
    body,
  );

describe('terminal channel v2: an authorization the host can open and check', () => {
  it('approves a chip sale with the right online PIN, and keeps nothing but the masked card', async () => {
    const transaction = await pending(1990);
    const { status, body } = await authorize(transaction, chipRequest(1990));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      decision: 'approved',
      response_code: '00',
      decline_code: null,
      transaction: { status: 'succeeded' },
    });
    expect(body.issuer_emv_data).toMatch(/^8A023030/);
    const stored = (
      await call<Transaction>(market, 'GET', `/v1/marketplaces/${market.id}/transactions/${transaction.id}`)
    ).text;
    expect(stored).not.toContain(PAN);
    expect(stored).toContain('"last4_digits":"0010"');
  });

  it('declines a wrong PIN with the issuer code 55 (incorrect_pin): the PIN block really is checked', async () => {
    const transaction = await pending(1990);
    const wrong = chipRequest(1990, {
      pin_block: { format: 'iso_0', key_slot: 1, ksn: PIN_KSN, block: sealPin('4321', PAN, PIN_KSN) },
    });
    const { status, body } = await authorize(transaction, wrong);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      decision: 'declined',
      response_code: '55',
      decline_code: 'incorrect_pin',
      transaction: { status: 'failed' },
    });
  });

  it.each([
    ['magstripe', '901'],
    ['magstripe_fallback', '801'],
    ['contactless_magstripe', '911'],
  ] as const)('approves a %s read (%s) from its sealed track 2 alone', async (entry, code) => {
    const transaction = await pending(2500);
    const { status, body } = await authorize(transaction, swipeRequest(entry, code));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ decision: 'approved', transaction: { point_of_sale: { entry_mode: entry } } });
  });

  const OTHER_BDK = Buffer.from('FEDCBA98765432100123456789ABCDEF', 'hex');
  it.each<[string, (amount: number) => unknown, RegExp]>([
    [
      'a pos_entry_mode that is not the entry mode’s',
      (a) => chipRequest(a, { pos_entry_mode: '901' }),
      /^Field pos_entry_mode must be 051 for entry_mode chip/,
    ],
    [
      'a chip read without its ARQC data',
      (a) => ({ ...chipRequest(a), emv_data: undefined }),
      /^Field emv_data is required for entry_mode chip/,
    ],
    [
      'EMV data without the unpredictable number',
      (a) => chipRequest(a, { emv_data: arqc(a, { '9F37': null }) }),
      /^Field emv_data lacks tag 9F37/,
    ],
    [
      'the PAN in clear in the EMV data',
      (a) => chipRequest(a, { emv_data: arqc(a) + tlv('5A', PAN) }),
      /^Field emv_data must not carry card data in clear \(tag 5A\)/,
    ],
    [
      'a TC where an ARQC belongs',
      (a) => chipRequest(a, { emv_data: arqc(a, { '9F27': '40' }) }),
      /^Field emv_data: 9F27 must be 80/,
    ],
    [
      'a cryptogram for another amount',
      (a) => chipRequest(a, { emv_data: arqc(a + 100) }),
      /^Field emv_data: 9F02 \(amount\) .* does not match/,
    ],
    [
      'EMV data that is not BER-TLV',
      (a) => chipRequest(a, { emv_data: '9F2608A1B2' }),
      /^Field emv_data is not BER-TLV/,
    ],
    [
      'EMV data on a swipe',
      () => ({ ...swipeRequest('magstripe', '901'), emv_data: arqc(1990) }),
      /^Field emv_data must be absent for entry_mode magstripe/,
    ],
    [
      'card data sealed under another BDK',
      (a) =>
        chipRequest(a, {
          encrypted_card_data: {
            format: 'track2',
            method: 'dukpt_tdes_ecb',
            key_slot: 1,
            ksn: DATA_KSN,
            payload: sealTrack(TRACK2, DATA_KSN, OTHER_BDK),
          },
        }),
      /^Field encrypted_card_data does not open to a track 2 under its KSN/,
    ],
    [
      'sealed data of another card',
      (a) => chipRequest(a, { card: { brand: 'visa', first6_digits: '411111', last4_digits: '0010', pan_length: 16 } }),
      /^Field encrypted_card_data is another card/,
    ],
    [
      'an expiry that is not the card’s',
      (a) =>
        chipRequest(a, {
          card: { brand: 'visa', first6_digits: '476173', last4_digits: '0010', pan_length: 16, expiration: '2701' },
        }),
      /^Field card.expiration 2701 is not the card's/,
    ],
    [
      'an online PIN without its block',
      (a) => ({ ...chipRequest(a), pin_block: undefined }),
      /^Field pin_block is required when cardholder_verification is online_pin/,
    ],
    [
      'a PIN block where no PIN was asked',
      (a) => chipRequest(a, { cardholder_verification: 'offline_pin' }),
      /^Field pin_block must be absent when cardholder_verification is offline_pin/,
    ],
    [
      'a PIN block that is not one',
      (a) => chipRequest(a, { pin_block: { format: 'iso_0', key_slot: 1, ksn: PIN_KSN, block: '0123456789ABCDEF' } }),
      /^Field pin_block does not open to an ISO format 0 PIN block/,
    ],
    ['a field the contract does not have', (a) => ({ ...chipRequest(a), track2: TRACK2 }), /track2/],
  ])('refuses %s with 400 naming the field, and decides nothing', async (_, build, detail) => {
    const transaction = await pending(1990);
    const { status, body } = await authorize(transaction, JSON.parse(JSON.stringify(build(1990))) as unknown);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toMatch(detail);
    const after = await call<Transaction>(
      market,
      'GET',
      `/v1/marketplaces/${market.id}/transactions/${transaction.id}`,
    );
    expect(after.body.status).toBe('pending');
  });

  it('needs the marketplace key, as every call does', async () => {
    const transaction = await pending(1990);
    const { status } = await call(
      { sandbox, token: 'not-a-token' },
      'POST',
      `/v2/marketplaces/${market.id}/transactions/${transaction.id}/authorization`,
      chipRequest(1990),
    );
    expect(status).toBe(401);
  });
});
