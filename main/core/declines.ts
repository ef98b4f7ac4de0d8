/**
 * Why an issuer declined, as a stable category the POS can branch on, and the sentences the
 * cashier, the customer (the PINPAD) and the logs get for it.
 *
 * The issuer's two-character response code is read first, through the return codes Brazilian
 * card schemes, issuers and acquirers standardized for declined authorizations (ABECS Normativo
 * 21, July 2020, revised as V3 in April 2023; the "reversible" codes are the ones a retry can
 * turn into an approval, the "irreversible" ones never will). A provider's own reason string
 * (Zoop's `invalid_pin_code`, `insufficient_funds_error`…) decides only when the code
 * is missing or unknown. Category names follow Stripe's `decline_code` where one exists.
 *
 * The customer-facing text follows the normative's point-of-sale message: it names the reason
 * only where that tells the customer what to do (a wrong PIN, an expired card) and stays
 * "NAO AUTORIZADA" otherwise (insufficient funds is not announced at the counter). The cashier's
 * sentence names the reason, as a TEF screen does.
 */

export const DECLINE_CATEGORIES = [
  'insufficient_funds',
  'incorrect_pin',
  'pin_try_exceeded',
  'expired_card',
  'do_not_honor',
  'try_again_later',
  'contact_acquirer',
  'invalid_card',
  'invalid_amount',
  'invalid_installments',
  'transaction_not_allowed',
  'merchant_not_allowed',
  'suspected_fraud',
  'security_violation',
  'lost_card',
  'stolen_card',
  'restricted_card',
  'card_blocked',
  'closed_account',
  'card_velocity_exceeded',
  'issuer_unavailable',
  'processing_error',
  'generic_decline',
] as const;

export type DeclineCategory = (typeof DECLINE_CATEGORIES)[number];

interface CategoryText {
  /** English, for logs and the POS developer. */
  readonly message: string;
  /** pt-BR, for the cashier's window, the POS's cashier_message and the declined receipt. */
  readonly cashier: string;
  /** The PINPAD's second line under "NAO AUTORIZADA" (≤ 16 characters, no accents); '' for none. */
  readonly pinpad: string;
  /** A retry (the same card, later or with the right PIN) can be approved: the normative's "reversible". */
  readonly retryable: boolean;
}

