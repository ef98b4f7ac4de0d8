/**
 * A bolepix for the Pix specs (issue 38), made and paid the ways the world makes and pays them:
 * a buyer created at the payments API (the sandbox), the bolepix created by a POS through
 * Pinbridge's relay (bolepix.create), and paid by Pix through the sandbox's own route, as the
 * customer's bank would.
 */
import { expect } from 'vitest';
import { call as sandboxCall } from '../../helpers/sandbox.js';
import { freshCpf } from '../../helpers/fresh-cpf.js';
import { checkedCall as call, type PosRig, type RpcClient } from './pos-rig.js';

/** What bolepix.create answers, as far as the Pix specs read it. */
export interface Bolepix {
  readonly id: string;
  readonly pix: { readonly qr_code: string; readonly expiration_date_time: string };
}

let counter = 0;

/** A buyer of the sandbox (a fresh CPF each time): its id. */
export async function newBuyer(pos: PosRig): Promise<string> {
  const buyer = await pos.rig.client.buyers.create({
    first_name: 'Clara',
    last_name: 'Nunes',
    taxpayer_id: freshCpf(),
    email: 'clara@example.com',
  });
  return buyer.id;
}

/** A bolepix of `amount` centavos (default R$ 150,00) the POS `client` creates through the relay. */
export async function createBolepix(client: RpcClient, buyerId: string, amount = 15_000): Promise<Bolepix> {
  const { transaction } = await call(client, 'bolepix.create', {
    customer: buyerId,
    amount,
    description: 'Pedido 42',
    reference_id: `pix-${++counter}-${Date.now()}`,
  });
  return transaction as unknown as Bolepix;
}

/** The customer pays the bolepix by Pix: the sandbox's own route, as the bank would. */
export async function payByPix(pos: PosRig, id: string): Promise<void> {
  const { sandbox } = pos.rig;
  const paid = await sandboxCall(
    { sandbox, token: sandbox.token },
    'POST',
    `/v1/sandbox/marketplaces/${sandbox.marketplaceId}/transactions/${id}/pay`,
    { via: 'pix' },
  );
  expect(paid.status).toBe(200);
}
