/**
 * Terminal channel v2 as an acquirer's host reads it: the sealed card data opened by its method
 * (DUKPT under the ANSI X9.24 test BDK, MK/WK under the working key the sandbox issued, the
 * random-key method under its test RSA key) and checked against the card the request names, the
 * PIN block (DUKPT or MK/WK) checked against the issuer's PIN (a wrong PIN is a real 55), the
 * chip's ARQC data checked tag by tag, DUKPT counters that must advance, and every broken rule a
 * 400 naming its field.
 *
 * The requests are sealed as a test PINPAD seals them (test/helpers/sealed-card.ts), not with
 * Pinbridge's own request builder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCounter } from '../../../drivers/crypto/dukpt.js';
import type { ErrorA, TerminalAuthorizationResultV2, Transaction } from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { call, freshMarket, type Market } from '../../helpers/sandbox.js';
import {
  arqc,
  chipRequest,
  issuedMkwk,
  nextKsn,
  PAN,
  sealPin,
  sealPinMkwk,
  sealTrack,
  sealTrackMkwk,
  sealTrackRandom,
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

async function pending(amount: number, where: Market = market): Promise<Transaction> {
  const { status, body } = await call<Transaction>(where, 'POST', `/v1/marketplaces/${where.id}/transactions`, {
    payment_locale: 'pinpad',
    payment_type: 'credit',
    on_behalf_of: where.sellerId,
    description: 'Venda',
    currency: 'BRL',
    amount,
    terminal: TERMINAL,
  });
  expect(status).toBe(201);
  return body;
}

const authorize = (transaction: Transaction, body: unknown, where: Market = market) =>
  call<TerminalAuthorizationResultV2 & ErrorA>(
    where,
    'POST',
    `/v2/marketplaces/${where.id}/transactions/${transaction.id}/authorization`,
    body,
  );

/** The status of a transaction as the sandbox holds it. */
const statusOf = async (transaction: Transaction, where: Market = market): Promise<string> =>
  (await call<Transaction>(where, 'GET', `/v1/marketplaces/${where.id}/transactions/${transaction.id}`)).body.status;

/** Card data sealed by MK/WK (GTK "10") under the data working key the sandbox issued. */
const mkwkCardData = () => {
  const issued = issuedMkwk('data');
  return {
    format: 'track2' as const,
    method: 'mkwk_tdes_ecb' as const,
    key_slot: issued.slot,
    working_key: issued.working_key,
    payload: sealTrackMkwk(TRACK2),
  };
};

/** Card data sealed by the random-key method (GTK "90"). */
const randomKeyCardData = () => ({
  format: 'track2' as const,
  method: 'random_key_tdes_ecb' as const,
  ...sealTrackRandom(TRACK2),
});

