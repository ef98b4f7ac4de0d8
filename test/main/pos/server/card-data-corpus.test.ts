/**
 * The card-data corpus (test/fixtures/card-data-corpus.ts) against the real POS server over a
 * WebSocket, one agent for all of it: every disguised card number a POS sends — in a sale's
 * reference, description or notification, split between them, in a boleto's metadata (as a value
 * or a key), a buyer's name, the POS's own name when it pairs, or the connection's Origin — is
 * refused (CARD_DATA_REFUSED naming the field, or the connection closed), never repeated in an
 * answer, and nothing reaches the payments API, the journal, the clients database or the log;
 * every legitimate value is taken where it belongs. Everything the agent wrote stays in the test
 * run's artifacts for the final scan.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compacted } from '../../../helpers/card-data-scan.js';
import {
  CORPUS_CARD_NUMBERS,
  DISGUISED,
  LEGITIMATE,
  type CorpusField,
  type DisguisedCard,
  type LegitimateValue,
} from '../../../fixtures/card-data-corpus.js';
import { checkedCall, openSocket, posRig, RpcClient, type PosRig, type RpcMessage } from '../pos-rig.js';

const GENEROUS = { capacity: 100_000, refillPerSecond: 100_000 };

let pos: PosRig;
let cashier: RpcClient;
let buyerId: string;
beforeAll(async () => {
  // Refusals are logged as a summary per interval: a short one, so the spec reads it.
  pos = await posRig({ rateLimit: GENEROUS, refusalSummaryMs: 100 });
  cashier = await pos.paired('Caixa corpus');
  buyerId = (
    await pos.rig.client.buyers.create({ first_name: 'Clara', last_name: 'Nunes', taxpayer_id: '11144477735' })
  ).id;
});
afterAll(async () => {
  await cashier.close();
  await pos.close();
});

let counter = 0;
/**
 * A sale whose other fields can glue nothing to what is tested (they end and start with letters),
 * of an amount the sandbox approves (R$ 10,00: no ending of its own).
 */
const sale = (fields: Record<string, string>): Record<string, unknown> => ({
  reference_id: `corpus-${++counter}-x`,
  amount: 1_000,
  payment_type: 'credit',
  installments: 1,
  description: 'Venda',
  ...fields,
});
const boleto = (metadata: Record<string, string>): Record<string, unknown> => ({
  customer: buyerId,
  amount: 2_000,
  description: 'Boleto',
  reference_id: `boleto-${++counter}-x`,
  metadata,
});

/** The method and params a POS would send `fields` in (one request), and the field the refusal names. */
function requestFor(fields: Partial<Record<CorpusField, string>>): {
  method: string;
  params: Record<string, unknown>;
  named: string;
} {
  const [field, value] = Object.entries(fields)[0] as [CorpusField, string];
  switch (field) {
    case 'name':
      return { method: 'session.pair', params: { name: value }, named: 'name' };
    case 'first_name':
      return {
        method: 'buyer.update',
        params: { buyer_id: buyerId, changes: { first_name: value } },
        named: 'changes.first_name',
      };
    case 'metadata':
      return { method: 'boleto.create', params: boleto({ nota: value }), named: 'metadata.nota' };
    case 'metadata key':
      return { method: 'boleto.create', params: boleto({ [value]: 'x' }), named: 'metadata.(key)' };
    default:
      return {
        method: 'payment.start',
        params: sale(fields),
        named: Object.keys(fields).join(' + '),
      };
  }
}

