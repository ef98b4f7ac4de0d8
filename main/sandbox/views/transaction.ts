/**
 * A stored transaction → the response body. Stored money is integer centavos; with
 * `settings.amountFormat === 'decimal'` amounts (and the installment count) are written the way
 * the service family writes them ("30.00", "2"). Links stored as paths become absolute URLs of
 * this sandbox.
 */
import type { ListEnvelope, Transaction, WireAmount } from '../../contract/index.js';
import type { AmountFormat, SandboxContext } from '../context.js';
import type { Page, TransactionRecord } from '../store/transactions.js';

/** 3050 → "30.50" (string arithmetic: no floating point on money). */
export function centavosToReais(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function wireAmount(centavos: number, format: AmountFormat): WireAmount {
  return format === 'decimal' ? centavosToReais(centavos) : centavos;
}

const absolute = (ctx: SandboxContext, path: string): string =>
  path.startsWith('/') ? `${ctx.baseUrl()}${path}` : path;

export function transactionView(ctx: SandboxContext, record: TransactionRecord): Transaction {
  const format = ctx.settings.amountFormat;
  const { boleto, pix, installment_plan: plan, ...rest } = record;
  const view: Transaction = {
    ...rest,
    amount: wireAmount(record.amount, format),
    original_amount: wireAmount(record.original_amount, format),
    installment_plan: plan
      ? {
          number_installments: format === 'decimal' ? String(plan.number_installments) : plan.number_installments,
          mode: plan.mode,
        }
      : null,
    history: record.history.map((entry) => ({ ...entry, amount: wireAmount(entry.amount, format) })),
  };
  if (boleto) view.boleto = { ...boleto, url: absolute(ctx, boleto.url) };
  if (pix) view.pix = { ...pix, qr_code_url: absolute(ctx, pix.qr_code_url) };
  return view;
}

/** The list envelope of transactions; `uri` is the request's path. */
export function transactionListView(
  ctx: SandboxContext,
  page: Page<TransactionRecord>,
  request: { path: string; limit: number; offset: number },
): ListEnvelope<Transaction> {
  return {
    resource: 'list',
    uri: request.path,
    items: page.items.map((record) => transactionView(ctx, record)),
    has_more: request.offset + page.items.length < page.total,
    limit: request.limit,
    offset: request.offset,
    total: page.total,
  };
}
