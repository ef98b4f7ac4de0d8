/**
 * Fault injection (issue 4): the payments API timing out, failing with 5xx and dropping the
 * connection at each call of a sale — before the request reached it, and after it acted (the
 * ambiguous outcome) —, the PINPAD unplugged at each step, and noise on the PINPAD's line.
 *
 * Real parts throughout: the sandbox over HTTP behind a real proxy (test/helpers/fault-proxy.ts),
 * a SQLite journal, the ABECS driver talking to the simulated PINPAD over an in-memory cable.
 * After every fault the payment must end in a defined state with a clear problem code, the API
 * must hold at most one transaction for the reference and never a second authorization, and the
 * journal must agree with the API; an undo the API did not take stays queued until it lands.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LinkTimings } from '../../../drivers/abecs/link.js';
import type { AutoCustomerOptions } from '../../../drivers/simulator/index.js';
import { PaymentsClient, type ProviderCapabilities, type Transaction } from '../../../main/api/index.js';
import type { EngineConfig } from '../../../main/core/engine.js';
import { centavos } from '../../../main/core/money.js';
import type { PaymentOutcome } from '../../../main/core/outcome.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import type { PaymentState } from '../../../main/core/states.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import {
  PAYMENT_CALLS,
  SELLER_LIST,
  startFaultProxy,
  type FaultProxy,
  type FaultRule,
  type PaymentCall,
} from '../../helpers/fault-proxy.js';
import { engineRig, saleParams, type EnginePinpad, type EngineRig } from './engine-rig.js';

const SERIAL = 'PB-FAULTS-1';
/** The engine's deadline per API call where a request is held: short, so the cases stay fast. */
const HELD_REQUEST_TIMEOUT_MS = 400;
/** A guard against hangs (no speed assertion): a payment that needs longer than this is stuck. */
const HANG_GUARD_MS = 15_000;
/**
 * A shorter silence than the spec's 500 ms (after the start-up CAN, and before a NAK for a bad
 * frame): the in-memory cable is quiet at once, and every test would otherwise pay 500 ms.
 */
const QUICK_LINK: Partial<LinkTimings> = { silenceMs: 50 };
/** The ACK wait for the lost-ACK cases (the spec's 2 s would cost 2 s a case). */
const SHORT_ACK_WAIT: Partial<LinkTimings> = { ackTimeoutMs: 600 };

interface Stack {
  readonly rig: EngineRig;
  readonly proxy: FaultProxy;
  /** A client straight to the sandbox (not through the proxy), for the test's own checks. */
  readonly api: PaymentsClient;
  readonly pinpad: EnginePinpad;
}

/** One sandbox for the file (references are unique per test); each test gets its own rig and proxy. */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ settings: {} });
});
afterAll(async () => {
  await sandbox.close();
});

/** What the test opened, closed after it: the proxy first (it holds connections to the sandbox), then the rig. */
let opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  const closers = opened;
  opened = [];
  for (const close of closers) await close();
});

/**
 * What the file's sandbox offers (its defaults), declared to the client as a store's settings
 * would: Idempotency-Key and the reference_id filter. The client assumes neither by default.
 */
const FULL_PROVIDER: Partial<ProviderCapabilities> = { idempotencyKey: true, findByReference: true };

interface OpenOptions {
  /** Another sandbox than the file's (a provider with other features). */
  readonly sandbox?: RunningSandbox;
  /** What the client is told the provider offers (default FULL_PROVIDER, the file's sandbox). */
  readonly capabilities?: Partial<ProviderCapabilities>;
  /** The simulated customer (card, keys, CPF); null: nobody acts unless the test does. */
  readonly auto?: AutoCustomerOptions | null;
  readonly config?: Partial<EngineConfig>;
  /** The client's own retries (0 by default, so every fault reaches the engine). */
  readonly retries?: number;
  readonly pinpadTimings?: Partial<LinkTimings>;
}

async function open(options: OpenOptions = {}): Promise<Stack> {
  let proxy: FaultProxy | undefined;
  const auto = options.auto === undefined ? { delayMs: 5, card: 'visaCredit' } : options.auto;
  const target = options.sandbox ?? sandbox;
  const rig = await engineRig({
    sandbox: target,
    simulator: { timeScale: 0.05, ...(auto ? { autoCustomer: auto } : {}) },
    config: { apiTimeoutMs: 2_000, ...options.config },
    apiBaseUrl: async (target) => {
      proxy = await startFaultProxy(target.url);
      return proxy.url;
    },
    clientOptions: {
      maxRetries: options.retries ?? 0,
      retryBaseDelayMs: 10,
      retryMaxDelayMs: 20,
      capabilities: options.capabilities ?? FULL_PROVIDER,
    },
    pinpadTimings: { ...QUICK_LINK, ...options.pinpadTimings },
  });
  const started = proxy;
  opened.push(
    async () => started?.close(),
    () => rig.close(),
  );
  if (!started) throw new Error('the fault proxy did not start');
  const api = new PaymentsClient({
    baseUrl: target.url,
    token: target.token,
    marketplaceId: target.marketplaceId,
    maxRetries: 0,
  });
  const pinpad = await rig.addPinpad(SERIAL);
  return { rig, proxy: started, api, pinpad };
}

const sale = (overrides: Partial<SaleRequest> = {}): SaleRequest => saleParams('fault', overrides);

