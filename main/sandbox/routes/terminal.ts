/**
 * The terminal channel: how a PINPAD agent completes the pinpad transactions created pending
 * (docs/terminal-channel.md). The agent polls its pending list, sends the card's authorization
 * request, reports the chip's final decision, and can reverse or void. Outcomes are
 * deterministic (payments/outcomes.ts), so every path can be tested.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  EmvTablesAnswer,
  EmvTablesQuery,
  ErrorA,
  ListQuery,
  TerminalAuthorizationRequest,
  TerminalAuthorizationResult,
  TerminalCompletionRequest,
  TerminalReversalRequest,
  TerminalAuthorizationRequestV2,
  TerminalAuthorizationResultV2,
  Transaction,
  TransactionList,
  VoidRequest,
} from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import type { SandboxContext } from '../context.js';
import { AUTH_ERRORS, badRequest, conflict, notFound } from '../errors.js';
import { idempotent, markReplay } from '../idempotency.js';
import { authorizationAnswer, authorize } from '../payments/authorization.js';
import { changeTransaction } from '../payments/change.js';
import type { Transition } from '../payments/transitions.js';
import { AMOUNT_ENDINGS, DECLINES, decideOutcome, TEST_CARDS, type Outcome } from '../payments/outcomes.js';
import { openCardPresent, SANDBOX_PIN, type DukptUse } from '../payments/card-present.js';
import { completeAccepted, reverse, unchanged, voidTransaction } from '../payments/transitions.js';
import { servedTables } from '../payments/emv-tables.js';
import { acceptKsn } from '../store/dukpt-counters.js';
import { listTransactions, type TransactionRecord } from '../store/transactions.js';
import { transactionListView, transactionView } from '../views/transaction.js';
import { requestPath, TransactionParams } from './transactions.js';

const TerminalParams = Type.Object({
  marketplace_id: Type.String(),
  terminal: Type.String({ minLength: 1, maxLength: 64 }),
});

const endings = [...AMOUNT_ENDINGS.entries()]
  .map(
    ([ending, outcome]) =>
      `${String(ending).padStart(2, '0')} → ${outcome.kind === 'declined' ? `${outcome.decline.code} (${outcome.decline.responseCode})` : 'approved, answer held (slow)'}`,
  )
  .join('; ');
const cards = [...TEST_CARDS.entries()]
  .map(([key, decline]) => `${key.slice(0, 6)}…${key.slice(6)} → ${decline.code} (${decline.responseCode})`)
  .join('; ');

/** The transaction must be a PINPAD one of this terminal (the channel speaks for PINPADs only). */
function checkTerminal(record: TransactionRecord, terminal: string): void {
  if (record.payment_locale === 'tap_to_pay') {
    throw badRequest('Tap-to-pay transactions are completed on the phone, not through the terminal channel');
  }
  if (record.payment_locale !== 'pinpad') throw badRequest('Only PINPAD transactions go through the terminal channel');
  if (record.terminal !== terminal) throw badRequest('Terminal does not match the transaction');
}

/**
 * Answers held back by the "slow" amount. They are released early when the sandbox closes (with
 * `Connection: close`, so the kept-alive socket does not hold the close up either).
 */
function createHolds(): { hold(ms: number): Promise<'elapsed' | 'closing'>; releaseAll(): void } {
  const pending = new Set<() => void>();
  return {
    hold: (ms) =>
      new Promise<'elapsed' | 'closing'>((resolve) => {
        const finish = (why: 'elapsed' | 'closing'): void => {
          clearTimeout(timer);
          pending.delete(release);
          resolve(why);
        };
        const release = (): void => finish('closing');
        const timer = setTimeout(() => finish('elapsed'), ms);
        pending.add(release);
      }),
    releaseAll: () => {
      for (const release of [...pending]) release();
    },
  };
}

