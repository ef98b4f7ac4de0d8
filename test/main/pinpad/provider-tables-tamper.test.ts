/**
 * The provider's EMV tables cached on disk, changed by someone else (provider-tables.ts): the
 * cache carries a seal under the agent's key, so contactless limits raised to 999999 with the same
 * version are refused at the next start — logged, recorded in the audit trail, flagged for the
 * window — and the tables are asked of the provider as if none were held, so the PINPAD attached
 * then holds the provider's own values (read back from the simulated PINPAD's table store, not
 * from what was sent). A cache written before seals existed is fetched again too, said as such.
 * Against the real sandbox's terminal channel, through the real API client.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator } from '../../../drivers/simulator/index.js';
import type { AuditEvent } from '../../../main/audit-log.js';
import { PaymentsClient } from '../../../main/api/index.js';
import type { EmvTablesDocument } from '../../../main/contract/index.js';
import { ProviderTables, type TablesChannel } from '../../../main/pinpad/provider-tables.js';
import { PinpadSale, type TablesStatus } from '../../../main/pinpad/sale-session.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { testIntegrityKey } from '../../helpers/integrity-key.js';
import { call, freshMarket, type Market } from '../../helpers/sandbox.js';

const SERIAL = 'PB0000012345';
/** The provider's contactless limit for every AID (R$ 200,00), and what the edit raises it to. */
const REAL_LIMIT = 20_000;
const RAISED_LIMIT = 999_999;
const ACQUIRER = 2;

/** A tables document with every AID's contactless limit set to `limit`, its version kept. */
const withLimit = (document: EmvTablesDocument, limit: number): EmvTablesDocument => ({
  ...document,
  entries: document.entries.map((entry) =>
    'contactlessTransactionLimit' in entry ? { ...entry, contactlessTransactionLimit: limit } : entry,
  ),
});
const raisedLimits = (document: EmvTablesDocument): EmvTablesDocument => withLimit(document, RAISED_LIMIT);

/** The provider's tables: the test tables with its own contactless limits. */
const PROVIDER_TABLES = withLimit(TEST_EMV_TABLES, REAL_LIMIT);

let sandbox: RunningSandbox;
let market: Market;
let cacheFile: string;
/** The questions that reached the sandbox, by the version the caller held. */
let asked: (string | null)[];
let audit: AuditEvent[];
let logged: { level: string; msg: string }[];
const integrity = testIntegrityKey();
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  market = await freshMarket(sandbox);
  await call(market, 'PUT', `/v1/sandbox/marketplaces/${market.id}/emv_tables`, PROVIDER_TABLES);
  cacheFile = join(mkdtempSync(join(tmpdir(), 'pinbridge-tables-tamper-')), 'emv-tables', `${SERIAL}.json`);
  asked = [];
  audit = [];
  logged = [];
});
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const channel = (): TablesChannel => {
  const terminal = new PaymentsClient({
    baseUrl: sandbox.url,
    token: market.token,
    marketplaceId: market.id,
    maxRetries: 0,
  }).terminal;
  return {
    emvTables: async (serial, knownVersion, options) => {
      const answer = await terminal.emvTables(serial, knownVersion, options);
      asked.push(knownVersion ?? null);
      return answer;
    },
  };
};

/** The agent's tables source for a PINPAD at one start. */
const source = (serial = SERIAL, file = cacheFile): ProviderTables =>
  new ProviderTables({
    channel: channel(),
    serial,
    cacheFile: file,
    integrity,
    audit: { record: (event) => void audit.push(event) },
    logger: {
      debug: () => {},
      info: (_fields, msg) => void logged.push({ level: 'info', msg: msg ?? '' }),
      warn: (_fields, msg) => void logged.push({ level: 'warn', msg: msg ?? '' }),
      error: (_fields, msg) => void logged.push({ level: 'error', msg: msg ?? '' }),
    },
  });

/** A PINPAD fresh from the factory (not holding the provider's version), attached with `tables` as the agent does. */
async function attach(tables: ProviderTables): Promise<{ sim: PinpadSimulator; statuses: TablesStatus[] }> {
  const sim = new PinpadSimulator({ timeScale: 0.05, profile: 'strict' });
  const served = await startMemorySimulator(sim);
  const pinpad = new Pinpad(served.link.host);
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  const statuses: TablesStatus[] = [];
  await new PinpadSale(pinpad, { tables, onTablesStatus: (status) => statuses.push(status) }).prepare();
  return { sim, statuses };
}

