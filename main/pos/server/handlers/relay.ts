/**
 * The rest of the payments API, relayed with Pinbridge's own credentials and seller, so a POS
 * needs only Pinbridge and never holds an API token: buyers (with a CPF the customer may type
 * on the PINPAD), the seller's bank accounts, boletos and bolepix (their slips printed on the
 * receipt printer), and tap-to-pay charges followed until the phone completes them. Inputs are
 * the method's schema here and the contract's rules again in the API client.
 */
import { InvalidRequestError, isPending, type Transaction } from '../../../api/index.js';
import { createdAtMs } from '../../../contract/index.js';
import { isValidCnpj, isValidCpf } from '../../../validation/taxpayer-id.js';
import { PosError, type PrintJobView, type RelayTransaction } from '../../protocol/index.js';
import type { CallContext, Handlers } from '../dispatch.js';
import { invalidParamsFromApiClient, type FieldRename } from '../errors.js';
import { printJobView, relayTransactionView } from '../views.js';

/** How long a tap-to-pay charge is followed for its tapToPay.updated event. */
const TAP_TO_PAY_WATCH_MS = 15 * 60_000;

function printSlip(
  context: CallContext,
  transaction: RelayTransaction,
  print: boolean | undefined,
  source: Parameters<NonNullable<CallContext['agent']['receipts']>['printBoletoSlip']>[0],
): PrintJobView[] {
  if (print !== true) return [];
  const receipts = context.agent.receipts;
  if (receipts === undefined)
    throw new PosError(
      'PRINTING_OFF',
      `Boleto ${transaction.id} was issued, but receipts are off: it was not printed.`,
    );
  return [printJobView(receipts.printBoletoSlip(source))];
}

/** Follows a tap-to-pay charge in the background and tells its creator when the phone is done. */
function watchTapToPay(context: CallContext, transactionId: string): void {
  const { agent, hub, log } = context;
  // The window (no client of its own) follows a charge with tapToPay.status instead.
  const creator = context.session.client?.id;
  if (creator === undefined) return;
  hub.ownTapToPay(transactionId, creator);
  agent.api.tapToPay
    .waitForCompletion(transactionId, { timeoutMs: TAP_TO_PAY_WATCH_MS, signal: hub.stopping })
    .then((transaction) => {
      const owner = hub.releaseTapToPay(transactionId);
      // No owner: another follower of the same charge (a repeated create) told its creator already.
      if (owner !== undefined) hub.publish('tapToPay.updated', relayTransactionView(transaction), owner);
    })
    .catch((error: unknown) => {
      hub.releaseTapToPay(transactionId);
      if (!hub.stopping.aborted)
        log.warn(
          { transaction: transactionId, err: error instanceof Error ? error.message : String(error) },
          'stopped following a tap-to-pay charge',
        );
    });
}

/**
 * Runs a relayed call; a refusal of the API client (before anything is sent) names the POS's
 * parameters, which `renames` maps from the API's fields where the method flattens or renames them.
 */
async function relayed<T>(call: () => Promise<T>, renames: readonly FieldRename[] = []): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof InvalidRequestError) throw invalidParamsFromApiClient(error, renames);
    throw error;
  }
}

/** How far back a repeated creation is looked for by its reference_id (createOnce). */
const REPEAT_WINDOW_MS = 24 * 3_600_000;

/**
 * A relayed creation, idempotent by reference_id as the POS API promises. Where the provider
 * honours Idempotency-Key (settings api.capabilities) its key does it. Anywhere else the seller's
 * transactions of the last day are asked first, so a POS that repeats a creation whose answer it
 * lost gets the first boleto or charge back rather than a second one; the same reference for
 * another amount is REFERENCE_CONFLICT, as the provider's 409 would be.
 */
