/**
 * EMV tables from the payments provider (provider-tables.ts), against the real sandbox's
 * terminal channel through the real API client: fetched once and cached on disk, asked again
 * only after the refresh interval and then only for the version, kept when the provider is
 * unreachable or sends tables that cannot be used, and given up when it serves none. (A cache
 * changed on disk: provider-tables-tamper.test.ts.)
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../../main/api/index.js';
import type { EmvTablesDocument } from '../../../main/contract/index.js';
import { TablesFileError, type EmvTables } from '../../../main/pinpad/emv-tables.js';
import { ProviderTables, type TablesChannel } from '../../../main/pinpad/provider-tables.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { call, freshMarket, type Market } from '../../helpers/sandbox.js';
import { testIntegrityKey } from '../../helpers/integrity-key.js';

const SERIAL = 'PB0000012345';
const HOUR = 3600_000;

let sandbox: RunningSandbox;
let market: Market;
let cacheFile: string;
let clock: number;
/** The agent's sealing key (one per spec: one per machine). */
const integrity = testIntegrityKey();
/** The questions that reached the sandbox, by the version the caller held. */
let asked: (string | null)[];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  market = await freshMarket(sandbox);
  cacheFile = join(mkdtempSync(join(tmpdir(), 'pinbridge-tables-')), 'emv-tables', `${SERIAL}.json`);
  clock = Date.parse('2026-11-26T08:00:00Z');
  asked = [];
});

/** The real client's terminal channel, noting each question the sandbox answered. */
const channel = (baseUrl = sandbox.url): TablesChannel => {
  const terminal = new PaymentsClient({ baseUrl, token: market.token, marketplaceId: market.id, maxRetries: 0 })
    .terminal;
  return {
    emvTables: async (serial, knownVersion, options) => {
      const answer = await terminal.emvTables(serial, knownVersion, options);
      asked.push(knownVersion ?? null);
      return answer;
    },
  };
};
const source = (over: Partial<ConstructorParameters<typeof ProviderTables>[0]> = {}) =>
  new ProviderTables({
    channel: channel(),
    serial: SERIAL,
    cacheFile,
    integrity,
    refreshMs: 6 * HOUR,
    retryMs: 60_000,
    now: () => clock,
    ...over,
  });
const serve = (document: EmvTablesDocument | null) =>
  document === null
    ? call(market, 'DELETE', `/v1/sandbox/marketplaces/${market.id}/emv_tables`)
    : call(market, 'PUT', `/v1/sandbox/marketplaces/${market.id}/emv_tables`, document);
const cached = (): { seal?: unknown; document?: { version?: unknown } } =>
  JSON.parse(readFileSync(cacheFile, 'utf8')) as { seal?: unknown; document?: { version?: unknown } };
const cachedVersion = (): unknown => cached().document?.version;
const versionOf = (tables: EmvTables | TablesFileError | undefined) =>
  tables instanceof TablesFileError || tables === undefined ? tables : tables.version;

describe('ProviderTables', () => {
  it('fetches the tables, keeps them on disk, sealed, and asks again only after the refresh interval, for the version', async () => {
    const tables = source();
    expect(versionOf(await tables.current())).toBe(TEST_EMV_TABLES.version);
    expect(cached()).toMatchObject({ serial: SERIAL, seal: expect.any(String) as unknown, document: TEST_EMV_TABLES });
    clock += HOUR;
    await tables.current();
    expect(asked).toEqual([null]);
    clock += 6 * HOUR;
    expect(versionOf(await tables.current())).toBe(TEST_EMV_TABLES.version);
    expect(asked).toEqual([null, TEST_EMV_TABLES.version]);
  });

  it('takes a new version when the provider has one', async () => {
    const tables = source();
    await tables.current();
    await serve({ ...TEST_EMV_TABLES, version: '2612010001', acquirers: { '2': { key_slots: { pin: 2, data: 3 } } } });
    clock += 6 * HOUR;
    const next = (await tables.current()) as EmvTables;
    expect(next.version).toBe('2612010001');
    expect(next.keySlots.get(2)).toEqual({ pin: 2, data: 3 });
    expect(cachedVersion()).toBe('2612010001');
  });

  it('starts from the cache when the provider cannot be reached, and asks again a minute later', async () => {
    await source().current();
    // A closed port: nothing listens there.
    const offline = source({ channel: channel('http://127.0.0.1:9') });
    expect(versionOf(await offline.current())).toBe(TEST_EMV_TABLES.version);
    const attempts = asked.length;
    clock += 30_000;
    await offline.current();
    clock += 31_000;
    await offline.current();
    // Each question went to the closed port, so the sandbox heard none of them; the cache stayed.
    expect(asked.length).toBe(attempts);
    expect(versionOf(await offline.current())).toBe(TEST_EMV_TABLES.version);
  });

  it('keeps the last good tables when the provider sends tables that cannot be used', async () => {
    const tables = source();
    await tables.current();
    // Valid in shape, but the CAPK's modulus cannot be a TLR record (the encoder refuses it).
    const broken = {
      ...TEST_EMV_TABLES,
      version: '2612019999',
      entries: [
        {
          table: 'capk',
          acquirer: 2,
          record: '01',
          rid: 'A000000003',
          capkIndex: '92',
          exponent: '0303',
          modulus: 'AB',
        },
      ],
    };
    await serve(broken as EmvTablesDocument);
    clock += 6 * HOUR;
    expect(versionOf(await tables.current())).toBe(TEST_EMV_TABLES.version);
    expect(cachedVersion()).toBe(TEST_EMV_TABLES.version);
  });

  it('with nothing good held, says why the provider’s tables cannot be used (sales are then refused)', async () => {
    await serve({
      ...TEST_EMV_TABLES,
      version: 'X',
      entries: [
        {
          table: 'capk',
          acquirer: 2,
          record: '01',
          rid: 'A000000003',
          capkIndex: '92',
          exponent: '0303',
          modulus: 'AB',
        },
      ],
    });
    const held = await source().current();
    expect(held).toBeInstanceOf(TablesFileError);
    expect((held as TablesFileError).message).toContain("payments provider's EMV tables");
  });

  it('gives up the tables (the PINPAD keeps its own) when the provider serves none, and forgets the cache', async () => {
    const tables = source();
    await tables.current();
    await serve(null);
    clock += 6 * HOUR;
    expect(await tables.current()).toBeUndefined();
    expect(existsSync(cacheFile)).toBe(false);
  });

  it('ignores a cache file that cannot be used, and fetches', async () => {
    await source().current();
    writeFileSync(cacheFile, '{ not json');
    expect(versionOf(await source().current())).toBe(TEST_EMV_TABLES.version);
    expect(asked).toEqual([null, null]);
  });
});