const CATEGORIES: Readonly<Record<DeclineCategory, CategoryText>> = {
  insufficient_funds: {
    message: 'Insufficient funds or credit limit',
    cashier: 'Saldo insuficiente',
    pinpad: '',
    retryable: true,
  },
  incorrect_pin: { message: 'Incorrect PIN', cashier: 'Senha inválida', pinpad: 'SENHA INVALIDA', retryable: true },
  pin_try_exceeded: {
    message: 'PIN tries exceeded',
    cashier: 'Senha bloqueada: tentativas de senha excedidas. O cliente deve contatar a central do cartão',
    pinpad: 'SENHA BLOQUEADA',
    retryable: true,
  },
  expired_card: {
    message: 'Expired card or wrong expiry date',
    cashier: 'Cartão vencido',
    pinpad: 'CARTAO VENCIDO',
    retryable: false,
  },
  do_not_honor: {
    message: 'Do not honor (generic decline)',
    cashier: 'Não autorizada pelo emissor. O cliente deve contatar a central do cartão',
    pinpad: 'CONTATE EMISSOR',
    retryable: true,
  },
  try_again_later: {
    message: 'The issuer asks to try again',
    cashier: 'Refaça a transação',
    pinpad: 'REFACA OPERACAO',
    retryable: true,
  },
  contact_acquirer: {
    message: 'The merchant must contact the acquirer',
    cashier: 'Não autorizada: o estabelecimento deve contatar a adquirente',
    pinpad: '',
    retryable: true,
  },
  invalid_card: {
    message: 'Invalid card or card number',
    cashier: 'Cartão inválido: verifique o cartão',
    pinpad: 'CARTAO INVALIDO',
    retryable: false,
  },
  invalid_amount: {
    message: 'Amount not allowed',
    cashier: 'Valor não permitido para este cartão',
    pinpad: 'VALOR INVALIDO',
    retryable: false,
  },
  invalid_installments: {
    message: 'Installments not allowed',
    cashier: 'Parcelamento não permitido para este cartão',
    pinpad: 'PARCELA INVALIDA',
    retryable: false,
  },
  transaction_not_allowed: {
    message: 'Transaction not allowed for the card',
    cashier: 'Transação não permitida para este cartão',
    pinpad: 'NAO PERMITIDA',
    retryable: false,
  },
  merchant_not_allowed: {
    message: 'Transaction not allowed for the merchant',
    cashier: 'Transação não permitida para o estabelecimento',
    pinpad: 'NAO PERMITIDA',
    retryable: false,
  },
  suspected_fraud: {
    message: 'Suspected fraud',
    cashier: 'Não autorizada (suspeita de fraude). O cliente deve contatar a central do cartão',
    pinpad: 'CONTATE EMISSOR',
    retryable: true,
  },
  security_violation: {
    message: 'Security violation',
    cashier: 'Transação não permitida para este cartão',
    pinpad: 'NAO PERMITIDA',
    retryable: false,
  },
  // Lost and stolen are told to the cashier as a restriction: the counter is no place to say "stolen".
  lost_card: {
    message: 'Lost card',
    cashier: 'Cartão com restrição: não tente novamente',
    pinpad: 'NAO PERMITIDA',
    retryable: false,
  },
  stolen_card: {
    message: 'Stolen card',
    cashier: 'Cartão com restrição: não tente novamente',
    pinpad: 'NAO PERMITIDA',
    retryable: false,
  },
  restricted_card: {
    message: 'Restricted card',
    cashier: 'Cartão com restrição',
    pinpad: 'NAO PERMITIDA',
    retryable: false,
  },
  card_blocked: {
    message: 'Card blocked or not yet unlocked by the cardholder',
    cashier: 'Cartão bloqueado: o cliente deve desbloqueá-lo com o emissor',
    pinpad: 'CARTAO BLOQUEADO',
    retryable: true,
  },
  closed_account: {
    message: 'Closed account or cancelled card',
    cashier: 'Cartão cancelado ou conta encerrada',
    pinpad: 'NAO PERMITIDA',
    retryable: false,
  },
  card_velocity_exceeded: {
    message: 'Amount or count limit exceeded',
    cashier: 'Limite do cartão excedido',
    pinpad: '',
    retryable: true,
  },
  issuer_unavailable: {
    message: 'Issuer or switch unavailable',
    cashier: 'Emissor do cartão fora do ar: tente novamente em instantes',
    pinpad: 'TENTE NOVAMENTE',
    retryable: true,
  },
  processing_error: {
    message: 'Processing error at the acquirer',
    cashier: 'Erro no processamento: tente novamente',
    pinpad: 'TENTE NOVAMENTE',
    retryable: true,
  },
  generic_decline: { message: 'Declined', cashier: 'Transação não autorizada', pinpad: '', retryable: true },
};

/**
 * Issuer response codes (ISO 8583 field 39 as Brazilian acquirers pass them on) → category. The
 * codes of ABECS Normativo 21 first; the ISO codes that acquirers still answer beside them after.
 */
const BY_RESPONSE_CODE: ReadonlyMap<string, DeclineCategory> = new Map<string, DeclineCategory>([
  // ABECS Normativo 21
  ['04', 'try_again_later'],
  ['05', 'do_not_honor'],
  ['06', 'contact_acquirer'],
  ['12', 'invalid_card'],
  ['13', 'invalid_amount'],
  ['14', 'invalid_card'],
  ['19', 'processing_error'],
  ['23', 'invalid_installments'],
  ['30', 'processing_error'],
  ['38', 'pin_try_exceeded'],
  ['41', 'lost_card'],
  ['43', 'stolen_card'],
  ['46', 'closed_account'],
  ['51', 'insufficient_funds'],
  ['54', 'expired_card'],
  ['55', 'incorrect_pin'],
  ['56', 'invalid_card'],
  ['57', 'transaction_not_allowed'],
  ['58', 'merchant_not_allowed'],
  ['59', 'suspected_fraud'],
  ['61', 'card_velocity_exceeded'],
  ['62', 'restricted_card'],
  ['63', 'security_violation'],
  ['65', 'card_velocity_exceeded'],
  ['75', 'pin_try_exceeded'],
  ['76', 'invalid_card'],
  ['78', 'card_blocked'],
  ['79', 'closed_account'],
  ['91', 'issuer_unavailable'],
  ['96', 'processing_error'],
  // ISO 8583 codes acquirers still send
  ['01', 'do_not_honor'],
  ['02', 'do_not_honor'],
  ['03', 'merchant_not_allowed'],
  ['07', 'restricted_card'],
  ['15', 'invalid_card'],
  ['33', 'expired_card'],
  ['34', 'suspected_fraud'],
  ['36', 'restricted_card'],
  ['40', 'transaction_not_allowed'],
  ['68', 'issuer_unavailable'],
  ['86', 'incorrect_pin'],
  ['92', 'issuer_unavailable'],
]);

