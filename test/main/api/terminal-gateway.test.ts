/**
 * The HTTP terminal channel's authorization as it leaves the client: the route and body for a
 * provider on v2 (the default) and for one that still serves only v1, and what v2 refuses to
 * send. Against a scripted server on loopback, reading back the bytes that arrived.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../main/api/index.js';
import {
  chipRequest,
  issuedMkwk,
  PAN,
  sealPinMkwk,
  sealTrackRandom,
  swipeRequest,
  TRACK2,
} from '../../helpers/sealed-card.js';
import { rejection } from '../../helpers/thrown.js';
import { MARKETPLACE_ID, startStub, stubClient, TXN_ID, wireTransaction, type Stub } from './stub-server.js';

const APPROVED = {
  decision: 'approved',
  response_code: '00',
  response_message: 'Aprovada',
  decline_code: null,
  authorization_code: '123456',
  nsu: '000001',
  issuer_emv_data: '8A023030',
  transaction: wireTransaction({ status: 'succeeded' }),
};

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function served(): Promise<Stub> {
  stub = await startStub({ status: 200, body: APPROVED });
  return stub;
}

describe('the authorization of a card-present sale', () => {
  it('goes to the v2 route with the request as the PINPAD sealed it, byte for byte', async () => {
    const s = await served();
    const request = chipRequest(1500, {}, 'PP123456');
    const answer = await stubClient(s).terminal.authorize(TXN_ID, request);
    expect(answer).toMatchObject({
      decision: 'approved',
      authorization_code: '123456',
      transaction: { status: 'succeeded', amount: 1500 },
    });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({
      method: 'POST',
      path: `/v2/marketplaces/${MARKETPLACE_ID}/transactions/${TXN_ID}/authorization`,
    });
    expect(JSON.parse(s.requests[0]!.body)).toEqual(request);
  });

  it('goes to the v1 route for a provider that serves only v1, with what v1 has fields for', async () => {
    const s = await served();
    const request = chipRequest(1500, {}, 'PP123456');
    await stubClient(s, { capabilities: { terminalChannel: 1 } }).terminal.authorize(TXN_ID, request);
    expect(s.requests[0]!.path).toBe(`/v1/marketplaces/${MARKETPLACE_ID}/transactions/${TXN_ID}/authorization`);
    expect(JSON.parse(s.requests[0]!.body)).toEqual({
      terminal: 'PP123456',
      entry_mode: 'chip',
      card: {
        brand: 'visa',
        first6_digits: '476173',
        last4_digits: '0010',
        expiration: '2812',
        pan_sequence_number: '1',
      },
      cardholder_verification: 'online_pin',
      // chipRequest seals by DUKPT, the method v1's blobs can carry.
      encrypted_card_data: {
        ksn: (request.encrypted_card_data as { ksn: string }).ksn,
        payload: request.encrypted_card_data.payload,
      },
      pin_block: { ksn: (request.pin_block as { ksn: string }).ksn, block: request.pin_block!.block },
      emv_data: request.emv_data,
    });
  });

  it('sends v1 neither card data nor a PIN block sealed other than by DUKPT: v1’s blobs are a KSN and bytes', async () => {
    const s = await served();
    const issued = issuedMkwk('pin');
    const request = chipRequest(
      1500,
      {
        encrypted_card_data: { format: 'track2', method: 'random_key_tdes_ecb', ...sealTrackRandom(TRACK2) },
        pin_block: {
          format: 'iso_0',
          method: 'mkwk',
          key_slot: issued.slot,
          working_key: issued.working_key,
          block: sealPinMkwk('1234', PAN),
        },
      },
      'PP123456',
    );
    await stubClient(s, { capabilities: { terminalChannel: 1 } }).terminal.authorize(TXN_ID, request);
    const body = JSON.parse(s.requests[0]!.body) as Record<string, unknown>;
    expect(body).not.toHaveProperty('encrypted_card_data');
    expect(body).not.toHaveProperty('pin_block');
    expect(body).toMatchObject({ terminal: 'PP123456', emv_data: request.emv_data });
  });

  it('refuses, before sending, a read without sealed card data (a legacy PINPAD) on v2 — and sends it on v1', async () => {
    const s = await served();
    const { encrypted_card_data: _, ...unsealed } = swipeRequest('magstripe', '901', 'PP123456');
    const error = await rejection(stubClient(s).terminal.authorize(TXN_ID, unsealed));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).violations).toContainEqual(
      expect.objectContaining({ field: 'encrypted_card_data', code: 'required' }),
    );
    expect(s.requests).toHaveLength(0);

    await stubClient(s, { capabilities: { terminalChannel: 1 } }).terminal.authorize(TXN_ID, unsealed);
    expect(s.requests).toHaveLength(1);
    expect(JSON.parse(s.requests[0]!.body)).not.toHaveProperty('encrypted_card_data');
  });

  it('refuses a pos_entry_mode that is not ISO 8583 field 22 before sending', async () => {
    const s = await served();
    const error = await rejection(
      stubClient(s).terminal.authorize(TXN_ID, chipRequest(1500, { pos_entry_mode: 'chip' }, 'PP123456')),
    );
    expect((error as InvalidRequestError).violations).toContainEqual(
      expect.objectContaining({ field: 'pos_entry_mode' }),
    );
    expect(s.requests).toHaveLength(0);
  });
});
