/**
 * `doctor --probe-capabilities`: against two real sandboxes over HTTP — one that honours
 * Idempotency-Key and filters its marketplace list by reference_id, one with only what GoPag
 * documents — the probe says which the provider honours, what the settings' api.capabilities
 * should be, and leaves none of its test transactions pending. Without the option, the doctor
 * creates nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, type Transaction } from '../../../main/api/index.js';
import { checkPaymentsApi, type PaymentsApiTarget } from '../../../main/doctor/payments-api.js';
import {
  capabilityFindings,
  probeCapabilities,
  PROBE_TERMINAL,
  type CapabilityProbe,
} from '../../../main/doctor/provider-capabilities.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';

let full: RunningSandbox;
let documented: RunningSandbox;
beforeAll(async () => {
  [full, documented] = await Promise.all([
    startSandbox(),
    startSandbox({ settings: { idempotencyKeys: false, marketplaceTransactionList: false } }),
  ]);
});
afterAll(async () => {
  await Promise.all([full.close(), documented.close()]);
});

const target = (sandbox: RunningSandbox): PaymentsApiTarget => ({
  baseUrl: sandbox.url,
  token: sandbox.token,
  marketplaceId: sandbox.marketplaceId,
  sellerId: sandbox.sellerId,
});

/** The seller's transactions addressed to the probe's terminal, read straight from the sandbox. */
async function probeTransactions(sandbox: RunningSandbox): Promise<Transaction[]> {
  const api = new PaymentsClient({ baseUrl: sandbox.url, token: sandbox.token, marketplaceId: sandbox.marketplaceId });
  const { items } = await api.transactions.listBySeller(sandbox.sellerId, { limit: 100 });
  return items.filter((transaction) => transaction.terminal === PROBE_TERMINAL);
}

const probeOf = (sandbox: RunningSandbox): Promise<CapabilityProbe> =>
  probeCapabilities({ ...target(sandbox), timeoutMs: 5_000 });

describe('probing a provider for Idempotency-Key and the reference_id filter', () => {
  it('finds both on a provider that honours them, and cancels every test transaction it made', async () => {
    const probe = await probeOf(full);
    expect(probe).toMatchObject({
      idempotencyKey: { honoured: true },
      findByReference: { honoured: true },
      leftPending: [],
    });
    // The repeated creation named the first: two transactions, not three.
    expect(probe.created).toHaveLength(2);
    const made = (await probeTransactions(full)).filter((t) => probe.created.includes(t.id));
    expect(made.map((t) => t.status)).toEqual(['canceled', 'canceled']);
  });

  it('finds neither on a provider with only the documented calls, and cancels the duplicate too', async () => {
    const probe = await probeOf(documented);
    expect(probe).toMatchObject({
      idempotencyKey: { honoured: false },
      findByReference: { honoured: false },
      leftPending: [],
    });
    expect(probe.created).toHaveLength(3);
    const made = (await probeTransactions(documented)).filter((t) => probe.created.includes(t.id));
    expect(made.map((t) => t.status)).toEqual(['canceled', 'canceled', 'canceled']);
  });

  it('says "the provider honours X: set api.capabilities.x = true" where the settings leave it off', () => {
    const probe: CapabilityProbe = {
      idempotencyKey: { honoured: true },
      findByReference: { honoured: true },
      created: ['a', 'b'],
      leftPending: [],
    };
    const findings = capabilityFindings(probe, { idempotencyKey: false, findByReference: false });
    expect(findings.status).toBe('warn');
    expect(findings.summary.en).toContain(
      'the provider honours Idempotency-Key: set api.capabilities.idempotency_key = true',
    );
    expect(findings.summary.en).toContain(
      'the provider honours the reference_id filter of its transaction list: set api.capabilities.find_by_reference = true',
    );
    expect(findings.summary.pt).toContain(
      'o provedor atende Idempotency-Key: set api.capabilities.idempotency_key = true',
    );
    expect(findings.fix?.en).toContain('set api.capabilities.idempotency_key = true');
  });

  it('fails where the settings rely on what the provider does not honour, and is ok where they agree', () => {
    const none: CapabilityProbe = {
      idempotencyKey: { honoured: false },
      findByReference: { honoured: false },
      created: ['a', 'b', 'c'],
      leftPending: [],
    };
    const relying = capabilityFindings(none, { idempotencyKey: true, findByReference: false });
    expect(relying.status).toBe('fail');
    expect(relying.summary.en).toContain(
      'the settings say the provider honours Idempotency-Key, but it does not: set api.capabilities.idempotency_key = false',
    );
    expect(capabilityFindings(none, { idempotencyKey: false, findByReference: false }).status).toBe('ok');
  });

  it('fails naming the test transactions it could not cancel, and warns where it could not tell', () => {
    const stuck = capabilityFindings(
      {
        idempotencyKey: { honoured: null, why: 'the repeated creation failed: HTTP 500' },
        findByReference: { honoured: false },
        created: ['a'],
        leftPending: ['a'],
      },
      { idempotencyKey: false, findByReference: false },
    );
    expect(stuck.status).toBe('fail');
    expect(stuck.summary.en).toContain('could not tell whether the provider honours Idempotency-Key');
    expect(stuck.fix?.en).toContain('Cancel the test transactions a');
  });
});

describe('the payments-api check with and without --probe-capabilities', () => {
  it('creates nothing unless asked to probe', async () => {
    const before = (await probeTransactions(documented)).length;
    const result = await checkPaymentsApi({ api: target(documented), timeoutMs: 5_000 });
    expect(result.status).toBe('ok');
    expect(result.details.capabilities).toBeUndefined();
    expect(await probeTransactions(documented)).toHaveLength(before);
  });

  it('reports the findings against the settings: what to set, in both languages', async () => {
    const result = await checkPaymentsApi({
      api: { ...target(full), capabilities: { idempotencyKey: false, findByReference: true } },
      timeoutMs: 5_000,
      probeCapabilities: true,
    });
    expect(result.status).toBe('warn');
    expect(result.summary).toContain('accepted the token');
    expect(result.summary).toContain('set api.capabilities.idempotency_key = true');
    expect(result.summary).toContain(
      'the provider honours the reference_id filter of its transaction list, as the settings say',
    );
    expect(result.pt.summary).toContain('o provedor atende Idempotency-Key');
    expect(result.details.capabilities).toMatchObject({
      idempotency_key: { honoured: true, declared: false },
      find_by_reference: { honoured: true, declared: true },
      left_pending: [],
    });
    expect(JSON.stringify(result)).not.toContain(full.token);
  });
});
