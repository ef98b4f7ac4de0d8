/**
 * From stored records to what the boleto PDF prints: the transaction (contract `Transaction`,
 * integer amounts), its seller (the beneficiary) and its buyer (the payer). The bank data shown
 * (nosso número, agência/código, carteira) is read back from the barcode's Itaú free field, so
 * the document always agrees with the barcode it carries.
 */
import type { Address, Transaction } from '../../contract/index.js';
import { parseBoletoBarcode } from './barcode.js';
import { instructionLines } from './instructions.js';
import type { BoletoPdfInput, BoletoPdfParty, BoletoPdfStatus } from './pdf.js';

export interface SellerData {
  readonly business_name?: string | null;
  readonly ein?: string | null;
}

export interface BuyerData {
  readonly first_name?: string | null;
  readonly last_name?: string | null;
  readonly taxpayer_id?: string | null;
  readonly ein?: string | null;
  readonly address?: Address | null;
}

const BANK_NAMES: Record<string, string> = { '341': 'Itaú' };

/** Integer centavos from a stored amount (integers; decimal reais strings tolerated). */
function centavos(amount: Transaction['amount']): number {
  return typeof amount === 'number' ? amount : Math.round(Number(amount) * 100);
}

/** "Rua X, 10 — Apto 2" / "Centro — São Paulo/SP — CEP 01001-000". */
export function addressLines(address: Address | null | undefined): string[] {
  if (!address) return [];
  const street = [address.line1, address.line2, address.line3].filter((part): part is string => !!part).join(' — ');
  const cityState = [address.city, address.state?.toUpperCase()].filter((part): part is string => !!part).join('/');
  const cep = address.postal_code ? `CEP ${address.postal_code.slice(0, 5)}-${address.postal_code.slice(5)}` : '';
  const place = [address.neighborhood, cityState, cep].filter((part): part is string => !!part).join(' — ');
  return [street, place].filter((line) => line.length > 0);
}

export function payerParty(buyer: BuyerData | undefined): BoletoPdfParty {
  if (!buyer) return { name: 'Pagador não identificado', taxId: null, addressLines: [] };
  const name = [buyer.first_name, buyer.last_name].filter((part): part is string => !!part).join(' ');
  return {
    name: name || 'Pagador não identificado',
    taxId: buyer.taxpayer_id ?? buyer.ein ?? null,
    addressLines: addressLines(buyer.address),
  };
}

function statusOf(transaction: Transaction): BoletoPdfStatus {
  const boletoStatus = transaction.boleto?.status;
  if (boletoStatus === 'paid' || transaction.status === 'succeeded') return 'paid';
  if (boletoStatus === 'canceled' || transaction.status === 'canceled') return 'canceled';
  return 'not_paid';
}

/** Whether the record is a boleto (or bolepix) with its boleto data. */
export const isBoletoTransaction = (transaction: Transaction): boolean =>
  (transaction.payment_type === 'boleto' || transaction.payment_type === 'bolepix') && transaction.boleto !== undefined;

export function boletoPdfInput(
  transaction: Transaction,
  seller: SellerData | undefined,
  buyer: BuyerData | undefined,
): BoletoPdfInput {
  const boleto = transaction.boleto;
  if (!boleto) throw new Error(`Transaction ${transaction.id} has no boleto`);
  const parsed = parseBoletoBarcode(boleto.barcode);
  const free = parsed.freeField;
  const amount = centavos(transaction.amount);
  return {
    bankCode: parsed.bankCode,
    bankName: BANK_NAMES[parsed.bankCode] ?? `Banco ${parsed.bankCode}`,
    barcode: boleto.barcode,
    digitableLine: boleto.digitable_line,
    // Itaú free field: carteira(3) nosso número(8) DAC(1) agência(4) conta(5) DAC(1) 000.
    nossoNumero: `${free.slice(0, 3)}/${free.slice(3, 11)}-${free.slice(11, 12)}`,
    agenciaCodigo: `${free.slice(12, 16)} / ${free.slice(16, 21)}-${free.slice(21, 22)}`,
    carteira: free.slice(0, 3),
    documentNumber: transaction.reference_id ?? transaction.id.slice(0, 15),
    documentDate: transaction.created_at.slice(0, 10),
    dueDate: boleto.expiration_date,
    paymentLimitDate: boleto.payment_limit_date,
    amountCentavos: amount,
    beneficiary: { name: seller?.business_name ?? 'Beneficiário', taxId: seller?.ein ?? null },
    payer: payerParty(buyer),
    description: transaction.description,
    instructions: instructionLines(boleto.billing_instructions, amount),
    status: statusOf(transaction),
    paidAt: boleto.paid_at,
    pix:
      transaction.payment_type === 'bolepix' && transaction.pix
        ? { copyAndPaste: transaction.pix.qr_code, expiresAt: transaction.pix.expiration_date_time }
        : null,
  };
}