/** A PIN block under the PIN working key the sandbox issued (GOX/GPN method 1). */
const mkwkPinBlock = (pin: string) => {
  const issued = issuedMkwk('pin');
  return {
    format: 'iso_0' as const,
    method: 'mkwk' as const,
    key_slot: issued.slot,
    working_key: issued.working_key,
    block: sealPinMkwk(pin, PAN),
  };
};

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
    const ksn = nextKsn('pin');
    const wrong = chipRequest(1990, {
      pin_block: { format: 'iso_0', method: 'dukpt', key_slot: 1, ksn, block: sealPin('4321', PAN, ksn) },
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
          encrypted_card_data: ((ksn) => ({
            format: 'track2' as const,
            method: 'dukpt_tdes_ecb' as const,
            key_slot: 1,
            ksn,
            payload: sealTrack(TRACK2, ksn, OTHER_BDK),
          }))(nextKsn('data')),
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
      (a) =>
        chipRequest(a, {
          pin_block: { format: 'iso_0', key_slot: 1, ksn: nextKsn('pin'), block: '0123456789ABCDEF' },
        }),
      /^Field pin_block does not open to an ISO format 0 PIN block/,
    ],
    [
      'card data under a working key the sandbox did not issue (another slot’s)',
      (a) => chipRequest(a, { encrypted_card_data: { ...mkwkCardData(), key_slot: 3 } }),
      /^Field encrypted_card_data.working_key is not a working key the sandbox issued for data master key slot 03/,
    ],
    [
      'a PIN working key the sandbox did not issue',
      (a) =>
        chipRequest(a, { pin_block: { ...mkwkPinBlock('1234'), working_key: '00112233445566778899AABBCCDDEEFF' } }),
      /^Field pin_block.working_key is not a working key the sandbox issued for PIN master key slot 02/,
    ],
    [
      'a random key sealed under an RSA key the sandbox does not hold',
      (a) => chipRequest(a, { encrypted_card_data: { ...randomKeyCardData(), key_id: 'provider-rsa-9' } }),
      /^Field encrypted_card_data.key_id names an RSA key the sandbox does not hold/,
    ],
    [
      'an encrypted random key that is no PKCS #1 block',
      (a) => chipRequest(a, { encrypted_card_data: { ...randomKeyCardData(), encrypted_key: '01'.repeat(256) } }),
      /^Field encrypted_card_data.encrypted_key does not open to a PKCS #1 v1.5 type 2 block/,
    ],
    [
      'random-key card data of another card',
      (a) =>
        chipRequest(a, {
          encrypted_card_data: { ...randomKeyCardData(), ...sealTrackRandom('4111111111111111=28122011234567890') },
        }),
      /^Field encrypted_card_data is another card/,
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

describe('terminal channel v2: every key method ABECS defines, opened with the published test keys', () => {
  it('approves card data and PIN sealed by MK/WK under the working keys the sandbox issued (GTK "10", GOX method 1)', async () => {
    const transaction = await pending(1990);
    const request = chipRequest(1990, { encrypted_card_data: mkwkCardData(), pin_block: mkwkPinBlock('1234') });
    const { status, body } = await authorize(transaction, request);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ decision: 'approved', transaction: { status: 'succeeded' } });
  });

  it('declines a wrong PIN under the MK/WK PIN working key with 55: that block really is opened too', async () => {
    const transaction = await pending(1990);
    const { body } = await authorize(transaction, chipRequest(1990, { pin_block: mkwkPinBlock('9999') }));
    expect(body).toMatchObject({ decision: 'declined', response_code: '55', decline_code: 'incorrect_pin' });
  });

  it('approves card data sealed under a random key the PINPAD sent RSA-encrypted (GTK "90", PP_ENCKRAND)', async () => {
    const transaction = await pending(1990);
    const { status, body } = await authorize(
      transaction,
      chipRequest(1990, { encrypted_card_data: randomKeyCardData() }),
    );
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ decision: 'approved' });
  });

  it('approves the real PPC-930 loadout: card data by MK/WK (data master key 02), the PIN by DUKPT', async () => {
    const transaction = await pending(2500);
    const { status, body } = await authorize(transaction, chipRequest(2500, { encrypted_card_data: mkwkCardData() }));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ decision: 'approved' });
  });

  it('approves a swipe sealed by the random-key method with an MK/WK PIN (debit)', async () => {
    const transaction = await pending(2500);
    const swipe = {
      ...swipeRequest('magstripe', '901'),
      cardholder_verification: 'online_pin',
      encrypted_card_data: randomKeyCardData(),
      pin_block: mkwkPinBlock('1234'),
    };
    const { status, body } = await authorize(transaction, swipe);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ decision: 'approved', transaction: { point_of_sale: { entry_mode: 'magstripe' } } });
  });

  it('reads a DUKPT PIN block without `method` as DUKPT, as older agents send it', async () => {
    const transaction = await pending(1990);
    const request = chipRequest(1990);
    const { method: _, ...older } = request.pin_block as { method?: string };
    const { status, body } = await authorize(transaction, { ...request, pin_block: older });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ decision: 'approved' });
  });

  it('refuses a method it does not know with 400 naming the field', async () => {
    const transaction = await pending(1990);
    const request = chipRequest(1990);
    const { status, body } = await authorize(transaction, {
      ...request,
      encrypted_card_data: { ...request.encrypted_card_data, method: 'dukpt_tdes_cbc' },
    });
    expect(status).toBe(400);
    expect(body.detail).toBe(
      'Field encrypted_card_data.method must be one of "dukpt_tdes_ecb", "mkwk_tdes_ecb", "random_key_tdes_ecb"',
    );
  });
});