/** Rejects when `promise` is not settled in time: a hang is a failure with a clear message. */
async function settledWithin<T>(promise: Promise<T>, what: string, ms = HANG_GUARD_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

// ------------------------------------------------------------------------------------------------
// Faults and what the API shows

type FaultName = 'timeout' | '500' | '502' | '503' | '504' | 'reset_before' | 'reset_after';

function fault(call: PaymentCall, name: FaultName, times = 1): FaultRule {
  const { method, path } = PAYMENT_CALLS[call];
  if (name === '500' || name === '502' || name === '503' || name === '504')
    return { method, path, action: 'status', status: Number(name) as 500 | 502 | 503 | 504, times };
  return { method, path, action: name, times };
}

/** The transactions the API holds for the reference (read straight from the sandbox). */
async function apiTransactions(
  api: PaymentsClient,
  reference: string,
  sellerId = sandbox.sellerId,
): Promise<readonly Transaction[]> {
  return (await api.transactions.listBySeller(sellerId, { limit: 100 })).items.filter(
    (t) => t.reference_id === reference,
  );
}

const authorizations = (transaction: Transaction): number =>
  transaction.history.filter((entry) => entry.operation_type === 'authorization').length;
const completions = (transaction: Transaction): number =>
  transaction.history.filter((entry) => entry.operation_type === 'completion').length;

/**
 * What must hold after every fault, once the payment has settled: one transaction at most for
 * the reference, at most one authorization, the journal's result agreeing with the API's status,
 * and no undo left waiting. Returns the API's transaction (undefined when none was created).
 */
async function expectConsistent(s: Stack, outcome: PaymentOutcome): Promise<Transaction | undefined> {
  const found = await apiTransactions(s.api, outcome.referenceId);
  expect(found.length).toBeLessThanOrEqual(1);
  const transaction = found[0];
  if (transaction) {
    expect(outcome.transactionId).toBe(transaction.id);
    expect(authorizations(transaction)).toBeLessThanOrEqual(1);
  }
  // approved ⇔ the API charged it.
  expect(outcome.status === 'approved').toBe(transaction?.status === 'succeeded');
  expect(s.rig.engine.pending().undos.map((u) => u.referenceId)).not.toContain(outcome.referenceId);
  expect(s.rig.engine.status(outcome.referenceId)).toEqual({ kind: 'processed', outcome });
  return transaction;
}

const journalStates = (s: Stack, outcome: PaymentOutcome): PaymentState[] =>
  s.rig.journal.events(outcome.paymentId).map((event) => event.to);

const undoPendingEvents = (s: Stack, reference: string): number =>
  s.rig.events.filter((event) => event.referenceId === reference && event.step === 'undo_pending').length;

/** Waits until the payment leaves its undo state (the queued undo landed), and returns it. */
async function landed(s: Stack, reference: string): Promise<PaymentOutcome> {
  await expect
    .poll(() => s.rig.engine.status(reference), { timeout: 10_000, interval: 20 })
    .toMatchObject({
      kind: 'processed',
      outcome: { state: expect.not.stringMatching(/^(aborting|reversing|undoing)$/) as unknown },
    });
  const answer = s.rig.engine.status(reference);
  if (answer.kind !== 'processed') throw new Error(`payment ${reference} is ${answer.kind}`);
  return answer.outcome;
}

// ------------------------------------------------------------------------------------------------
// API faults at each call of a sale

/**
 * How each call is reached. A sale calls create, authorize and complete; lookup follows a lost
 * create answer, retrieve a lost authorization answer; reverse comes from a card that refuses
 * after the approval, void from the POS undoing an approval ("pos" confirmation policy).
 * Without client retries, faults on lookup, retrieve, reverse and void stay until the test lifts
 * them: the engine's own further attempts meet them too, and a queued undo can be seen before it
 * lands.
 */
interface Scenario {
  readonly open: OpenOptions;
  readonly faults: (name: FaultName, retries: number) => FaultRule[];
  /** Runs the payment; `arm` puts the faults in place at the moment they belong to. */
  readonly act: (s: Stack, params: ReturnType<typeof sale>, arm: () => void) => Promise<PaymentOutcome>;
}

const startSale = (s: Stack, params: ReturnType<typeof sale>, arm: () => void): Promise<PaymentOutcome> => {
  arm();
  return s.rig.engine.start(params);
};

const SCENARIOS: Record<PaymentCall, Scenario> = {
  create: { open: {}, faults: (name) => [fault('create', name)], act: startSale },
  lookup: {
    open: {},
    // Every attempt of the create loses its answer, so the engine has to look the reference up.
    faults: (name, retries) => [
      fault('create', 'reset_after', retries + 1),
      fault('lookup', name, retries > 0 ? 1 : Infinity),
    ],
    act: startSale,
  },
  authorize: { open: {}, faults: (name) => [fault('authorize', name)], act: startSale },
  retrieve: {
    open: {},
    faults: (name, retries) => [
      fault('authorize', 'reset_after', retries + 1),
      fault('retrieve', name, retries > 0 ? 1 : Infinity),
    ],
    act: startSale,
  },
  complete: { open: {}, faults: (name) => [fault('complete', name)], act: startSale },
  reverse: {
    open: { auto: { delayMs: 5, card: 'visaRefuseAfterOnline' } },
    faults: (name, retries) => [fault('reverse', name, retries > 0 ? 1 : Infinity)],
    act: startSale,
  },
  void: {
    open: { config: { confirmation: 'pos', confirmationDeadlineMs: 60_000 } },
    faults: (name, retries) => [fault('void', name, retries > 0 ? 1 : Infinity)],
    act: async (s, params, arm) => {
      const approved = await s.rig.engine.start(params);
      expect(approved).toMatchObject({ status: 'approved', state: 'awaiting_confirmation' });
      // Only the POS's void meets the fault.
      arm();
      return s.rig.engine.undo(params.referenceId);
    },
  },
};

interface End {
  readonly status: PaymentOutcome['status'];
  readonly state: PaymentState;
  readonly problem: string | null;
}
const end = (status: End['status'], state: PaymentState, problem: string | null = null): End => ({
  status,
  state,
  problem,
});

interface ApiFaultCase {
  readonly call: PaymentCall;
  readonly fault: FaultName;
  /** What `start` (or `undo`) answers while the fault is on. */
  readonly answers: End;
  /** Where the payment ends once any queued undo has landed (the same when nothing was queued). */
  readonly ends: End;
  /** The API transaction's final status; null when no transaction may exist. */
  readonly api: Transaction['status'] | null;
}

const APPROVED = end('approved', 'confirmed');
const NO_TRANSACTION = end('failed', 'failed', 'API_UNAVAILABLE');
/** A 5xx: the API answered with an error of its own; nothing was created (the lookup said so). */
const ERROR_NOT_CREATED = end('failed', 'failed', 'API_ERROR');
const LOOKUP_QUEUED = end('failed', 'aborting', 'API_UNAVAILABLE');
const NOT_RECEIVED = end('failed', 'failed', 'AUTHORIZATION_NOT_RECEIVED');
/** A 5xx on the authorization: the API answered with an error, the transaction still pending; cancelled. */
const ERROR_NOT_AUTHORIZED = end('failed', 'failed', 'API_ERROR');
const UNKNOWN_REVERSED = end('failed', 'reversed', 'AUTHORIZATION_UNKNOWN');
const REVERSAL_QUEUED = end('declined', 'reversing', 'CHIP_REFUSED');
const REVERSED = end('declined', 'reversed', 'CHIP_REFUSED');
const VOID_QUEUED = end('cancelled', 'undoing', 'UNDONE_BY_POS');
const VOIDED = end('cancelled', 'undone', 'UNDONE_BY_POS');

const API_FAULTS: ApiFaultCase[] = [
  // The transaction is created: a refusal that did not reach the API leaves nothing to undo; a lost answer is adopted by reference.
  { call: 'create', fault: 'timeout', answers: NO_TRANSACTION, ends: NO_TRANSACTION, api: null },
  { call: 'create', fault: '500', answers: ERROR_NOT_CREATED, ends: ERROR_NOT_CREATED, api: null },
  { call: 'create', fault: '502', answers: ERROR_NOT_CREATED, ends: ERROR_NOT_CREATED, api: null },
  { call: 'create', fault: '503', answers: ERROR_NOT_CREATED, ends: ERROR_NOT_CREATED, api: null },
  { call: 'create', fault: '504', answers: ERROR_NOT_CREATED, ends: ERROR_NOT_CREATED, api: null },
  { call: 'create', fault: 'reset_before', answers: NO_TRANSACTION, ends: NO_TRANSACTION, api: null },
  { call: 'create', fault: 'reset_after', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  // The create's answer was lost and the lookup fails too: the cancel is queued and lands once the API answers.
  { call: 'lookup', fault: 'timeout', answers: LOOKUP_QUEUED, ends: NO_TRANSACTION, api: 'canceled' },
  { call: 'lookup', fault: '500', answers: LOOKUP_QUEUED, ends: NO_TRANSACTION, api: 'canceled' },
  { call: 'lookup', fault: '502', answers: LOOKUP_QUEUED, ends: NO_TRANSACTION, api: 'canceled' },
  { call: 'lookup', fault: '503', answers: LOOKUP_QUEUED, ends: NO_TRANSACTION, api: 'canceled' },
  { call: 'lookup', fault: 'reset_before', answers: LOOKUP_QUEUED, ends: NO_TRANSACTION, api: 'canceled' },
  { call: 'lookup', fault: 'reset_after', answers: LOOKUP_QUEUED, ends: NO_TRANSACTION, api: 'canceled' },
  // The authorization: read from the API, never sent again. Not there → the pending transaction is cancelled.
  { call: 'authorize', fault: 'timeout', answers: NOT_RECEIVED, ends: NOT_RECEIVED, api: 'canceled' },
  { call: 'authorize', fault: '500', answers: ERROR_NOT_AUTHORIZED, ends: ERROR_NOT_AUTHORIZED, api: 'canceled' },
  { call: 'authorize', fault: '502', answers: ERROR_NOT_AUTHORIZED, ends: ERROR_NOT_AUTHORIZED, api: 'canceled' },
  { call: 'authorize', fault: '503', answers: ERROR_NOT_AUTHORIZED, ends: ERROR_NOT_AUTHORIZED, api: 'canceled' },
  { call: 'authorize', fault: '504', answers: ERROR_NOT_AUTHORIZED, ends: ERROR_NOT_AUTHORIZED, api: 'canceled' },
  { call: 'authorize', fault: 'reset_before', answers: NOT_RECEIVED, ends: NOT_RECEIVED, api: 'canceled' },
  { call: 'authorize', fault: 'reset_after', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  // The authorization's answer was lost and the API cannot be read: the approval is reversed, nothing charged.
  { call: 'retrieve', fault: 'timeout', answers: UNKNOWN_REVERSED, ends: UNKNOWN_REVERSED, api: 'reversed' },
  { call: 'retrieve', fault: '500', answers: UNKNOWN_REVERSED, ends: UNKNOWN_REVERSED, api: 'reversed' },
  { call: 'retrieve', fault: '502', answers: UNKNOWN_REVERSED, ends: UNKNOWN_REVERSED, api: 'reversed' },
  { call: 'retrieve', fault: '503', answers: UNKNOWN_REVERSED, ends: UNKNOWN_REVERSED, api: 'reversed' },
  { call: 'retrieve', fault: 'reset_before', answers: UNKNOWN_REVERSED, ends: UNKNOWN_REVERSED, api: 'reversed' },
  { call: 'retrieve', fault: 'reset_after', answers: UNKNOWN_REVERSED, ends: UNKNOWN_REVERSED, api: 'reversed' },
  // The completion report is informational: the approval stands.
  { call: 'complete', fault: 'timeout', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  { call: 'complete', fault: '500', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  { call: 'complete', fault: '502', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  { call: 'complete', fault: '503', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  { call: 'complete', fault: 'reset_before', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  { call: 'complete', fault: 'reset_after', answers: APPROVED, ends: APPROVED, api: 'succeeded' },
  // The reversal after the chip refused: queued until it lands; one the API took counts as landed.
  { call: 'reverse', fault: 'timeout', answers: REVERSAL_QUEUED, ends: REVERSED, api: 'reversed' },
  { call: 'reverse', fault: '500', answers: REVERSAL_QUEUED, ends: REVERSED, api: 'reversed' },
  { call: 'reverse', fault: '502', answers: REVERSAL_QUEUED, ends: REVERSED, api: 'reversed' },
  { call: 'reverse', fault: '503', answers: REVERSAL_QUEUED, ends: REVERSED, api: 'reversed' },
  { call: 'reverse', fault: 'reset_before', answers: REVERSAL_QUEUED, ends: REVERSED, api: 'reversed' },
  { call: 'reverse', fault: 'reset_after', answers: REVERSED, ends: REVERSED, api: 'reversed' },
  // The POS's void of an approval: queued until it lands; one the API took counts as landed.
  { call: 'void', fault: 'timeout', answers: VOID_QUEUED, ends: VOIDED, api: 'canceled' },
  { call: 'void', fault: '500', answers: VOID_QUEUED, ends: VOIDED, api: 'canceled' },
  { call: 'void', fault: '502', answers: VOID_QUEUED, ends: VOIDED, api: 'canceled' },
  { call: 'void', fault: '503', answers: VOID_QUEUED, ends: VOIDED, api: 'canceled' },
  { call: 'void', fault: 'reset_before', answers: VOID_QUEUED, ends: VOIDED, api: 'canceled' },
  { call: 'void', fault: 'reset_after', answers: VOIDED, ends: VOIDED, api: 'canceled' },
];

const endOf = (outcome: PaymentOutcome): End => end(outcome.status, outcome.state, outcome.problem?.code ?? null);

/** "reversed (CHIP_REFUSED)", for test names. */
const said = (e: End): string => (e.problem === null ? e.state : `${e.state} (${e.problem})`);
const apiSaid = (status: Transaction['status'] | null): string =>
  status === null ? 'no transaction at the API' : `the API shows ${status}`;
/** Test names in full (vitest's $field names cut long values short). */
const named = <T>(rows: readonly T[], name: (row: T) => string): Array<[string, T]> =>
  rows.map((row) => [name(row), row]);

describe('payments API faults at each call of a sale (no client retries)', () => {
  const cases = named(
    API_FAULTS,
    (c) =>
      `${c.call} → ${c.fault}: answers ${said(c.answers)}${c.answers.state === c.ends.state ? '' : `, then ${said(c.ends)} once the API is back`}; ${apiSaid(c.api)}`,
  );
  it.each(cases)('%s', async (_, { call, fault: name, answers, ends, api }) => {
    const scenario = SCENARIOS[call];
    const s = await open({
      ...scenario.open,
      config: { ...scenario.open.config, ...(name === 'timeout' ? { apiTimeoutMs: HELD_REQUEST_TIMEOUT_MS } : {}) },
    });
    const params = sale();
    const answer = await settledWithin(
      scenario.act(s, params, () => scenario.faults(name, 0).forEach((rule) => s.proxy.add(rule))),
      'the payment',
    );
    expect(endOf(answer)).toEqual(answers);
    // The faulted call was made, and met the fault.
    expect(s.proxy.requests(PAYMENT_CALLS[call]).some((seen) => seen.action === fault(call, name).action)).toBe(true);

    const queued = answers.state !== ends.state;
    if (queued) {
      // Visible while the API refuses it: a pending undo and an undo_pending progress event.
      expect(s.rig.engine.pending().undos.map((u) => u.referenceId)).toEqual([params.referenceId]);
      expect(undoPendingEvents(s, params.referenceId)).toBeGreaterThan(0);
      expect(s.rig.engine.status(params.referenceId)).toMatchObject({
        kind: 'processed',
        outcome: { state: answers.state },
      });
      s.proxy.clear();
    }
    const final = queued ? await landed(s, params.referenceId) : answer;
    expect(endOf(final)).toEqual(ends);
    // Its end reached the listeners (POS, window, metrics) as a progress event in its final state.
    expect(
      s.rig.events.filter((event) => event.referenceId === params.referenceId).map((event) => event.state),
    ).toContain(final.state);
    const transaction = await expectConsistent(s, final);
    expect(transaction?.status ?? null).toBe(api);
    // Never a second authorization: the engine sent at most one, whatever it lost.
    expect(s.proxy.count(PAYMENT_CALLS.authorize)).toBeLessThanOrEqual(1);
    if (call === 'authorize' || call === 'retrieve') {
      expect(s.proxy.count(PAYMENT_CALLS.authorize)).toBe(1);
      expect(journalStates(s, final)).toContain('unknown');
    }
    if (call === 'create') {
      // Whatever became of the create, the engine asked the API by reference before deciding.
      expect(s.proxy.count(PAYMENT_CALLS.lookup)).toBeGreaterThanOrEqual(1);
    }
    if (call === 'complete') {
      // Only the completion the API took is in its history; the sale stands either way.
      expect(completions(transaction!)).toBe(name === 'reset_after' ? 1 : 0);
    }
    if (call === 'reverse' || call === 'void') {
      // A failed undo is checked against the API: one it already took counts as landed.
      expect(s.proxy.count(PAYMENT_CALLS.retrieve)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('the client’s own retries absorb 5xx and resets on calls that are safe to repeat', () => {
  // Every call of the engine is retry-safe: GETs, and POSTs with an Idempotency-Key.
  const RETRIED: Array<{ call: PaymentCall; fault: FaultName }> = (
    ['create', 'lookup', 'authorize', 'retrieve', 'complete', 'reverse', 'void'] as const
  ).flatMap((call) => (['503', 'reset_before', 'reset_after'] as const).map((name) => ({ call, fault: name })));

  it.each(named(RETRIED, (c) => `${c.call} → ${c.fault} once: absorbed; the payment ends as if nothing happened`))(
    '%s',
    async (_, { call, fault: name }) => {
      const retries = 2;
      const scenario = SCENARIOS[call];
      const s = await open({ ...scenario.open, retries });
      const params = sale();
      const outcome = await settledWithin(
        scenario.act(s, params, () => scenario.faults(name, retries).forEach((rule) => s.proxy.add(rule))),
        'the payment',
      );

      const expected = call === 'reverse' ? REVERSED : call === 'void' ? VOIDED : APPROVED;
      expect(endOf(outcome)).toEqual(expected);
      // Nothing was queued: the retry landed the call at once.
      expect(undoPendingEvents(s, params.referenceId)).toBe(0);
      const transaction = await expectConsistent(s, outcome);
      expect(transaction?.status).toBe(call === 'reverse' ? 'reversed' : call === 'void' ? 'canceled' : 'succeeded');
      // The call was sent again, under the same Idempotency-Key where it carries one.
      const sent = s.proxy.requests(PAYMENT_CALLS[call]);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(sent.at(-1)!.action).toBe('forward');
      if (PAYMENT_CALLS[call].method === 'POST') expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(1);
      // Repeats of the authorization are the client's, under one key: the API decided once.
      const authorizeKeys = new Set(s.proxy.requests(PAYMENT_CALLS.authorize).map((r) => r.idempotencyKey));
      expect(authorizeKeys.size).toBe(1);
      expect(authorizations(transaction!)).toBe(1);
      if (call === 'complete') expect(completions(transaction!)).toBe(1);
    },
  );
});

describe('the provider refuses the create: each answer its own problem, retried only where repeating is safe', () => {
  const REFUSALS = [
    { status: 401, problem: 'API_ACCESS_DENIED', says: /recusou o acesso do Pinbridge/ },
    { status: 403, problem: 'API_ACCESS_DENIED', says: /recusou o acesso do Pinbridge/ },
    { status: 501, problem: 'API_NOT_ENABLED', says: /PINPAD não habilitado/ },
    { status: 429, problem: 'API_BUSY', says: /ocupado; nada foi cobrado/ },
  ] as const;

  it.each(
    named(
      REFUSALS,
      (r) => `${r.status} → failed (${r.problem}); nothing was created, so nothing is looked up or undone`,
    ),
  )('%s', async (_, { status, problem, says }) => {
    const s = await open();
    s.proxy.add({ ...PAYMENT_CALLS.create, action: 'status', status, times: Infinity });
    const params = sale();
    const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
    expect(endOf(outcome)).toEqual(end('failed', 'failed', problem));
    expect(outcome.problem?.cashierMessage).toMatch(says);
    expect(s.proxy.count(PAYMENT_CALLS.create)).toBe(1);
    expect(s.proxy.count(PAYMENT_CALLS.lookup)).toBe(0);
    expect(s.rig.engine.pending().undos).toEqual([]);
    expect(await apiTransactions(s.api, params.referenceId)).toEqual([]);
  });

  it.each([
    [408, 'API_UNAVAILABLE'],
    [409, 'API_CONFLICT'],
  ] as const)(
    '%i → the outcome is not known: the reference is looked up before deciding, and with nothing found the sale fails (%s)',
    async (status, problem) => {
      const s = await open();
      s.proxy.add({ ...PAYMENT_CALLS.create, action: 'status', status });
      const params = sale();
      const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
      expect(endOf(outcome)).toEqual(end('failed', 'failed', problem));
      expect(s.proxy.count(PAYMENT_CALLS.lookup)).toBeGreaterThanOrEqual(1);
      await expectConsistent(s, outcome);
    },
  );

  it('429 once with Retry-After: the create is sent again after the wait, and the sale goes through with one transaction', async () => {
    const s = await open({ retries: 2 });
    s.proxy.add({ ...PAYMENT_CALLS.create, action: 'status', status: 429, headers: { 'retry-after': '0' } });
    const params = sale();
    const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
    expect(endOf(outcome)).toEqual(APPROVED);
    expect(s.proxy.count(PAYMENT_CALLS.create)).toBe(2);
    expect(s.proxy.count(PAYMENT_CALLS.lookup)).toBe(0);
    await expectConsistent(s, outcome);
  });
});

describe('the provider refuses the authorization: each answer named for what it is, the pending transaction cancelled at once', () => {
  const ANSWERS = [
    // The client then blocks its calls for a cool-down (5 s): the cancel must get through anyway.
    { status: 401, problem: 'API_ACCESS_DENIED', says: /recusou o acesso do Pinbridge/ },
    { status: 403, problem: 'API_ACCESS_DENIED', says: /recusou o acesso do Pinbridge/ },
    { status: 409, problem: 'API_CONFLICT', says: /recusou a operação \(conflito/ },
    { status: 502, problem: 'API_ERROR', says: /respondeu com erro; nada foi cobrado/ },
    { status: 504, problem: 'API_ERROR', says: /respondeu com erro; nada foi cobrado/ },
  ] as const;

  it.each(
    named(
      ANSWERS,
      (a) => `${a.status} → failed (${a.problem}); the provider's record ends canceled, nothing left pending`,
    ),
  )('%s', async (_, { status, problem, says }) => {
    const s = await open();
    s.proxy.add({ ...PAYMENT_CALLS.authorize, action: 'status', status });
    const params = sale();
    const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
    expect(endOf(outcome)).toEqual(end('failed', 'failed', problem));
    expect(outcome.problem?.cashierMessage).toMatch(says);
    // Not the words of a request that never arrived, nor of a network that is down.
    expect(outcome.problem?.message).not.toMatch(/never reached|could not be reached/);
    expect(s.proxy.count(PAYMENT_CALLS.authorize)).toBe(1);
    expect(s.rig.engine.pending().undos).toEqual([]);
    // The provider's own record: cancelled, and no longer in the PINPAD's pending list.
    const transaction = await expectConsistent(s, outcome);
    expect(transaction?.status).toBe('canceled');
    const pending = await s.api.terminal.pendingTransactions(SERIAL);
    expect(pending.map((t) => t.id)).not.toContain(transaction?.id);
  });
});

describe('a provider with only the documented calls: no Idempotency-Key, no reference_id filter', () => {
  let documented: RunningSandbox;
  beforeAll(async () => {
    documented = await startSandbox({ settings: { idempotencyKeys: false, marketplaceTransactionList: false } });
  });
  afterAll(async () => {
    await documented.close();
  });
  const capabilities = { idempotencyKey: false, findByReference: false };

  it('sends a create whose answer was lost only once, even with client retries on, and finds it in the seller’s list', async () => {
    const s = await open({ sandbox: documented, capabilities, retries: 2 });
    s.proxy.add(fault('create', 'reset_after'));
    const params = sale();
    const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
    expect(endOf(outcome)).toEqual(APPROVED);
    const creates = s.proxy.requests(PAYMENT_CALLS.create);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.idempotencyKey).toBeUndefined();
    expect(s.proxy.count(PAYMENT_CALLS.lookup)).toBe(0);
    expect(s.proxy.count(SELLER_LIST)).toBeGreaterThanOrEqual(1);
    expect(await apiTransactions(s.api, params.referenceId, documented.sellerId)).toHaveLength(1);
  });

  it.each([502, 504] as const)(
    'answers a create the gateway forwarded and then failed with %i from the seller’s list: one transaction, the sale goes on',
    async (status) => {
      const s = await open({ sandbox: documented, capabilities, retries: 2 });
      s.proxy.add({ ...PAYMENT_CALLS.create, action: 'status_after', status });
      const params = sale();
      const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
      expect(endOf(outcome)).toEqual(APPROVED);
      expect(s.proxy.count(PAYMENT_CALLS.create)).toBe(1);
      const held = await apiTransactions(s.api, params.referenceId, documented.sellerId);
      expect(held.map((t) => t.status)).toEqual(['succeeded']);
    },
  );

  it('cancels at once the second transaction of a gateway that sent the create on twice, and sells on the oldest', async () => {
    const s = await open({ sandbox: documented, capabilities, retries: 2 });
    s.proxy.add({ ...PAYMENT_CALLS.create, action: 'status_after', status: 504, forwards: 2 });
    const params = sale();
    const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
    expect(endOf(outcome)).toEqual(APPROVED);
    const held = await apiTransactions(s.api, params.referenceId, documented.sellerId);
    expect(held.map((t) => t.status).sort()).toEqual(['canceled', 'succeeded']);
    const kept = held.find((t) => t.status === 'succeeded')!;
    const extra = held.find((t) => t.status === 'canceled')!;
    expect(outcome.transactionId).toBe(kept.id);
    // The oldest is kept (the id decides between two of the same second).
    const keptFirst =
      Date.parse(kept.created_at) < Date.parse(extra.created_at) ||
      (kept.created_at === extra.created_at && kept.id < extra.id);
    expect(keptFirst).toBe(true);
    // Cancelled before the card was read, not at a later start; the journal says so.
    const notes = s.rig.journal.events(outcome.paymentId).map((event) => event.note);
    const cancelled = notes.findIndex((note) => note.includes(`second transaction ${extra.id}`));
    expect(cancelled).toBeGreaterThanOrEqual(0);
    expect(cancelled).toBeLessThan(notes.findIndex((note) => note.startsWith('card read')));
  });

  it('ends the sale without sending the create again when the answer is lost and nothing was created', async () => {
    const s = await open({ sandbox: documented, capabilities, retries: 2 });
    s.proxy.add(fault('create', 'reset_before'));
    const params = sale();
    const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
    expect(endOf(outcome)).toEqual(NO_TRANSACTION);
    expect(s.proxy.count(PAYMENT_CALLS.create)).toBe(1);
    expect(await apiTransactions(s.api, params.referenceId, documented.sellerId)).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------
// The PINPAD unplugged at each step

/**
 * Runs `act` when the simulator receives the first packet of `command`, before it acknowledges
 * or answers it: the cable is pulled exactly while that step is in progress.
 */
function whenCommandArrives(pinpad: EnginePinpad, command: string, act: () => void): Promise<void> {
  return new Promise((resolve) => {
    const listener = (trace: { direction: string; kind: string; command?: string }): void => {
      if (trace.direction === 'in' && trace.kind === 'packet' && trace.command === command) {
        pinpad.deviceLink.off('trace', listener);
        act();
        resolve();
      }
    };
    pinpad.deviceLink.on('trace', listener);
  });
}

/** What the customer does before the cable goes: nothing (the step waits for them), or up to the step under test. */
type Customer = 'nothing' | 'inserts the card' | 'inserts the card and types the PIN' | 'does everything (automatic)';

interface UnplugCase {
  readonly step: string;
  readonly command: string;
  readonly sale: Partial<SaleRequest>;
  readonly customer: Customer;
  readonly ends: End;
  readonly api: Transaction['status'] | null;
  readonly authorizations: number;
}

/** The chip card's removal was not asked for yet when the cable goes: only the sale's end counts. */
const UNPLUGGED = end('failed', 'failed', 'PINPAD_DISCONNECTED');

const UNPLUGS: UnplugCase[] = [
  // Before any transaction: nothing at the API.
  {
    step: 'while the customer chooses the installments',
    command: 'MNU',
    sale: { amount: centavos(30000), installments: undefined },
    customer: 'nothing',
    ends: UNPLUGGED,
    api: null,
    authorizations: 0,
  },
  {
    step: 'while the customer types the CPF',
    command: 'GCD',
    sale: { askTaxId: true },
    customer: 'nothing',
    ends: UNPLUGGED,
    api: null,
    authorizations: 0,
  },
  // The pending transaction exists: it is cancelled.
  {
    step: 'while the PINPAD waits for the card',
    command: 'GCX',
    sale: {},
    customer: 'nothing',
    ends: UNPLUGGED,
    api: 'canceled',
    authorizations: 0,
  },
  {
    step: 'at the PIN',
    command: 'GOX',
    sale: {},
    customer: 'inserts the card',
    ends: UNPLUGGED,
    api: 'canceled',
    authorizations: 0,
  },
  // Approved by the issuer, but the card never heard it: reversed, nothing charged.
  {
    step: 'after the approval, before the chip’s final word',
    command: 'FCX',
    sale: {},
    customer: 'does everything (automatic)',
    ends: end('failed', 'reversed', 'PINPAD_DISCONNECTED'),
    api: 'reversed',
    authorizations: 1,
  },
  // The chip accepted and the API was told: the sale stands.
  {
    step: 'while the card is removed after the sale completed',
    command: 'RMC',
    sale: {},
    customer: 'inserts the card and types the PIN',
    ends: APPROVED,
    api: 'succeeded',
    authorizations: 1,
  },
];

/** Types the PIN when the PINPAD asks for it. */
function typePinWhenAsked(pinpad: EnginePinpad): Promise<void> {
  return new Promise((resolve) => {
    const typePin = ({ lines }: { lines: readonly string[] }): void => {
      if (!/SENHA/.test(lines.join('\n'))) return;
      pinpad.sim.off('display', typePin);
      pinpad.sim.keypad.type('1234');
      pinpad.sim.keypad.press('enter');
      resolve();
    };
    pinpad.sim.on('display', typePin);
  });
}

describe('the PINPAD unplugged at each step', () => {
  it.each(named(UNPLUGS, (c) => `${c.step} (${c.command}): ends ${said(c.ends)}; ${apiSaid(c.api)}`))(
    '%s',
    async (_, c) => {
      const s = await open({
        auto: c.customer === 'does everything (automatic)' ? { delayMs: 5, card: 'visaCredit' } : null,
      });
      const { pinpad } = s;
      const params = sale(c.sale);
      // Pulled the moment the step's command reaches the PINPAD, before it is acknowledged.
      const unplugged = whenCommandArrives(pinpad, c.command, () => pinpad.link.unplug());
      if (c.customer === 'inserts the card' || c.customer === 'inserts the card and types the PIN')
        pinpad.sim.insertCard('visaCredit');
      const pinTyped = c.customer === 'inserts the card and types the PIN' ? typePinWhenAsked(pinpad) : undefined;
      const running = s.rig.engine.start(params);
      if (pinTyped) await settledWithin(pinTyped, 'the PIN prompt');
      await settledWithin(unplugged, `the ${c.command} step`);
      const outcome = await settledWithin(running, 'the payment');

      expect(endOf(outcome)).toEqual(c.ends);
      const transaction = await expectConsistent(s, outcome);
      expect(transaction?.status ?? null).toBe(c.api);
      expect(s.proxy.count(PAYMENT_CALLS.authorize)).toBe(c.authorizations);
      if (c.api === null) expect(s.proxy.count(PAYMENT_CALLS.create)).toBe(0);
      if (c.api === 'succeeded') expect(completions(transaction!)).toBe(1);
      // The dead run does not keep the PINPAD reserved.
      expect(s.rig.engine.terminals()).toEqual([{ serial: SERIAL, busy: false, payment: null }]);
    },
  );
});

// ------------------------------------------------------------------------------------------------
// Noise on the PINPAD's line

/** Each step of a sale with installments and CPF on the keypad, by the command that runs it. */
const STEPS = [
  ['the installments menu', 'MNU'],
  ['the CPF', 'GCD'],
  ['the amount on the display', 'DSP'],
  ['the card read', 'GCX'],
  ['the PIN', 'GOX'],
  ['the chip’s final word', 'FCX'],
  ['the card removal', 'RMC'],
] as const;

type Noise = 'two NAKs' | 'two corrupted responses';

const NOISY: Array<{ step: string; command: string; noise: Noise }> = STEPS.flatMap(([step, command]) =>
  (['two NAKs', 'two corrupted responses'] as const).map((noise) => ({ step, command, noise })),
);

const noisySale = (): ReturnType<typeof sale> =>
  sale({ amount: centavos(30000), installments: undefined, askTaxId: true });
const CUSTOMER: AutoCustomerOptions = { delayMs: 5, card: 'visaCredit', keys: '3', cpf: '52998224725' };

/** Counts the link-layer traffic the simulator sees (its NAKs out, the host's NAKs in). */
function countTraces(pinpad: EnginePinpad): { naksSent: number; naksReceived: number } {
  const counts = { naksSent: 0, naksReceived: 0 };
  pinpad.deviceLink.on('trace', (trace) => {
    if (trace.kind !== 'nak') return;
    if (trace.direction === 'out') counts.naksSent++;
    else counts.naksReceived++;
  });
  return counts;
}

describe('noise on the PINPAD line', () => {
  it.each(
    named(NOISY, (c) => `${c.noise} at ${c.step} (${c.command}): the link layer recovers; approved exactly once`),
  )('%s', async (_, { command, noise }) => {
    const s = await open({ auto: CUSTOMER });
    const { pinpad } = s;
    const traffic = countTraces(pinpad);
    const faults = pinpad.deviceLink.faults;
    // Armed when the step's command reaches the PINPAD, so the noise hits that step's exchange.
    const hit = whenCommandArrives(pinpad, command, () => {
      if (noise === 'two NAKs') faults.nakNext(2);
      else faults.corruptNextResponses(2);
    });
    const params = noisySale();
    const outcome = await settledWithin(s.rig.engine.start(params), 'the payment');
    await hit;

    expect(outcome).toMatchObject({
      status: 'approved',
      state: 'confirmed',
      installments: 3,
      customerTaxId: '52998224725',
    });
    // The noise happened and the link layer asked again: the PINPAD's NAKs, or the host's for the
    // corrupted frames (two corrupted frames in a row may be purged together and cost one NAK).
    if (noise === 'two NAKs') expect(traffic.naksSent).toBe(2);
    else expect(traffic.naksReceived).toBeGreaterThanOrEqual(1);
    const transaction = await expectConsistent(s, outcome);
    expect(transaction).toMatchObject({ status: 'succeeded' });
    expect(authorizations(transaction!)).toBe(1);
    expect(s.proxy.count(PAYMENT_CALLS.authorize)).toBe(1);
    expect(s.proxy.count(PAYMENT_CALLS.create)).toBe(1);
  });

  /**
   * A lost ACK is not retried by the host (abecs.md §1.6: no ACK within the wait → abort; a
   * packet before the ACK is taken as stale), so the step fails. The payment must still end in a
   * defined state, never charged without the chip's yes, and never authorized twice.
   */
  const DROPPED_ACK: Array<{ step: string; command: string; ends: End; api: Transaction['status'] | null }> = [
    { step: 'the installments menu', command: 'MNU', ends: end('failed', 'failed', 'PINPAD_ERROR'), api: null },
    { step: 'the CPF', command: 'GCD', ends: end('failed', 'failed', 'PINPAD_ERROR'), api: null },
    {
      step: 'the amount on the display',
      command: 'DSP',
      ends: end('failed', 'failed', 'PINPAD_ERROR'),
      api: 'canceled',
    },
    { step: 'the card read', command: 'GCX', ends: end('failed', 'failed', 'PINPAD_ERROR'), api: 'canceled' },
    { step: 'the PIN', command: 'GOX', ends: end('failed', 'failed', 'PINPAD_ERROR'), api: 'canceled' },
    { step: 'the chip’s final word', command: 'FCX', ends: end('failed', 'reversed', 'PINPAD_ERROR'), api: 'reversed' },
    { step: 'the card removal', command: 'RMC', ends: APPROVED, api: 'succeeded' },
  ];

  it.each(named(DROPPED_ACK, (c) => `a lost ACK at ${c.step} (${c.command}): ends ${said(c.ends)}; ${apiSaid(c.api)}`))(
    '%s',
    async (_, { command, ends, api }) => {
      const s = await open({ auto: CUSTOMER, pinpadTimings: SHORT_ACK_WAIT });
      const { pinpad } = s;
      const hit = whenCommandArrives(pinpad, command, () => pinpad.deviceLink.faults.dropAcks(1));
      const outcome = await settledWithin(s.rig.engine.start(noisySale()), 'the payment');
      await hit;

      expect(endOf(outcome)).toEqual(ends);
      const transaction = await expectConsistent(s, outcome);
      expect(transaction?.status ?? null).toBe(api);
      expect(s.proxy.count(PAYMENT_CALLS.authorize)).toBeLessThanOrEqual(1);
    },
  );
});