/** What an authorization request says once the sandbox has read it: the card it may keep, how it was read, the outcome. */
interface ReadRequest {
  readonly card: { brand: string; first6: string; last4: string; holderName?: string | undefined };
  readonly entryMode: TerminalAuthorizationRequest['entry_mode'];
  readonly outcome: Outcome;
  /** v2: the DUKPT KSNs it used, which must advance (checked when the authorization is decided). */
  readonly dukpt?: readonly DukptUse[];
}

/**
 * Refuses (400) a KSN whose counter is not above the last one accepted for its DUKPT key, and
 * records the others — in the transaction that decides the authorization, so a request refused
 * for any reason records nothing. A repeat of a decided authorization is answered before this.
 */
function checkKsnsAdvance(ctx: SandboxContext, uses: readonly DukptUse[], transactionId: string): void {
  for (const use of uses) {
    const replayed = acceptKsn(ctx.db, { kind: use.kind, ksn: use.ksn, transactionId }, ctx.now());
    if (replayed !== undefined) {
      // The counters, not the KSN: a detail may be logged by the terminal, and the key serial is the terminal's secret to keep.
      throw badRequest(
        `Field ${use.field} is a replayed KSN: its counter ${replayed.counter} is not above ${replayed.last}, the last this DUKPT key used`,
      );
    }
  }
}

function authorizeForTerminal(
  ctx: SandboxContext,
  marketplaceId: string,
  transactionId: string,
  terminal: string,
  read: (record: TransactionRecord) => ReadRequest,
): { record: TransactionRecord; slow: boolean } {
  let slow = false;
  const transition = changeTransaction(ctx, marketplaceId, transactionId, (record) => {
    checkTerminal(record, terminal);
    // Read and checked first: a malformed request is the terminal's mistake, whatever the state.
    const request = read(record);
    if (record.status !== 'pending') {
      // Already decided: the same answer again, never a second decision.
      if (authorizationAnswer(record)) return unchanged(record);
      throw conflict('Transaction is not pending');
    }
    if (ctx.settings.refuseReplayedKsn) checkKsnsAdvance(ctx, request.dukpt ?? [], record.id);
    slow = request.outcome.kind === 'approved_slow';
    return authorize(
      ctx.db,
      record,
      { card: request.card, entryMode: request.entryMode, outcome: request.outcome },
      ctx.now(),
    );
  });
  return { record: transition.record, slow: slow && transition.changed };
}

/** v1: the card as brand and masked digits; the outcome from the test card table and the amount. */
const readV1 =
  (body: TerminalAuthorizationRequest) =>
  (record: TransactionRecord): ReadRequest => ({
    card: {
      brand: body.card.brand,
      first6: body.card.first6_digits,
      last4: body.card.last4_digits,
      holderName: body.card.holder_name,
    },
    entryMode: body.entry_mode,
    outcome: decideOutcome({
      amountCentavos: record.amount,
      first6: body.card.first6_digits,
      last4: body.card.last4_digits,
    }),
  });

/** v2: every field checked and the sealed data opened (card-present.ts); a wrong PIN is the issuer's 55. */
const readV2 =
  (body: TerminalAuthorizationRequestV2) =>
  (record: TransactionRecord): ReadRequest => {
    const opened = openCardPresent(body, record.amount);
    const card = { brand: body.card.brand, first6: body.card.first6_digits, last4: body.card.last4_digits };
    const outcome: Outcome =
      opened.pinMatches === false
        ? { kind: 'declined', decline: DECLINES.incorrect_pin }
        : decideOutcome({
            amountCentavos: record.amount,
            first6: body.card.first6_digits,
            last4: body.card.last4_digits,
          });
    return { card, entryMode: body.entry_mode, outcome, dukpt: opened.dukpt };
  };