describe('terminal channel v2: DUKPT counters must advance (a replayed KSN is refused)', () => {
  /** The chip request with its card data (or PIN block) under `ksn` instead of a fresh one. */
  const withDataKsn = (amount: number, ksn: string) =>
    chipRequest(amount, {
      encrypted_card_data: {
        format: 'track2',
        method: 'dukpt_tdes_ecb',
        key_slot: 1,
        ksn,
        payload: sealTrack(TRACK2, ksn),
      },
    });
  const withPinKsn = (amount: number, ksn: string) =>
    chipRequest(amount, {
      pin_block: { format: 'iso_0', method: 'dukpt', key_slot: 1, ksn, block: sealPin('1234', PAN, ksn) },
    });
  const lower = (ksn: string, by: number): string => {
    const bytes = Buffer.from(ksn, 'hex');
    const counter = ((bytes[7]! & 0x1f) << 16) | (bytes[8]! << 8) | bytes[9]!;
    return withCounter(bytes, counter - by)
      .toString('hex')
      .toUpperCase();
  };

  it('refuses the data KSN of an earlier sale on a new transaction, naming the field and the counters, and decides nothing', async () => {
    const first = await pending(1990);
    const ksn = nextKsn('data');
    expect((await authorize(first, withDataKsn(1990, ksn))).status).toBe(200);
    const second = await pending(1990);
    const { status, body } = await authorize(second, withDataKsn(1990, ksn));
    expect(status).toBe(400);
    expect(body.detail).toMatch(/^Field encrypted_card_data.ksn is a replayed KSN: its counter \d+ is not above \d+/);
    // The detail names counters, never the KSN (a terminal may log it).
    expect(body.detail).not.toContain(ksn);
    expect(await statusOf(second)).toBe('pending');
  });

  it('refuses a KSN whose counter went back, and a replayed PIN KSN alike', async () => {
    const data = nextKsn('data');
    expect((await authorize(await pending(1990), withDataKsn(1990, data))).status).toBe(200);
    const back = await authorize(await pending(1990), withDataKsn(1990, lower(data, 1)));
    expect(back.status).toBe(400);
    expect(back.body.detail).toMatch(/^Field encrypted_card_data.ksn is a replayed KSN/);

    const pin = nextKsn('pin');
    expect((await authorize(await pending(1990), withPinKsn(1990, pin))).status).toBe(200);
    const again = await authorize(await pending(1990), withPinKsn(1990, pin));
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/^Field pin_block.ksn is a replayed KSN/);
  });

  it('answers a repeat of a decided authorization with its first decision, same KSNs and all', async () => {
    const transaction = await pending(1990);
    const request = chipRequest(1990);
    const first = await authorize(transaction, request);
    const repeat = await authorize(transaction, request);
    expect(repeat.status).toBe(200);
    expect(repeat.body.authorization_code).toBe(first.body.authorization_code);
  });

  it('counts a KSN only when the authorization was decided: one refused for another reason can be sent again', async () => {
    const transaction = await pending(1990);
    const ksn = nextKsn('data');
    const refused = await authorize(transaction, { ...withDataKsn(1990, ksn), pos_entry_mode: '901' });
    expect(refused.status).toBe(400);
    expect((await authorize(transaction, withDataKsn(1990, ksn))).status).toBe(200);
  });

  it('keeps each key apart: another PINPAD (another key serial) starts its own count', async () => {
    const ksn = nextKsn('data');
    expect((await authorize(await pending(1990), withDataKsn(1990, ksn))).status).toBe(200);
    // The same counter under another device id (the KSN's key part): not a replay.
    const other = Buffer.from(ksn, 'hex');
    other[5] = other[5]! ^ 0x10;
    const otherKsn = other.toString('hex').toUpperCase();
    expect((await authorize(await pending(1990), withDataKsn(1990, otherKsn))).status).toBe(200);
  });

  it('accepts replays only where told not to check (the agent’s training sandbox, whose simulated PINPAD restarts its counters)', async () => {
    const lenient = await startSandbox({ settings: { refuseReplayedKsn: false } });
    try {
      const where = await freshMarket(lenient);
      const ksn = nextKsn('data');
      expect((await authorize(await pending(1990, where), withDataKsn(1990, ksn), where)).status).toBe(200);
      expect((await authorize(await pending(1990, where), withDataKsn(1990, ksn), where)).status).toBe(200);
    } finally {
      await lenient.close();
    }
  });

  it('remembers the counters across a restart of a sandbox with a data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-ksn-'));
    try {
      const ksn = nextKsn('data');
      let running = await startSandbox({ dataDir: dir });
      try {
        const where = await freshMarket(running);
        expect((await authorize(await pending(1990, where), withDataKsn(1990, ksn), where)).status).toBe(200);
      } finally {
        await running.close();
      }
      running = await startSandbox({ dataDir: dir });
      try {
        const where = await freshMarket(running);
        const { status, body } = await authorize(await pending(1990, where), withDataKsn(1990, ksn), where);
        expect(status).toBe(400);
        expect(body.detail).toMatch(/replayed KSN/);
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