async function createOnce(
  context: CallContext,
  wanted: { readonly referenceId: string; readonly amount: number; readonly kind: (t: Transaction) => boolean },
  create: () => Promise<Transaction>,
): Promise<Transaction> {
  const { api, sellerId } = context.agent;
  if (api.capabilities.idempotencyKey) return create();
  const found = await api.transactions.listByReference(wanted.referenceId, {
    sellerId,
    createdAfter: new Date(Date.now() - REPEAT_WINDOW_MS).toISOString(),
  });
  // The first created, by its created_at: whichever list answered (the seller's is newest first,
  // the marketplace's reference filter promises no order).
  const first = found
    .filter((t) => t.reference_id === wanted.referenceId && wanted.kind(t))
    .sort((a, b) => createdAtMs(a) - createdAtMs(b))[0];
  if (first === undefined) return create();
  if (first.original_amount !== wanted.amount) {
    // Not which transaction, nor its amount: the seller's transactions are every POS's.
    throw new PosError(
      'REFERENCE_CONFLICT',
      `reference_id "${wanted.referenceId}" was used before for a transaction of another amount: use a new reference_id`,
    );
  }
  return first;
}

/** boleto.create's parameters flatten payment_method: its members are top-level params. */
const BOLETO_RENAMES: readonly FieldRename[] = [['payment_method', '']];
/** buyer.update's changes are the API body. */
const BUYER_UPDATE_RENAMES: readonly FieldRename[] = [['', 'changes']];
/** tapToPay.create's installments is the API's installment plan. */
const TAP_TO_PAY_RENAMES: readonly FieldRename[] = [
  ['installment_plan.number_installments', 'installments'],
  ['installment_plan', 'installments'],
];

/** How many times the customer may type a CPF/CNPJ whose check digits are wrong before the search gives up. */
export const TAX_ID_ATTEMPTS = 3;

/** What the PINPAD shows (two lines of ≤ 16, its own unaccented charset) before asking again. */
export const TAX_ID_RETYPE_MESSAGES = {
  cpf: 'CPF INVALIDO\nDIGITE NOVAMENTE',
  cnpj: 'CNPJ INVALIDO\nDIGITE NOVAMENTE',
} as const;

/**
 * A CPF or CNPJ typed by the customer. A typo (wrong check digits) is the customer's to fix, not
 * the POS's: the PINPAD says so and asks again (under its "REDIGITE" prompt), up to
 * TAX_ID_ATTEMPTS times; only then does the POS hear of it (CUSTOMER_DATA_INVALID).
 */
async function readTaxIdOnPinpad(
  context: CallContext,
  kind: 'cpf' | 'cnpj',
  terminal: string | undefined,
  timeoutSeconds: number | undefined,
): Promise<string> {
  const valid = kind === 'cpf' ? isValidCpf : isValidCnpj;
  const read = await context.agent.pinpads.readCustomerDataChecked(
    terminal,
    kind,
    (value) => (valid(value) ? undefined : TAX_ID_RETYPE_MESSAGES[kind]),
    {
      attempts: TAX_ID_ATTEMPTS,
      againKind: kind === 'cpf' ? 'cpfAgain' : 'cnpjAgain',
      signal: context.session.ended,
      ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    },
  );
  if (read.accepted) return read.value;
  const name = kind === 'cpf' ? 'CPF' : 'CNPJ';
  throw new PosError(
    'CUSTOMER_DATA_INVALID',
    `The customer typed a ${name} with wrong check digits ${read.attempts} times on the PINPAD; nothing was searched.`,
    { reason: 'INVALID_CHECK_DIGITS' },
    `${name} inválido digitado ${read.attempts} vezes no PINPAD. Peça o documento ao cliente.`,
  );
}

export const relayHandlers: Handlers<
  | 'buyer.get'
  | 'buyer.update'
  | 'buyer.search'
  | 'bankAccount.get'
  | 'bankAccount.list'
  | 'boleto.create'
  | 'bolepix.create'
  | 'boleto.cancel'
  | 'tapToPay.create'
  | 'tapToPay.status'
