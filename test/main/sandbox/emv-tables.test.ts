/**
 * The terminal channel serves a PINPAD's EMV tables (GET …/terminals/{serial}/emv_tables): the
 * sandbox's payment-scheme test set by default, a marketplace's own set after PUT, none (404)
 * after DELETE — and only the version when the caller already holds it. The API client reads
 * the same answers, and refuses a body that is not a tables document.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidResponseError, PaymentsClient } from '../../../main/api/index.js';
import { EmvTablesAnswer, schemaViolations, type EmvTablesDocument } from '../../../main/contract/index.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { sandboxKeyMethods } from '../../../main/sandbox/payments/test-keys.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { parseEmvTables } from '../../../main/pinpad/emv-tables.js';
import { call, freshMarket, type Market } from '../../helpers/sandbox.js';

const TERMINAL = 'PB0000012345';

let sandbox: RunningSandbox;
let market: Market;

beforeAll(async () => {
  sandbox = await startSandbox();
  market = await freshMarket(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

const tablesPath = (owner: Market = market, query = '') =>
  `/v1/marketplaces/${owner.id}/terminals/${TERMINAL}/emv_tables${query}`;

const ownTables = (version: string): EmvTablesDocument => ({
  ...TEST_EMV_TABLES,
  version,
  source: 'a store test',
  acquirers: { '02': { name: 'ADQUIRENTE TESTE', key_slots: { pin: 2, data: 2 } } },
});

describe('GET …/terminals/{serial}/emv_tables', () => {
  it('serves the test set, a document a PINPAD can be loaded with', async () => {
    const { status, body } = await call<EmvTablesAnswer>(market, 'GET', tablesPath());
    expect(status).toBe(200);
    expect(schemaViolations(EmvTablesAnswer, body)).toEqual([]);
    expect(body).toMatchObject({ version: TEST_EMV_TABLES.version, changed: true });
    const tables = parseEmvTables(body.tables, 'the sandbox');
    expect([...tables.records.keys()]).toEqual([2]);
    expect(tables.records.get(2)!.filter((record) => record.table === 'aid').length).toBeGreaterThan(0);
  });

  it('answers only the version to a caller that holds it', async () => {
    const { status, body } = await call<EmvTablesAnswer>(
      market,
      'GET',
      tablesPath(market, `?known_version=${TEST_EMV_TABLES.version}`),
    );
    expect(status).toBe(200);
    expect(body).toEqual({ version: TEST_EMV_TABLES.version, changed: false });
    const older = await call<EmvTablesAnswer>(market, 'GET', tablesPath(market, '?known_version=2001010001'));
    expect(older.body.changed).toBe(true);
  });

  it('serves what the marketplace set, to that marketplace only, and 404 once withdrawn', async () => {
    const own = await freshMarket(sandbox);
    const put = await call<EmvTablesDocument>(
      own,
      'PUT',
      `/v1/sandbox/marketplaces/${own.id}/emv_tables`,
      ownTables('2612010001'),
    );
    expect(put.status).toBe(200);
    const served = await call<EmvTablesAnswer>(own, 'GET', tablesPath(own));
    expect(served.body.version).toBe('2612010001');
    expect(served.body.tables?.acquirers).toEqual({
      '02': { name: 'ADQUIRENTE TESTE', key_slots: { pin: 2, data: 2 } },
    });
    // Another marketplace still gets the test set.
    expect((await call<EmvTablesAnswer>(market, 'GET', tablesPath())).body.version).toBe(TEST_EMV_TABLES.version);

    expect(await call(own, 'DELETE', `/v1/sandbox/marketplaces/${own.id}/emv_tables`)).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
    const none = await call<{ status: number; detail: string }>(own, 'GET', tablesPath(own));
    expect(none.status).toBe(404);
    expect(none.body.detail).toContain(TERMINAL);
  });

  it('refuses a document that is not EMV tables, and another marketplace (as every route: 404)', async () => {
    const bad = await call(market, 'PUT', `/v1/sandbox/marketplaces/${market.id}/emv_tables`, {
      ...TEST_EMV_TABLES,
      entries: [{ table: 'aid', acquirer: 2 }],
    });
    expect(bad.status).toBe(400);
    const other = await freshMarket(sandbox);
    expect((await call(other, 'GET', tablesPath(market))).status).toBe(404);
  });

  it('offers acquirer 02 every key method the sandbox opens: DUKPT 01, MK/WK 02 with the working keys it issues, the random-key method under its test RSA key', () => {
    expect(TEST_EMV_TABLES.acquirers?.['02']?.keys).toEqual(sandboxKeyMethods());
    expect(parseEmvTables(TEST_EMV_TABLES).keyMethods.get(2)).toEqual({
      cardData: sandboxKeyMethods().card_data,
      pin: sandboxKeyMethods().pin,
    });
  });

  it('is the set docs/emv-tables.sample.json shows', () => {
    expect(JSON.parse(readFileSync(new URL('../../../docs/emv-tables.sample.json', import.meta.url), 'utf8'))).toEqual(
      TEST_EMV_TABLES,
    );
  });
});

describe('the API client', () => {
  it('reads the tables, the unchanged answer and the absence of tables', async () => {
    const own = await freshMarket(sandbox);
    const client = new PaymentsClient({ baseUrl: sandbox.url, token: own.token, marketplaceId: own.id });
    const first = await client.terminal.emvTables(TERMINAL, undefined);
    expect(first).toMatchObject({
      version: TEST_EMV_TABLES.version,
      changed: true,
      tables: { format: 'pinbridge-emv-tables' },
    });
    expect(await client.terminal.emvTables(TERMINAL, TEST_EMV_TABLES.version)).toEqual({
      version: TEST_EMV_TABLES.version,
      changed: false,
    });
    await call(own, 'DELETE', `/v1/sandbox/marketplaces/${own.id}/emv_tables`);
    expect(await client.terminal.emvTables(TERMINAL, undefined)).toBeNull();
  });

  describe('against a provider that answers nonsense', () => {
    let server: Server;
    let answer: unknown;
    beforeAll(async () => {
      server = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const client = () =>
      new PaymentsClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        token: 't',
        marketplaceId: 'm',
        maxRetries: 0,
      });

    it.each([
      ['tables that are not a document', { version: '1', changed: true, tables: { format: 'other' } }],
      ['"changed" without the tables', { version: '1', changed: true }],
      ['no version', { changed: false }],
    ])('refuses %s with InvalidResponseError', async (_what, body) => {
      answer = body;
      await expect(client().terminal.emvTables(TERMINAL, undefined)).rejects.toBeInstanceOf(InvalidResponseError);
    });
  });
});