export const registerTerminalRoutes: RouteRegistrar = (app, ctx) => {
  const holds = createHolds();
  app.addHook('preClose', (done) => {
    holds.releaseAll();
    done();
  });

  app.get(
    '/v1/marketplaces/:marketplace_id/terminals/:terminal/pending_transactions',
    {
      schema: {
        tags: ['terminal channel'],
        operationId: 'listPendingTerminalTransactions',
        summary: 'Pending PINPAD transactions of a terminal, oldest first',
        description:
          'What the PINPAD with this serial number has to do: its pinpad transactions still `pending` (not yet authorized, ' +
          'voided or reversed), oldest first. Poll it; an empty list means nothing to do.',
        params: TerminalParams,
        querystring: ListQuery,
        response: { 200: TransactionList, 400: ErrorA, ...AUTH_ERRORS.A },
      },
    },
    async (request, reply) => {
      const { limit = 100, offset = 0 } = request.query;
      const page = listTransactions(
        ctx.db,
        request.marketplaceId,
        { terminal: request.params.terminal, status: 'pending', payment_locale: 'pinpad' },
        { limit, offset, order: 'oldest_first' },
      );
      return reply.send(transactionListView(ctx, page, { path: requestPath(request.url), limit, offset }));
    },
  );

  app.get(
    '/v1/marketplaces/:marketplace_id/terminals/:terminal/emv_tables',
    {
      schema: {
        tags: ['terminal channel'],
        operationId: 'getTerminalEmvTables',
        summary: "The EMV tables (AIDs, CAPKs, key methods) this terminal's PINPAD loads",
        description:
          'The AID and CAPK records of the acquirers this terminal sells through, versioned (the PINPAD stores the version ' +
          'per acquirer as PP_TABVERnn and is loaded only when it differs), with the application types of credit and debit ' +
          "and the key methods each acquirer's host opens (DUKPT slots, MK/WK master key slots with the working keys it " +
          'issues, the random-key RSA public key, in its order of preference): the same document as a tables file ' +
          '(docs/pinpads.md). With ' +
          '`known_version` equal to the current version the answer is `{changed: false}` without the tables. 404 when the ' +
          'provider serves no tables for this terminal (the PINPAD keeps its own). The sandbox serves payment-scheme TEST ' +
          'keys and AIDs for acquirer 02, with every key method it opens under its published test keys ' +
          '(docs/emv-tables.sample.json), replaceable per marketplace with ' +
          '`PUT /v1/sandbox/marketplaces/{mid}/emv_tables`.',
        params: TerminalParams,
        querystring: EmvTablesQuery,
        response: { 200: EmvTablesAnswer, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA },
      },
    },
    (request) => {
      const tables = servedTables(ctx, request.marketplaceId);
      if (tables === null) throw notFound(`No EMV tables are served for terminal ${request.params.terminal}`);
      if (request.query.known_version === tables.version) return { version: tables.version, changed: false };
      return { version: tables.version, changed: true, tables };
    },
  );

  app.post(
    '/v1/marketplaces/:marketplace_id/transactions/:transaction_id/authorization',
    {
      schema: {
        tags: ['terminal channel'],
        operationId: 'authorizeTerminalTransaction',
        summary:
          'Authorize a pending PINPAD transaction with the card read by the terminal (v1; v2 carries what a host needs)',
        deprecated: true,
        description:
          'Only for a `pending` pinpad transaction of this terminal (another terminal: 400; tap to pay: 400; not pending: ' +
          '409). The outcome is deterministic. Test cards (first 6 … last 4 digits) decide first: ' +
          `${cards}. Otherwise the last two digits of the amount in centavos: ${endings}; anything else is approved. ` +
          'Approved: status `succeeded`, captured, authorization code and NSU, `transaction.succeeded` webhook. Declined: ' +
          'status `failed` with `error`, `transaction.failed` webhook. The slow ending (96) is approved and stored at once ' +
          'but the answer is held for `slowAuthorizationDelayMs`, so a client that times out must learn the outcome by ' +
          'GET. Repeating the authorization of a decided transaction returns the same result (no second decision). ' +
          'issuer_emv_data is BER-TLV for the second GENERATE AC: 8A (response code) and, when approved, 91 (issuer ' +
          'authentication data). Only brand, first 6 / last 4 digits, holder name and entry mode are kept: ' +
          'encrypted_card_data, pin_block and emv_data are never stored.',
        params: TransactionParams,
        body: TerminalAuthorizationRequest,
        response: { 200: TerminalAuthorizationResult, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.entry_mode === 'barcode') throw badRequest('Field entry_mode must be a card entry mode');
      const { record, slow } = authorizeForTerminal(
        ctx,
        request.marketplaceId,
        request.params.transaction_id,
        body.terminal,
        readV1(body),
      );
      return answerAuthorization(record, slow, reply);
    },
  );

  app.post(
    '/v2/marketplaces/:marketplace_id/transactions/:transaction_id/authorization',
    {
      schema: {
        tags: ['terminal channel'],
        operationId: 'authorizeTerminalTransactionV2',
        summary: 'Authorize a pending PINPAD transaction with the card data the PINPAD sealed (terminal channel v2)',
        description:
          'What an acquirer host needs, checked field by field (400 naming the field otherwise): pos_entry_mode (ISO 8583 ' +
          'field 22) agreeing with entry_mode; for chip and contactless chip the first GENERATE AC in emv_data — an ARQC ' +
          '(9F27 = 80) for the transaction amount (9F02) in BRL (5F2A = 0986) with 9F26, 9F10, 9F37, 9F36, 95, 9A, 9C, 82, ' +
          '9F1A and never 5A, 57 or 5F20; encrypted_card_data, the track 2 (or PAN) the PINPAD sealed, opened by its method ' +
          '(dukpt_tdes_ecb: the DUKPT data key of its KSN; mkwk_tdes_ecb: the working key issued for its data master key ' +
          'slot; random_key_tdes_ecb: the random key in encrypted_key, under the RSA key key_id names), which must be the ' +
          'card named by first6_digits / last4_digits / pan_length / expiration; with cardholder_verification online_pin ' +
          '(and only then) pin_block, an ISO 9564 format 0 block under the DUKPT PIN key of its KSN (method dukpt, or ' +
          'absent) or the PIN working key issued for its master key slot (method mkwk). The sandbox holds published test ' +
          'keys only: the ANSI X9.24 test BDK (0123456789ABCDEFFEDCBA9876543210), the working keys its EMV tables issue ' +
          "under Pinbridge's test master keys (a working key it did not issue is refused) and its test RSA key " +
          `(docs/terminal-channel.md). Each DUKPT key's counter must advance: a KSN not above the last one it accepted for ` +
          `that key is refused (a replay). Every test card's PIN is ${SANDBOX_PIN}: another PIN is declined with 55 ` +
          `(incorrect_pin). Then the outcome is decided as in v1 (test cards, then the amount's last two digits: ` +
          `${endings}). Repeating the authorization of a decided transaction returns the same result. Only brand, first ` +
          '6 / last 4 digits and entry mode are kept.',
        params: TransactionParams,
        body: TerminalAuthorizationRequestV2,
        response: { 200: TerminalAuthorizationResultV2, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { record, slow } = authorizeForTerminal(
        ctx,
        request.marketplaceId,
        request.params.transaction_id,
        body.terminal.serial_number,
        readV2(body),
      );
      return answerAuthorization(record, slow, reply);
    },
  );

  /** The decision as the terminal is told it; the slow test amount holds it back first. */
  async function answerAuthorization(
    record: TransactionRecord,
    slow: boolean,
    reply: FastifyReply,
  ): Promise<TerminalAuthorizationResultV2> {
    const answer = authorizationAnswer(record);
    if (!answer) throw new Error('an authorized transaction has no authorization entry');
    if (slow && (await holds.hold(ctx.settings.slowAuthorizationDelayMs)) === 'closing') {
      void reply.header('connection', 'close');
    }
    return { ...answer, transaction: transactionView(ctx, record) };
  }

  app.post(
    '/v1/marketplaces/:marketplace_id/transactions/:transaction_id/completion',
    {
      schema: {
        tags: ['terminal channel'],
        operationId: 'completeTerminalTransaction',
        summary: "Report the chip's final decision (second GENERATE AC) for an authorized PINPAD transaction",
        description:
          '`accepted` on a succeeded transaction records a `completion` history entry (once) and changes nothing else. ' +
          '`refused` on a succeeded transaction reverses it (status `reversed`, history `reversal`, webhook ' +
          '`transaction.reversed` with reason `chip_refused`). On a failed transaction either result changes nothing. A ' +
          'pending transaction is 409 (authorize first); `accepted` on a reversed or canceled one is 409.',
        params: TransactionParams,
        body: TerminalCompletionRequest,
        response: { 200: Transaction, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA },
      },
    },
    async (request, reply) => {
      const { terminal, chip_result: chipResult } = request.body;
      return answerChange(ctx, request, reply, request.params.transaction_id, (record) => {
        checkTerminal(record, terminal);
        if (chipResult === 'accepted') return completeAccepted(record, ctx.now());
        if (record.status === 'pending') throw conflict('Transaction has not been authorized yet');
        return reverse(record, 'chip_refused', ctx.now());
      });
    },
  );

  app.post(
    '/v1/marketplaces/:marketplace_id/transactions/:transaction_id/reversal',
    {
      schema: {
        tags: ['terminal channel'],
        operationId: 'reverseTerminalTransaction',
        summary:
          'Reverse a PINPAD transaction (technical undo: timeout, lost answer, chip refusal, cancel on the terminal)',
        description:
          'succeeded → `reversed` (webhook `transaction.reversed`); pending → `canceled`, since nothing was authorized ' +
          '(webhook `transaction.canceled`); already reversed, canceled or failed → unchanged, 200 (safe to repeat).',
        params: TransactionParams,
        body: TerminalReversalRequest,
        response: { 200: Transaction, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA },
      },
    },
    async (request, reply) => {
      const { terminal, reason } = request.body;
      return answerChange(ctx, request, reply, request.params.transaction_id, (record) => {
        checkTerminal(record, terminal);
        return reverse(record, reason, ctx.now());
      });
    },
  );

  app.post(
    '/v1/marketplaces/:marketplace_id/transactions/:transaction_id/void',
    {
      schema: {
        tags: ['transactions', 'terminal channel'],
        operationId: 'voidTransaction',
        summary: 'Void a card transaction (pending or approved), fully or partially',
        description:
          "The service family's void. on_behalf_of must be the transaction's seller. Without amount (or with the whole " +
          'remaining amount) a pending or succeeded card transaction becomes `canceled`, `voided: true`, `voided_at`, ' +
          'history `void`, webhook `transaction.canceled`. A smaller amount is a partial void, for captured credit only: ' +
          '`amount` drops, `original_amount` stays, the status stays `succeeded`. Already canceled: unchanged, 200. Failed ' +
          'or reversed: 409. Boleto: 400 (use the boleto cancellation endpoint).',
        params: TransactionParams,
        body: VoidRequest,
        response: { 200: Transaction, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA },
      },
    },
    async (request, reply) => {
      const { on_behalf_of: seller, amount } = request.body;
      return answerChange(ctx, request, reply, request.params.transaction_id, (record) => {
        if (record.on_behalf_of !== seller)
          throw badRequest("Field on_behalf_of does not match the transaction's seller");
        return voidTransaction(record, amount, ctx.now());
      });
    },
  );
};

/**
 * Applies a state change to the transaction once per Idempotency-Key (a retried partial void
 * must not void twice) and answers the transaction; a replay answers the first result.
 */
function answerChange(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  transactionId: string,
  decide: (record: TransactionRecord) => Transition,
): FastifyReply {
  const result = idempotent(ctx, request, () => ({
    statusCode: 200,
    body: changeTransaction(ctx, request.marketplaceId, transactionId, decide).record,
  }));
  return markReplay(reply, result).send(transactionView(ctx, result.body));
}