> = {
  'buyer.get': ({ buyer_id }, { agent }) => agent.api.buyers.retrieve(buyer_id),

  'buyer.update': ({ buyer_id, changes }, { agent }) =>
    relayed(() => agent.api.buyers.update(buyer_id, changes), BUYER_UPDATE_RENAMES),

  'buyer.search': async ({ taxpayer_id, ein, from_pinpad, terminal, timeout_s }, context) => {
    const { agent } = context;
    const given = [taxpayer_id, ein, from_pinpad].filter((value) => value !== undefined).length;
    if (given !== 1) {
      throw new PosError('INVALID_PARAMS', 'Give exactly one of taxpayer_id, ein or from_pinpad.', {
        violations: [{ field: '', message: 'Give exactly one of taxpayer_id, ein or from_pinpad' }],
      });
    }
    let searched: { taxpayer_id: string } | { ein: string };
    if (from_pinpad !== undefined) {
      const typed = await readTaxIdOnPinpad(context, from_pinpad, terminal, timeout_s);
      searched = from_pinpad === 'cpf' ? { taxpayer_id: typed } : { ein: typed };
    } else {
      searched = taxpayer_id !== undefined ? { taxpayer_id } : { ein: ein! };
    }
    const buyer = await agent.api.buyers.search(searched);
    return { buyer, searched };
  },

  'bankAccount.get': ({ bank_account_id }, { agent }) => agent.api.bankAccounts.retrieve(bank_account_id),

  'bankAccount.list': async ({ limit, offset }, { agent }) => {
    const page = await agent.api.bankAccounts.list(agent.sellerId, {
      ...(limit === undefined ? {} : { limit }),
      ...(offset === undefined ? {} : { offset }),
    });
    return {
      resource: page.resource,
      uri: page.uri,
      items: [...page.items],
      has_more: page.has_more,
      limit: page.limit,
      offset: page.offset,
      total: page.total,
    };
  },

  'boleto.create': async (params, context) => {
    const { print, expiration_date, payment_limit_date, body_instructions, billing_instructions, buyer, ...body } =
      params;
    const paymentMethod = {
      ...(buyer === undefined ? {} : { buyer }),
      ...(billing_instructions === undefined ? {} : { billing_instructions }),
      ...(expiration_date === undefined ? {} : { expiration_date }),
      ...(payment_limit_date === undefined ? {} : { payment_limit_date }),
      ...(body_instructions === undefined ? {} : { body_instructions }),
    };
    const transaction = await createOnce(
      context,
      { referenceId: body.reference_id, amount: body.amount, kind: (t) => t.payment_type === 'boleto' },
      () =>
        relayed(
          () =>
            context.agent.api.boletos.create({
              ...body,
              on_behalf_of: context.agent.sellerId,
              ...(Object.keys(paymentMethod).length > 0 ? { payment_method: paymentMethod } : {}),
            }),
          BOLETO_RENAMES,
        ),
    );
    const view = relayTransactionView(transaction);
    return { transaction: view, print_jobs: printSlip(context, view, print, transaction) };
  },

  'bolepix.create': async (params, context) => {
    const { print, ...body } = params;
    const transaction = await createOnce(
      context,
      { referenceId: body.reference_id, amount: body.amount, kind: (t) => t.payment_type === 'bolepix' },
      () => context.agent.api.boletos.createBolepix({ ...body, on_behalf_of: context.agent.sellerId }),
    );
    const view = relayTransactionView(transaction);
    return { transaction: view, print_jobs: printSlip(context, view, print, transaction) };
  },

  'boleto.cancel': ({ transaction_id }, { agent }) => agent.api.boletos.cancel(transaction_id),

  'tapToPay.create': async ({ installments, ...params }, context) => {
    const transaction = await createOnce(
      context,
      { referenceId: params.reference_id, amount: params.amount, kind: (t) => t.payment_locale === 'tap_to_pay' },
      () =>
        relayed(
          () =>
            context.agent.api.tapToPay.create({
              ...params,
              on_behalf_of: context.agent.sellerId,
              ...(installments === undefined || installments <= 1
                ? {}
                : { installment_plan: { number_installments: installments } }),
            }),
          TAP_TO_PAY_RENAMES,
        ),
    );
    if (isPending(transaction.status)) watchTapToPay(context, transaction.id);
    return relayTransactionView(transaction);
  },

  'tapToPay.status': async ({ transaction_id }, { agent }) =>
    relayTransactionView(await agent.api.transactions.retrieve(transaction_id)),
};
