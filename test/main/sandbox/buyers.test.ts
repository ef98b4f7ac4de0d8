/**
 * Buyers in the payments API sandbox, against the contract (shared/payments-api.md): the view's
 * field set, creation, get, the six PATCH rules, search by CPF / CNPJ and removal. Real HTTP on
 * 127.0.0.1, a fresh marketplace for this file, and a clock the tests move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Buyer } from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { freshMarket, marketplaceCaller, type Market, type Reply } from '../../helpers/sandbox.js';
import { freshCpf } from '../../helpers/fresh-cpf.js';

const CPF = '52998224725';
const OTHER_CPF = '39053344705';
const CNPJ = '45339827000162';
const OTHER_CNPJ = '19017536000148';
/** The official example of the alphanumeric CNPJ (Receita Federal), 12.ABC.345/01DE-35. */
const ALPHANUMERIC_CNPJ = '12ABC34501DE35';
/** Another alphanumeric CNPJ with valid check digits (A1.B2C.3D4/0001-93). */
const OTHER_ALPHANUMERIC_CNPJ = 'A1B2C3D4000193';

const PERSON_KEYS = [
  'address',
  'birthdate',
  'created_at',
  'email',
  'first_name',
  'id',
  'last_name',
  'metadata',
  'phone_number',
  'resource',
  'taxpayer_id',
  'updated_at',
];
const ERROR_A_KEYS = ['detail', 'status', 'trace_id'];
/** How a buyer shows the optional fields it does not have. */
const UNSET = { last_name: null, email: null, phone_number: null, birthdate: null, address: null, metadata: {} };

let sandbox: RunningSandbox;
let clock = new Date('2026-03-10T12:00:00.000Z');
let market: Market;

/** JSON under /v1/marketplaces/<id> of this file's marketplace (or of `options.marketplace`, with `options.token`). */
const call = marketplaceCaller(() => market);

const keysOf = (value: object): string[] => Object.keys(value).sort();

async function createBuyer(body: Record<string, unknown>): Promise<Buyer> {
  const reply = await call<Buyer>('POST', '/buyers', { body });
  expect(reply.status).toBe(201);
  return reply.body;
}

const fullPerson = (): Record<string, unknown> => ({
  first_name: 'Maria Aparecida',
  last_name: 'Souza',
  email: 'maria.souza@example.com',
  phone_number: '11987654321',
  taxpayer_id: freshCpf(),
  birthdate: '1985-03-14',
  address: {
    line1: 'Rua Augusta, 1508',
    line2: 'Apto 42',
    neighborhood: 'Consolação',
    city: 'São Paulo',
    state: 'SP',
    postal_code: '01304001',
    country_code: 'BR',
  },
  metadata: { loyalty_card: 'CLUBE-0042', tier: 2 },
});

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock });
  market = await freshMarket(sandbox);
  await createBuyer({ first_name: 'Padaria Pão Dourado', last_name: 'Ltda', ein: CNPJ, metadata: { segment: 'food' } });
});

afterAll(async () => {
  await sandbox.close();
});