/**
 * Providers' reason strings → category, for answers without a known response code: the sandbox's
 * (docs/terminal-channel.md), Zoop's card_error categories (insufficient_funds_error,
 * invalid_pin_code…) and Stripe-style names, compared without case, "_error" and "_code" endings.
 */
const BY_PROVIDER_REASON: ReadonlyMap<string, DeclineCategory> = new Map<string, DeclineCategory>([
  ['insufficient_funds', 'insufficient_funds'],
  ['invalid_pin', 'incorrect_pin'],
  ['incorrect_pin', 'incorrect_pin'],
  ['pin_try_exceeded', 'pin_try_exceeded'],
  ['expired_card', 'expired_card'],
  ['do_not_honor', 'do_not_honor'],
  ['card_declined', 'generic_decline'],
  ['authorization_refused', 'do_not_honor'],
  ['invalid_card_number', 'invalid_card'],
  ['invalid_card', 'invalid_card'],
  ['invalid_expiry_month', 'expired_card'],
  ['invalid_expiry_year', 'expired_card'],
  ['invalid_amount', 'invalid_amount'],
  ['transaction_not_permitted', 'transaction_not_allowed'],
  ['transaction_not_allowed', 'transaction_not_allowed'],
  ['suspected_fraud', 'suspected_fraud'],
  ['fraudulent', 'suspected_fraud'],
  ['lost_card', 'lost_card'],
  ['stolen_card', 'stolen_card'],
  ['restricted_card', 'restricted_card'],
  ['issuer_unavailable', 'issuer_unavailable'],
  ['issuer_not_available', 'issuer_unavailable'],
  ['processing_error', 'processing_error'],
  ['try_again_later', 'try_again_later'],
  ['card_velocity_exceeded', 'card_velocity_exceeded'],
]);

/** A decline, explained. */
export interface DeclineReason {
  readonly category: DeclineCategory;
  /** The issuer's response code as received (upper-case), or null when none came. */
  readonly issuerCode: string | null;
  readonly retryable: boolean;
  readonly message: string;
  readonly cashierMessage: string;
  /** What the PINPAD shows the customer: "NAO AUTORIZADA" and, where it helps them, the reason. */
  readonly pinpadText: string;
}

/** One of our own categories (a journal record's), or a provider's reason string. */
function categoryOfReason(reason: string): DeclineCategory | undefined {
  const key = reason
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const own = DECLINE_CATEGORIES.find((category) => category === key);
  return own ?? BY_PROVIDER_REASON.get(key) ?? BY_PROVIDER_REASON.get(key.replace(/_(error|code)$/, ''));
}

/**
 * The category of a decline from the issuer's response code (`responseCode`, e.g. "51") and,
 * when that is missing or unknown, the provider's reason string (`providerReason`).
 */
export function declineReasonOf(
  responseCode: string | null | undefined,
  providerReason?: string | null,
): DeclineReason {
  const issuerCode =
    typeof responseCode === 'string' && responseCode.trim() !== '' ? responseCode.trim().toUpperCase() : null;
  const category =
    (issuerCode === null ? undefined : BY_RESPONSE_CODE.get(issuerCode)) ??
    (typeof providerReason === 'string' ? categoryOfReason(providerReason) : undefined) ??
    'generic_decline';
  const text = CATEGORIES[category];
  return {
    category,
    issuerCode,
    retryable: text.retryable,
    message: text.message,
    cashierMessage: text.cashier,
    pinpadText: text.pinpad === '' ? 'NAO AUTORIZADA' : `NAO AUTORIZADA\n${text.pinpad}`,
  };
}

/** Every category with its texts, for the documents (docs/pos-api.md) and their tests. */
export function declineCategories(): ReadonlyArray<{ readonly category: DeclineCategory } & CategoryText> {
  return DECLINE_CATEGORIES.map((category) => ({ category, ...CATEGORIES[category] }));
}

/** The issuer codes that map to `category` (for documents). */
export function responseCodesOf(category: DeclineCategory): readonly string[] {
  return [...BY_RESPONSE_CODE].filter(([, c]) => c === category).map(([code]) => code);
}