/**
 * The contactless limits the simulated PINPAD holds for the acquirer's contactless AIDs (a kernel
 * in T1_CTLSMODE): what its table store decoded from TLR.
 */
const heldLimits = (sim: PinpadSimulator): number[] =>
  sim
    .aidRecords()
    .filter((record) => record.acquirer === ACQUIRER && /^[1-9]$/.test(record.contactlessMode))
    .map((record) => record.contactlessTransactionLimit);

type Cache = { document: EmvTablesDocument } & Record<string, unknown>;
const readCache = (file = cacheFile): Cache => JSON.parse(readFileSync(file, 'utf8')) as Cache;

describe('a cache changed on disk', () => {
  it('with the contactless limits raised to 999999 and the version kept: refused, recorded as tampering, and the PINPAD gets the provider’s real limits', async () => {
    // The agent's last start cached the provider's tables.
    await source().current();
    expect(readCache().document.version).toBe(PROVIDER_TABLES.version);
    asked = [];

    // Someone with the same OS user edits them, keeping the version (and the old seal).
    const cache = readCache();
    writeFileSync(cacheFile, JSON.stringify({ ...cache, document: raisedLimits(cache.document) }));
    expect(readCache().document.version).toBe(PROVIDER_TABLES.version);

    // The next start, with a PINPAD that does not hold the provider's version yet.
    const tables = source();
    expect(tables.cacheTampered).toBe(true);
    const { sim, statuses } = await attach(tables);

    const limits = heldLimits(sim);
    expect(limits.length).toBeGreaterThan(0);
    expect(limits.every((limit) => limit === REAL_LIMIT)).toBe(true);
    expect(limits).not.toContain(RAISED_LIMIT);
    expect(sim.tableVersion(ACQUIRER)).toBe(PROVIDER_TABLES.version);
    // Asked as if nothing were held: not "do you have newer than the cached version?".
    expect(asked).toEqual([null]);
    // Said: the log, the audit trail, the window (the tables' status).
    expect(logged).toContainEqual({
      level: 'error',
      msg: expect.stringContaining('the cached EMV tables fail their seal') as unknown,
    });
    expect(audit).toEqual([
      expect.objectContaining({
        kind: 'tamper.detected',
        what: 'emv_tables_cache',
        serial: SERIAL,
        file: `emv-tables/${SERIAL}.json`,
      }),
    ]);
    expect(statuses.at(-1)).toMatchObject({ state: 'current', version: PROVIDER_TABLES.version, cacheTampered: true });
    // The provider's tables are cached again, sealed: the start after takes them without a word.
    expect(readCache().document).toEqual(PROVIDER_TABLES);
    audit = [];
    expect(source().cacheTampered).toBe(false);
    expect(audit).toEqual([]);
  });

  it('a good cache is used as it is: asked only whether the provider has newer, and nothing reported', async () => {
    await source().current();
    asked = [];
    const tables = source();
    const { sim, statuses } = await attach(tables);
    expect(heldLimits(sim).every((limit) => limit === REAL_LIMIT)).toBe(true);
    expect(asked).toEqual([PROVIDER_TABLES.version]);
    expect(audit).toEqual([]);
    expect(statuses.at(-1)).not.toHaveProperty('cacheTampered');
  });

  it('another PINPAD’s cache copied over this one’s does not fit its seal', async () => {
    const other = join(dirname(cacheFile), 'PB0000099999.json');
    await source('PB0000099999', other).current();
    mkdirSync(dirname(cacheFile), { recursive: true });
    cpSync(other, cacheFile);
    expect(source().cacheTampered).toBe(true);
  });

  it('a cache from before seals is not used: fetched again, logged as an unsealed file, not as tampering', async () => {
    mkdirSync(dirname(cacheFile), { recursive: true });
    // The old format was the bare document; this one with the limits raised, as an edit would leave it.
    writeFileSync(cacheFile, JSON.stringify(raisedLimits(PROVIDER_TABLES)));
    const tables = source();
    expect(tables.cacheTampered).toBe(false);
    const { sim } = await attach(tables);
    expect(heldLimits(sim).every((limit) => limit === REAL_LIMIT)).toBe(true);
    expect(asked).toEqual([null]);
    expect(audit).toEqual([]);
    expect(logged).toContainEqual({ level: 'warn', msg: expect.stringContaining('have no seal') as unknown });
    expect(readCache()).toMatchObject({ seal: expect.any(String) as unknown, document: PROVIDER_TABLES });
  });
});