/** Everything the agent wrote: the journal and its WAL, the log, the clients database and its WAL, receipts. */
function everythingWritten(): string {
  return [dirname(pos.rig.journalPath), dirname(pos.printDir)]
    .flatMap((dir) => readdirSync(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.reserve'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('utf8'))
    .join('\n');
}

const sandboxTransactions = (): number =>
  (pos.rig.sandbox.context.db.statement('SELECT COUNT(*) AS n FROM transactions').get() as { n: number }).n;

const connections = DISGUISED.filter((entry) => entry.fields.origin !== undefined);
const requests = DISGUISED.filter((entry) => entry.fields.origin === undefined);

describe('every disguised card number a POS sends', () => {
  let stranger: RpcClient;
  beforeAll(async () => {
    stranger = await pos.connect();
  });
  afterAll(async () => stranger.close());

  it.each(requests.map((entry) => [entry.label, entry] as const))(
    '%s: CARD_DATA_REFUSED naming the field, the value in no answer',
    async (_, entry: DisguisedCard) => {
      const { method, params, named } = requestFor(entry.fields);
      // Pairing is for a connection that has not logged in.
      const answer: RpcMessage = await (method === 'session.pair' ? stranger : cashier).request(method, params);
      expect(answer.error?.data).toMatchObject({ code: 'CARD_DATA_REFUSED', violations: [{ field: named }] });
      expect(compacted(JSON.stringify(answer))).not.toContain(entry.pan);
    },
  );

  it.each(connections.map((entry) => [entry.label, entry] as const))(
    '%s: the connection closed with 4001 before anything else',
    async (_, entry: DisguisedCard) => {
      const client = new RpcClient(await openSocket(pos.server.url, { Origin: entry.fields.origin! }));
      expect(await client.closed).toEqual({ code: 4001, reason: 'ORIGIN_NOT_ALLOWED' });
    },
  );

  it('left nothing anywhere: no payment, no transaction at the API, no pairing, no number on disk however written', async () => {
    await expect.poll(everythingWritten, { timeout: 5_000 }).toContain('Origin [card data]');
    expect(pos.rig.engine.list().total).toBe(0);
    expect(sandboxTransactions()).toBe(0);
    expect(pos.announced.map((pairing) => pairing.name)).toEqual(['Caixa corpus']);
    const written = compacted(everythingWritten());
    for (const pan of CORPUS_CARD_NUMBERS) expect(written.includes(pan), pan.slice(0, 6)).toBe(false);
    // The refusals were logged, by field only.
    expect(everythingWritten()).toContain('request refused: a parameter looks like card data');
  });
});

describe('every legitimate value a POS sends', () => {
  const of = (...fields: LegitimateValue['field'][]): (readonly [string, LegitimateValue])[] =>
    LEGITIMATE.filter((entry) => fields.includes(entry.field)).map((entry) => [entry.label, entry] as const);

  it.each(of('reference_id', 'description', 'notification'))('%s: sold', async (_, entry) => {
    const outcome = await checkedCall(cashier, 'payment.start', sale({ [entry.field]: entry.value }));
    expect(outcome).toMatchObject({ status: 'approved' });
    if (entry.field === 'reference_id') expect(outcome.reference_id).toBe(entry.value);
  });

  it.each(of('name'))('%s: pairs', async (_, entry) => {
    const page = await pos.connect();
    try {
      expect(await checkedCall(page, 'session.pair', { name: entry.value })).toHaveProperty('pairing_id');
    } finally {
      await page.close();
    }
  });

  it.each(of('first_name', 'phone_number', 'postal_code'))("%s: the buyer's", async (_, entry) => {
    const changes =
      entry.field === 'postal_code' ? { address: { postal_code: entry.value } } : { [entry.field]: entry.value };
    await checkedCall(cashier, 'buyer.update', { buyer_id: buyerId, changes });
  });

  it.each(of('metadata'))('%s: in a boleto', async (_, entry) => {
    const created = await checkedCall(cashier, 'boleto.create', boleto({ nota: entry.value }));
    expect(created.transaction).toHaveProperty('id');
  });

  it.each(of('ein', 'taxpayer_id'))('%s: searched for (the API answers)', async (_, entry) => {
    const answer = await cashier.request('buyer.search', { [entry.field]: entry.value });
    expect(answer.error?.data.code ?? 'found').toMatch(/^(found|API_NOT_FOUND)$/);
  });

  it.each(of('terminal'))('%s: asked for (no such PINPAD here)', async (_, entry) => {
    const answer = await cashier.request('payment.start', sale({ terminal: entry.value }));
    expect(answer.error?.data.code).toBe('PINPAD_NOT_FOUND');
  });
});
