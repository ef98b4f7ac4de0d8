/**
 * A payment in words on the demo POS, the same words as Pinbridge's window (renderer/labels.ts
 * with its pt-BR catalog; test/demo/labels.test.ts holds the two together): "Débito",
 * "Crédito à vista" for one installment as a TEF screen says it, "Crédito em 3x", and the card as
 * "VISA 411111******1111" — the brand in capitals and the masked number, never more.
 */

/** "Débito", "Crédito à vista", "Crédito em 3x"; "Crédito" while the installments are not known yet. */
export function typeLabel(paymentType, installments) {
  if (paymentType === 'debit') return 'Débito';
  if (installments === null || installments === undefined) return 'Crédito';
  return installments > 1 ? `Crédito em ${installments}x` : 'Crédito à vista';
}

/** "VISA 411111******1111"; "—" for a payment that never reached a card. */
export function cardLabel(card) {
  return card === null || card === undefined ? '—' : `${card.brand.toUpperCase()} ${card.masked_pan}`;
}
