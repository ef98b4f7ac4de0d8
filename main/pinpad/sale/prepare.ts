/**
 * Before the customer or the API is asked anything: whether this PINPAD can run the sale at all,
 * its EMV tables brought to the coming sale's version on the way.
 */
import { SaleStepError } from '../sale-errors.js';
import type { SaleContext } from './context.js';
import { keysMissing, type SaleKeys } from './keys.js';
import type { SaleTables } from './tables.js';

/**
 * Refuses, before the customer or the API is asked anything, a sale this PINPAD cannot run:
 *
 * - tables the file cannot give or the PINPAD refuses to load: TABLES_UNAVAILABLE;
 * - an acquirer (every acquirer of the tables, or the settings' slots without tables) for whose
 *   card data or PIN the PINPAD holds the key of no method the provider offers (key-methods.ts:
 *   the key maps PP_MKTDESP/D and PP_DKPTTDESP/D, else the DUKPT slots' PP_KSNTDESPnn/Dnn):
 *   KEYS_MISSING, naming the fix — a PIN would fail with ST_ERRKEY mid-sale, or card data would
 *   be encrypted under another acquirer's key.
 *
 * A legacy (BibComp 1.08) PINPAD has no key maps to ask (GIX is 2.x, abecs.md §3.3): its keys
 * are not checked, and GOC/GPN answer ST_ERRKEY (042) at the PIN step when the PIN key is
 * missing. Its tables are loaded all the same (GTS/TLI/TLR/TLE). It cannot seal card data (no
 * GTK): where the provider needs sealed data (`requireSealedCardData`), PINPAD_UNSUPPORTED — the
 * agent does not seal GCR's clear tracks itself, which would put the PC in PCI scope and prove
 * nothing to the host (docs/terminal-channel.md, "Legacy PINPADs are not sealed by the agent").
 */
export async function prepareSale(
  context: SaleContext,
  tables: SaleTables,
  keys: SaleKeys,
  options: { readonly requireSealedCardData: boolean },
): Promise<void> {
  await context.step('prepare', async () => {
    if (options.requireSealedCardData && (await context.isLegacy())) throw legacyCannotSeal();
    await tables.refresh();
    await tables.ensure();
    if (await context.isLegacy()) return;
    const problems = await keys.problemsOfAcquirersInUse();
    if (problems.length > 0) throw keysMissing(problems);
  });
}

/** PINPAD_UNSUPPORTED: a legacy PINPAD where the provider authorizes only from sealed card data. */
function legacyCannotSeal(): SaleStepError {
  return new SaleStepError('PINPAD_UNSUPPORTED', 'prepare', {
    message:
      'this legacy (BibComp 1.08) PINPAD cannot encrypt the card data (it has no GTK), and terminal channel v2 authorizes only from encrypted card data; use an ABECS 2.x PINPAD, or set api.capabilities.terminal_channel to 1 if the provider still serves v1.',
    cashierMessage:
      'Este PINPAD é de um modelo antigo que não protege os dados do cartão como o sistema de pagamentos exige; nada foi cobrado. Chame o suporte técnico.',
  });
}
