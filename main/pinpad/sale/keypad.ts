/**
 * What the customer answers on the keypad before the card: how many installments (MNU, or DSP +
 * GKY on a legacy PINPAD) and the CPF (GCD, which a legacy PINPAD does not have).
 */
import { isValidCpf } from '../../validation/taxpayer-id.js';
import { installmentChoices } from '../display-text.js';
import { chooseInstallmentsGky, taxIdUnsupported } from '../legacy-sale.js';
import { SaleStepError } from '../sale-errors.js';
import { HOST_GRACE_MS, pinpadSeconds, type SaleContext } from './context.js';

/** MNU's title while the installments are asked. */
const INSTALLMENTS_TITLE = 'EM QUANTAS VEZES';

/**
 * Asks the customer how many installments (MNU): "A VISTA", "2X R$ 50,00"… up to `max`, only
 * while each installment is at least `minInstallmentAmount`. Returns 1…max. When only "A VISTA"
 * qualifies the PINPAD is not asked and 1 comes back at once. A legacy PINPAD has no MNU: one
 * option at a time with DSP + GKY (chooseInstallmentsGky).
 */
export async function chooseInstallments(
  context: SaleContext,
  amount: number,
  options: { max: number; minInstallmentAmount: number },
  signal: AbortSignal | undefined,
): Promise<number> {
  const choices = installmentChoices(amount, options);
  if (choices.length === 1) return 1;
  if (await context.step('installments', () => context.isLegacy())) {
    return context.step('installments', () => chooseInstallmentsGky(context, choices, signal));
  }
  return context.step('installments', async () => {
    const index = await context.pinpad.menu(
      INSTALLMENTS_TITLE,
      choices.map((choice) => choice.label),
      {
        timeoutSeconds: pinpadSeconds(context.timeouts.menuMs),
        ...context.wait(signal, context.timeouts.menuMs + HOST_GRACE_MS),
      },
    );
    const chosen = choices[index];
    if (!chosen)
      throw new SaleStepError('PINPAD_ERROR', 'installments', {
        message: `the PINPAD answered option ${index + 1} of ${choices.length}.`,
      });
    return chosen.installments;
  });
}

/**
 * The customer's CPF typed on the keypad (GCD "DIGITE O CPF", 11 digits). A CPF whose check
 * digits are wrong is asked again ("REDIGITE O CPF") until a valid one comes, the customer
 * cancels, or menuMs — the limit of the whole step, not of each attempt — runs out (TIMEOUT,
 * saying the CPF was invalid). Returns the 11 digits. A legacy PINPAD has no GCD: refused with
 * PINPAD_UNSUPPORTED (the engine asks before it creates the transaction).
 */
export async function readTaxId(context: SaleContext, signal: AbortSignal | undefined): Promise<string> {
  return context.step('tax_id', async () => {
    if (await context.isLegacy()) throw taxIdUnsupported();
    const deadline = performance.now() + context.timeouts.menuMs;
    for (let attempt = 1; ; attempt++) {
      const remaining = deadline - performance.now();
      if (remaining <= 0) {
        throw new SaleStepError('TIMEOUT', 'tax_id', {
          message: `no valid CPF within ${context.timeouts.menuMs} ms (${attempt - 1} invalid).`,
          cashierMessage: 'CPF inválido digitado no PINPAD. Tempo esgotado.',
        });
      }
      const value = await context.pinpad.readCustomerData(attempt === 1 ? 'cpf' : 'cpfAgain', {
        timeoutSeconds: pinpadSeconds(remaining),
        ...context.wait(signal, remaining + HOST_GRACE_MS),
      });
      if (/^[0-9]{11}$/.test(value) && isValidCpf(value)) return value;
      context.logger.info({ step: 'tax_id', attempt }, 'invalid CPF typed; asking again');
    }
  });
}