describe('creating a buyer (POST /buyers)', () => {
  it('answers 201 with the full buyer: exactly the contract fields, a 32-hex id and UTC timestamps ending in Z', async () => {
    const request = fullPerson();
    const buyer = await createBuyer(request);
    expect(keysOf(buyer)).toEqual(PERSON_KEYS);
    expect(buyer.id).toMatch(/^[0-9a-f]{32}$/);
    expect(buyer).toMatchObject({
      resource: 'buyer',
      first_name: 'Maria Aparecida',
      last_name: 'Souza',
      email: 'maria.souza@example.com',
      phone_number: '11987654321',
      taxpayer_id: request.taxpayer_id,
      birthdate: '1985-03-14',
      address: request.address,
      metadata: { loyalty_card: 'CLUBE-0042', tier: 2 },
    });
    expect(buyer.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(buyer.created_at).toBe(clock.toISOString());
    expect(buyer.updated_at).toBe(buyer.created_at);
  });

  it('gives a company its ein and no taxpayer_id', async () => {
    const buyer = await createBuyer({ first_name: 'Mercado Boa Vista', last_name: 'Ltda', ein: OTHER_CNPJ });
    expect(buyer.ein).toBe(OTHER_CNPJ);
    expect(keysOf(buyer)).toEqual([...PERSON_KEYS.filter((k) => k !== 'taxpayer_id'), 'ein'].sort());
  });

  it('takes a company with an alphanumeric CNPJ, although the contract says digits only (the law changed)', async () => {
    const buyer = await createBuyer({
      first_name: 'Mercadinho Nova Era',
      last_name: 'Ltda',
      ein: OTHER_ALPHANUMERIC_CNPJ,
    });
    expect(buyer.ein).toBe(OTHER_ALPHANUMERIC_CNPJ);
    expect(keysOf(buyer)).toEqual([...PERSON_KEYS.filter((k) => k !== 'taxpayer_id'), 'ein'].sort());
    expect((await call<Buyer>('GET', `/buyers/${buyer.id}`)).body.ein).toBe(OTHER_ALPHANUMERIC_CNPJ);
    const again = await call('POST', '/buyers', { body: { first_name: 'Again', ein: OTHER_ALPHANUMERIC_CNPJ } });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`Buyer already exists with ein: ${OTHER_ALPHANUMERIC_CNPJ}`);
  });

  it('refuses the alphanumeric CNPJ 12ABC34501DE36 (wrong check digit) with 400', async () => {
    const reply = await call('POST', '/buyers', { body: { first_name: 'X', ein: '12ABC34501DE36' } });
    expect(reply.status).toBe(400);
    expect(keysOf(reply.body)).toEqual(ERROR_A_KEYS);
    expect(reply.body.detail).toBe('Field ein is not a valid CNPJ (check digits do not match)');
  });

  it('takes the CNPJ as the API takes it: uppercase and without the mask (lowercase or masked is 400)', async () => {
    for (const ein of ['12abc34501de35', '12.ABC.345/01DE-35', '12ABC34501DEAB', '12ABC34501DE3']) {
      const reply = await call('POST', '/buyers', { body: { first_name: 'X', ein } });
      expect(reply.status, ein).toBe(400);
      expect(reply.body.detail, ein).toBe('Field ein has an invalid format');
    }
  });

  it('shows unset fields as null, metadata as {} and keeps only the address keys that were sent', async () => {
    const bare = await createBuyer({ first_name: 'Ana', taxpayer_id: freshCpf() });
    expect(bare).toMatchObject(UNSET);
    const partial = await createBuyer({
      first_name: 'Bia',
      taxpayer_id: freshCpf(),
      address: { line1: 'Rua A, 1', city: 'Recife' },
    });
    expect(partial.address).toEqual({ line1: 'Rua A, 1', city: 'Recife' });
  });

  it('requires exactly one of taxpayer_id and ein, with valid check digits', async () => {
    const both = await call('POST', '/buyers', { body: { first_name: 'X', taxpayer_id: freshCpf(), ein: CNPJ } });
    expect(both.status).toBe(400);
    expect(both.body.detail).toBe('Send either taxpayer_id or ein, not both');
    const neither = await call('POST', '/buyers', { body: { first_name: 'X' } });
    expect(neither.status).toBe(400);
    expect(neither.body.detail).toMatch(/taxpayer_id.*ein.*required/);
    const badCpf = await call('POST', '/buyers', { body: { first_name: 'X', taxpayer_id: '52998224724' } });
    expect(badCpf.status).toBe(400);
    expect(badCpf.body.detail).toMatch(/not a valid CPF/);
    const badCnpj = await call('POST', '/buyers', { body: { first_name: 'X', ein: '45339827000161' } });
    expect(badCnpj.status).toBe(400);
    expect(badCnpj.body.detail).toMatch(/not a valid CNPJ/);
  });

  it('rejects an invalid e-mail, an unknown field and a missing first_name with 400 in error shape A', async () => {
    const email = await call('POST', '/buyers', {
      body: { first_name: 'X', taxpayer_id: freshCpf(), email: 'maria@' },
    });
    expect(email.status).toBe(400);
    expect(keysOf(email.body)).toEqual(ERROR_A_KEYS);
    expect(email.body).toMatchObject({ status: 400, detail: 'Invalid email format: maria@' });
    const unknown = await call('POST', '/buyers', {
      body: { first_name: 'X', taxpayer_id: freshCpf(), nickname: 'x' },
    });
    expect(unknown.body).toMatchObject({ status: 400, detail: 'Unexpected fields in request [nickname]' });
    const missing = await call('POST', '/buyers', { body: { taxpayer_id: freshCpf() } });
    expect(missing.body).toMatchObject({ status: 400, detail: 'Field first_name is required' });
  });

  it('answers 409 for a CPF or CNPJ already registered in the marketplace, naming it', async () => {
    const cpf = freshCpf();
    await createBuyer({ first_name: 'First', taxpayer_id: cpf });
    const again = await call('POST', '/buyers', { body: { first_name: 'Second', taxpayer_id: cpf } });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`Buyer already exists with taxpayer_id: ${cpf}`);
    const company = await call('POST', '/buyers', { body: { first_name: 'Again', ein: CNPJ } });
    expect(company.status).toBe(409);
    expect(company.body.detail).toBe(`Buyer already exists with ein: ${CNPJ}`);
  });

  it('lets another marketplace register the same CPF', async () => {
    const cpf = freshCpf();
    await createBuyer({ first_name: 'Here', taxpayer_id: cpf });
    const other = await freshMarket(sandbox);
    const there = await call('POST', '/buyers', {
      body: { first_name: 'There', taxpayer_id: cpf },
      token: other.token,
      marketplace: other.id,
    });
    expect(there.status).toBe(201);
  });

  it('replays a request repeated with the same Idempotency-Key and refuses the key with another body', async () => {
    const body = { first_name: 'Idem', taxpayer_id: freshCpf() };
    const headers = { 'idempotency-key': `buyer-${body.taxpayer_id}` };
    const first = await call<Buyer>('POST', '/buyers', { body, headers });
    const second = await call<Buyer>('POST', '/buyers', { body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const different = await call('POST', '/buyers', { body: { ...body, first_name: 'Other' }, headers });
    expect(different.status).toBe(409);
  });
});

describe('getting a buyer (GET /buyers/{buyer_id})', () => {
  it('answers 200 with the same buyer the creation returned', async () => {
    const created = await createBuyer(fullPerson());
    const fetched = await call<Buyer>('GET', `/buyers/${created.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
  });

  it('includes ein for a company', async () => {
    const found = await call<Buyer>('GET', `/buyers/search?ein=${CNPJ}`);
    const fetched = await call<Buyer>('GET', `/buyers/${found.body.id}`);
    expect(fetched.body.ein).toBe(CNPJ);
    expect(fetched.body.taxpayer_id).toBeUndefined();
  });

  it('answers 404 "Buyer not found" for an unknown id and for an id that is not 32 hex characters', async () => {
    const unknown = await call('GET', `/buyers/${'a'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(keysOf(unknown.body)).toEqual(ERROR_A_KEYS);
    expect(unknown.body).toMatchObject({ status: 404, detail: 'Buyer not found' });
    const malformed = await call('GET', '/buyers/not-an-id');
    expect(malformed.status).toBe(404);
    expect(malformed.body.detail).toBe('Buyer not found');
  });

  it("answers 404 for another marketplace's buyer", async () => {
    const created = await createBuyer({ first_name: 'Mine', taxpayer_id: freshCpf() });
    const other = await freshMarket(sandbox);
    const reply = await call('GET', `/buyers/${created.id}`, { token: other.token, marketplace: other.id });
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toBe('Buyer not found');
  });
});

describe('updating a buyer (PATCH /buyers/{buyer_id})', () => {
  const patch = (id: string, body: unknown): Promise<Reply<Record<string, unknown>>> =>
    call('PATCH', `/buyers/${id}`, { body });

  it('answers 200 with the full buyer, the new values and a new updated_at; created_at stays', async () => {
    const created = await createBuyer(fullPerson());
    clock = new Date(clock.getTime() + 60_000);
    const reply = await call<Buyer>('PATCH', `/buyers/${created.id}`, {
      body: { first_name: 'Maria', phone_number: '11911112222' },
    });
    expect(reply.status).toBe(200);
    expect(keysOf(reply.body)).toEqual(PERSON_KEYS);
    expect(reply.body).toEqual({
      ...created,
      first_name: 'Maria',
      phone_number: '11911112222',
      updated_at: clock.toISOString(),
    });
    expect(reply.body.updated_at).toMatch(/Z$/);
    const fetched = await call<Buyer>('GET', `/buyers/${created.id}`);
    expect(fetched.body).toEqual(reply.body);
  });

  it('moves updated_at forward even when the clock has not moved', async () => {
    const created = await createBuyer({ first_name: 'Same', taxpayer_id: freshCpf() });
    const reply = await call<Buyer>('PATCH', `/buyers/${created.id}`, { body: { last_name: 'Instant' } });
    expect(reply.body.updated_at > created.updated_at).toBe(true);
  });

  it('rule 1: rejects taxpayer_id with 400 saying the field cannot be modified', async () => {
    const created = await createBuyer({ first_name: 'Rule', taxpayer_id: freshCpf() });
    const reply = await patch(created.id, { taxpayer_id: OTHER_CPF });
    expect(reply.status).toBe(400);
    expect(keysOf(reply.body)).toEqual(ERROR_A_KEYS);
    expect(reply.body.detail).toBe('Field taxpayer_id cannot be modified');
  });

  it.each(['id', 'resource', 'created_at', 'ein', 'updated_at'])('rule 1: rejects %s with 400', async (field) => {
    const created = await createBuyer({ first_name: 'Rule', taxpayer_id: freshCpf() });
    const reply = await patch(created.id, { [field]: field === 'ein' ? CNPJ : 'x' });
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toBe(`Field ${field} cannot be modified`);
  });

  it('rule 1: the immutable field is reported before any other problem of the body, and nothing changes', async () => {
    const created = await createBuyer({ first_name: 'First', taxpayer_id: freshCpf() });
    const reply = await patch(created.id, {
      email: 'broken',
      nickname: 'x',
      first_name: 'Changed',
      taxpayer_id: OTHER_CPF,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toBe('Field taxpayer_id cannot be modified');
    expect((await call<Buyer>('GET', `/buyers/${created.id}`)).body).toEqual(created);
  });

  it('rejects fields the contract does not list, and a body that is not a JSON object', async () => {
    const created = await createBuyer({ first_name: 'Strict', taxpayer_id: freshCpf() });
    const unknown = await patch(created.id, { nickname: 'x', status: 'active' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('Unexpected fields in request [nickname, status]');
    const array = await patch(created.id, [{ first_name: 'x' }]);
    expect(array.status).toBe(400);
    expect(array.body.detail).toBe('Body must be a JSON object');
  });

  it('rule 2: rejects an invalid e-mail with 400 and keeps the old one', async () => {
    const created = await createBuyer({ first_name: 'Mail', taxpayer_id: freshCpf(), email: 'old@example.com' });
    const reply = await patch(created.id, { email: 'not an e-mail' });
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toBe('Invalid email format: not an e-mail');
    expect((await call<Buyer>('GET', `/buyers/${created.id}`)).body.email).toBe('old@example.com');
  });

  it('rejects values of the wrong type or format with 400', async () => {
    const created = await createBuyer({ first_name: 'Types', taxpayer_id: freshCpf() });
    expect((await patch(created.id, { first_name: 42 })).body.detail).toBe(
      'Field first_name must be of type string or null',
    );
    expect((await patch(created.id, { birthdate: '14/03/1985' })).status).toBe(400);
    expect((await patch(created.id, { phone_number: '(11) 98765-4321' })).status).toBe(400);
    expect((await patch(created.id, { address: { line1: 'x', floor: 3 } })).body.detail).toBe(
      'Unexpected fields in request [address.floor]',
    );
    expect((await patch(created.id, { metadata: ['a'] })).status).toBe(400);
  });

  it('rule 3: an address replaces the whole address', async () => {
    const created = await createBuyer(fullPerson());
    const address = { ...created.address, line1: 'Rua Augusta, 1600', line2: undefined };
    const reply = await call<Buyer>('PATCH', `/buyers/${created.id}`, { body: { address } });
    expect(reply.status).toBe(200);
    expect(reply.body.address).toEqual({
      line1: 'Rua Augusta, 1600',
      neighborhood: 'Consolação',
      city: 'São Paulo',
      state: 'SP',
      postal_code: '01304001',
      country_code: 'BR',
    });
    const partial = await call<Buyer>('PATCH', `/buyers/${created.id}`, { body: { address: { city: 'Campinas' } } });
    expect(partial.body.address).toEqual({ city: 'Campinas' });
  });

  it('rule 4: null or "" removes the value', async () => {
    const created = await createBuyer(fullPerson());
    const reply = await call<Buyer>('PATCH', `/buyers/${created.id}`, {
      body: { last_name: '', email: null, phone_number: '', birthdate: null, address: null, metadata: null },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ first_name: created.first_name, ...UNSET });
    expect(keysOf(reply.body)).toEqual(PERSON_KEYS);
    expect((await call<Buyer>('GET', `/buyers/${created.id}`)).body).toEqual(reply.body);
  });

  it('rule 4: an empty metadata object clears the metadata', async () => {
    const created = await createBuyer(fullPerson());
    const reply = await call<Buyer>('PATCH', `/buyers/${created.id}`, { body: { metadata: {} } });
    expect(reply.body.metadata).toEqual({});
  });

  it('rule 5: metadata is replaced by the object sent, so adding a key means sending the merged object', async () => {
    const created = await createBuyer(fullPerson());
    const merged = await call<Buyer>('PATCH', `/buyers/${created.id}`, {
      body: { metadata: { ...created.metadata, channel: 'pos' } },
    });
    expect(merged.body.metadata).toEqual({ loyalty_card: 'CLUBE-0042', tier: 2, channel: 'pos' });
    const replaced = await call<Buyer>('PATCH', `/buyers/${created.id}`, { body: { metadata: { only: true } } });
    expect(replaced.body.metadata).toEqual({ only: true });
  });

  it('rule 6: an unknown buyer is 404', async () => {
    const reply = await patch('b'.repeat(32), { first_name: 'Nobody' });
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toBe('Buyer not found');
  });
});

describe('searching a buyer by tax id (GET /buyers/search)', () => {
  it('finds a person by CPF: taxpayer_id present, metadata absent', async () => {
    const created = await createBuyer({ ...fullPerson(), taxpayer_id: CPF });
    const reply = await call<Buyer>('GET', `/buyers/search?taxpayer_id=${CPF}`);
    expect(reply.status).toBe(200);
    expect(keysOf(reply.body)).toEqual(PERSON_KEYS.filter((k) => k !== 'metadata'));
    const { metadata: _metadata, ...withoutMetadata } = created;
    expect(reply.body).toEqual(withoutMetadata);
  });

  it('finds a company by CNPJ: ein present, no taxpayer_id, metadata absent', async () => {
    const reply = await call<Buyer>('GET', `/buyers/search?ein=${CNPJ}`);
    expect(reply.status).toBe(200);
    expect(reply.body.ein).toBe(CNPJ);
    expect(keysOf(reply.body)).toEqual(
      [...PERSON_KEYS.filter((k) => k !== 'metadata' && k !== 'taxpayer_id'), 'ein'].sort(),
    );
  });

  it('answers 400 saying 11 digits are expected for a malformed CPF', async () => {
    for (const value of ['5299822472', '529982247250', '529.982.247-25', 'abcdefghijk']) {
      const reply = await call('GET', `/buyers/search?taxpayer_id=${encodeURIComponent(value)}`);
      expect(reply.status).toBe(400);
      expect(keysOf(reply.body)).toEqual(ERROR_A_KEYS);
      expect(reply.body.detail).toMatch(/expected 11 digits/);
    }
  });

  it('finds a company by its alphanumeric CNPJ (ein=12ABC34501DE35)', async () => {
    const created = await createBuyer({ first_name: 'Armazém Alfa', ein: ALPHANUMERIC_CNPJ });
    const reply = await call<Buyer>('GET', `/buyers/search?ein=${ALPHANUMERIC_CNPJ}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: created.id, first_name: 'Armazém Alfa', ein: ALPHANUMERIC_CNPJ });
    expect(keysOf(reply.body)).toEqual(
      [...PERSON_KEYS.filter((k) => k !== 'metadata' && k !== 'taxpayer_id'), 'ein'].sort(),
    );
  });

  it('answers 400 saying 14 characters are expected for a malformed CNPJ, lowercase or masked included', async () => {
    for (const value of [
      '4533982700016',
      '453398270001620',
      '45.339.827/0001-62',
      '12abc34501de35',
      '12ABC34501DEAB',
    ]) {
      const reply = await call('GET', `/buyers/search?ein=${encodeURIComponent(value)}`);
      expect(reply.status, value).toBe(400);
      expect(keysOf(reply.body)).toEqual(ERROR_A_KEYS);
      expect(reply.body.detail).toBe(
        'Invalid ein: expected 14 characters (CNPJ): 12 digits or uppercase letters, then 2 digits, no punctuation',
      );
    }
  });

  it('answers 400 without a tax id, so /buyers/search is never taken for a buyer id', async () => {
    const reply = await call('GET', '/buyers/search');
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toBe('Query parameter taxpayer_id (CPF) or ein (CNPJ) is required');
    const both = await call('GET', `/buyers/search?taxpayer_id=${CPF}&ein=${CNPJ}`);
    expect(both.status).toBe(400);
  });

  it('answers 404 naming the searched value when no buyer has it', async () => {
    const cpf = await call('GET', '/buyers/search?taxpayer_id=12345678909');
    expect(cpf.status).toBe(404);
    expect(cpf.body.detail).toBe('Buyer not found with taxpayer_id: 12345678909');
    const cnpj = await call('GET', '/buyers/search?ein=11444777000161');
    expect(cnpj.status).toBe(404);
    expect(cnpj.body.detail).toBe('Buyer not found with ein: 11444777000161');
  });

  it('answers 404 "Marketplace not found" for a marketplace id that is not the token\'s', async () => {
    const unknown = 'c'.repeat(32);
    const reply = await call('GET', `/buyers/search?taxpayer_id=${CPF}`, { marketplace: unknown });
    expect(reply.status).toBe(404);
    expect(keysOf(reply.body)).toEqual(ERROR_A_KEYS);
    expect(reply.body.detail).toBe(`Marketplace not found: ${unknown}`);
  });
});

describe('removing a buyer (DELETE /buyers/{buyer_id})', () => {
  it('answers {id, resource, deleted: true, deleted_at}, after which get, search, update and delete are 404', async () => {
    const cpf = freshCpf();
    const created = await createBuyer({ first_name: 'Gone', taxpayer_id: cpf });
    clock = new Date(clock.getTime() + 1_000);
    const reply = await call('DELETE', `/buyers/${created.id}`);
    expect(reply.status).toBe(200);
    expect(keysOf(reply.body)).toEqual(['deleted', 'deleted_at', 'id', 'resource']);
    expect(reply.body).toEqual({ id: created.id, resource: 'buyer', deleted: true, deleted_at: clock.toISOString() });
    expect((await call('GET', `/buyers/${created.id}`)).status).toBe(404);
    expect((await call('GET', `/buyers/search?taxpayer_id=${cpf}`)).body.detail).toBe(
      `Buyer not found with taxpayer_id: ${cpf}`,
    );
    expect((await call('PATCH', `/buyers/${created.id}`, { body: { first_name: 'Back' } })).status).toBe(404);
    expect((await call('DELETE', `/buyers/${created.id}`)).status).toBe(404);
  });

  it('lets the document of a removed buyer be registered again', async () => {
    const cpf = freshCpf();
    const created = await createBuyer({ first_name: 'Old', taxpayer_id: cpf });
    await call('DELETE', `/buyers/${created.id}`);
    const again = await createBuyer({ first_name: 'New', taxpayer_id: cpf });
    expect(again.id).not.toBe(created.id);
    expect((await call<Buyer>('GET', `/buyers/search?taxpayer_id=${cpf}`)).body.id).toBe(again.id);
  });

  it('answers 404 for an unknown buyer', async () => {
    const reply = await call('DELETE', `/buyers/${'d'.repeat(32)}`);
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toBe('Buyer not found');
  });
});
