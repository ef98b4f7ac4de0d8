/**
 * `pinbridge doctor --probe-capabilities`: tries, on a sandbox or homologation API, the two
 * things a provider may offer beyond what GoPag and Zoop document, which Pinbridge uses only when
 * the settings say the provider has them (api.capabilities):
 *
 * - idempotency_key: the same PINPAD transaction created twice with one Idempotency-Key — does the
 *   second answer name the first transaction?
 * - find_by_reference: the marketplace's transaction list asked for one reference_id, with a
 *   second probe transaction of another reference present — does it answer that reference only?
 *
 * It creates real (pending) transactions, addressed to a terminal no PINPAD has, and cancels every
 * one at once (a reversal of a pending transaction, a void if that is refused); any it could not
 * cancel is named in the result. Opt-in only: never part of a plain `doctor` run.
 */
import { randomBytes } from 'node:crypto';
import { NotFoundError, PaymentsClient, type PaymentsClientOptions, type Transaction } from '../api/index.js';
import { bilingual, joinBilingual, messageOf, type Bilingual, type CheckDetails, type CheckStatus } from './check.js';

/** The serial the probe transactions are addressed to: no PINPAD has it, so no agent runs them. */
export const PROBE_TERMINAL = 'PINBRIDGE-PROBE';
const PROBE_AMOUNT = 100;

/** What the probe found: true/false, or null when it could not tell (and `why`). */
export interface CapabilityFinding {
  readonly honoured: boolean | null;
  readonly why?: string;
}

export interface CapabilityProbe {
  readonly idempotencyKey: CapabilityFinding;
  readonly findByReference: CapabilityFinding;
  /** Every transaction the probe created. */
  readonly created: readonly string[];
  /** Those it could not cancel: to be cancelled by hand. */
  readonly leftPending: readonly string[];
}

/** What the settings say the provider offers (both false when they say nothing). */
export interface DeclaredCapabilities {
  readonly idempotencyKey: boolean;
  readonly findByReference: boolean;
}

export type ProbeClientOptions = Omit<PaymentsClientOptions, 'capabilities' | 'maxRetries'> & {
  readonly sellerId: string;
};

/** Runs the probe; never throws for the provider's answers (they are findings). */
export async function probeCapabilities(options: ProbeClientOptions): Promise<CapabilityProbe> {
  const { sellerId, ...clientOptions } = options;
  // Keys sent (that is what is tried), nothing retried: every request is one the probe chose.
  const client = new PaymentsClient({
    ...clientOptions,
    maxRetries: 0,
    authFailureCooldownMs: 0,
    capabilities: { idempotencyKey: true },
  });
  const tag = randomBytes(6).toString('hex');
  const sale = (reference: string): Parameters<PaymentsClient['transactions']['create']>[0] => ({
    payment_locale: 'pinpad',
    payment_type: 'credit',
    on_behalf_of: sellerId,
    description: 'Pinbridge capability probe (cancelled at once)',
    amount: PROBE_AMOUNT,
    terminal: PROBE_TERMINAL,
    reference_id: reference,
    metadata: { pinbridge_probe: tag },
  });
  const created = new Set<string>();
  const referenceA = `pinbridge-probe-${tag}-a`;
  const referenceB = `pinbridge-probe-${tag}-b`;

  let idempotencyKey: CapabilityFinding;
  let first: Transaction;
  try {
    first = await client.transactions.create(sale(referenceA), { idempotencyKey: `pinbridge:probe:${tag}` });
    created.add(first.id);
  } catch (error) {
    const why = `the probe transaction could not be created: ${messageOf(error)}`;
    return {
      idempotencyKey: { honoured: null, why },
      findByReference: { honoured: null, why },
      created: [],
      leftPending: [],
    };
  }
  try {
    const again = await client.transactions.create(sale(referenceA), { idempotencyKey: `pinbridge:probe:${tag}` });
    created.add(again.id);
    idempotencyKey = { honoured: again.id === first.id };
  } catch (error) {
    idempotencyKey = { honoured: null, why: `the repeated creation failed: ${messageOf(error)}` };
  }

  let findByReference: CapabilityFinding;
  try {
    // Another reference beside it: a list that ignores the filter shows it too.
    created.add((await client.transactions.create(sale(referenceB))).id);
    const page = await client.transactions.list({ reference_id: referenceA });
    const named = page.items.every((t) => t.reference_id === referenceA);
    findByReference = { honoured: named && page.items.some((t) => t.id === first.id) };
  } catch (error) {
    findByReference =
      error instanceof NotFoundError
        ? { honoured: false }
        : { honoured: null, why: `the filtered list could not be read: ${messageOf(error)}` };
  }

  const leftPending: string[] = [];
  for (const id of created) if (!(await cancelled(client, id, sellerId))) leftPending.push(id);
  return { idempotencyKey, findByReference, created: [...created], leftPending };
}

/** Cancels a probe transaction (reversal of a pending transaction, else a void); false when neither worked. */
async function cancelled(client: PaymentsClient, id: string, sellerId: string): Promise<boolean> {
  try {
    await client.terminal.reverse(id, { terminal: PROBE_TERMINAL, reason: 'other' });
    return true;
  } catch {
    try {
      await client.terminal.void(id, { on_behalf_of: sellerId });
      return true;
    } catch {
      return false;
    }
  }
}

const NAMES = {
  idempotencyKey: { setting: 'idempotency_key', what: bilingual('Idempotency-Key', 'Idempotency-Key') },
  findByReference: {
    setting: 'find_by_reference',
    what: bilingual(
      'the reference_id filter of its transaction list',
      'o filtro reference_id da sua lista de transações',
    ),
  },
} as const;

/** What the probe means for the settings: the status, one sentence per capability, and what to change. */
export function capabilityFindings(
  probe: CapabilityProbe,
  declared: DeclaredCapabilities,
): { status: CheckStatus; summary: Bilingual; fix?: Bilingual; details: CheckDetails } {
  const statuses: CheckStatus[] = [];
  const sentences: Bilingual[] = [];
  const fixes: Bilingual[] = [];
  for (const key of ['idempotencyKey', 'findByReference'] as const) {
    const { honoured, why } = probe[key];
    const { setting, what } = NAMES[key];
    const set = (value: boolean): string => `set api.capabilities.${setting} = ${value}`;
    if (honoured === null) {
      statuses.push('warn');
      sentences.push(
        bilingual(
          `could not tell whether the provider honours ${what.en} (${why ?? 'no answer'})`,
          `não foi possível saber se o provedor atende ${what.pt} (${why ?? 'sem resposta'})`,
        ),
      );
    } else if (honoured && !declared[key]) {
      statuses.push('warn');
      sentences.push(
        bilingual(`the provider honours ${what.en}: ${set(true)}`, `o provedor atende ${what.pt}: ${set(true)}`),
      );
      fixes.push(
        bilingual(
          `In the settings, ${set(true)} (only if the provider documents it for production too).`,
          `Nas configurações, ${set(true)} (somente se o provedor também o documenta em produção).`,
        ),
      );
    } else if (!honoured && declared[key]) {
      statuses.push('fail');
      sentences.push(
        bilingual(
          `the settings say the provider honours ${what.en}, but it does not: ${set(false)}`,
          `as configurações dizem que o provedor atende ${what.pt}, mas ele não atende: ${set(false)}`,
        ),
      );
      fixes.push(
        bilingual(
          `In the settings, ${set(false)}: relying on it could send a payment twice.`,
          `Nas configurações, ${set(false)}: contar com isso pode enviar um pagamento duas vezes.`,
        ),
      );
    } else {
      statuses.push('ok');
      sentences.push(
        honoured
          ? bilingual(
              `the provider honours ${what.en}, as the settings say`,
              `o provedor atende ${what.pt}, como dizem as configurações`,
            )
          : bilingual(
              `the provider does not honour ${what.en}, and the settings do not rely on it`,
              `o provedor não atende ${what.pt}, e as configurações não contam com isso`,
            ),
      );
    }
  }
  if (probe.leftPending.length > 0) {
    statuses.push('fail');
    const ids = probe.leftPending.join(', ');
    sentences.push(
      bilingual(`test transactions left pending: ${ids}`, `transações de teste que ficaram pendentes: ${ids}`),
    );
    fixes.push(
      bilingual(
        `Cancel the test transactions ${ids} in the provider's dashboard.`,
        `Cancele as transações de teste ${ids} no painel do provedor.`,
      ),
    );
  }
  const status = statuses.includes('fail') ? 'fail' : statuses.includes('warn') ? 'warn' : 'ok';
  const honoured = (finding: CapabilityFinding): boolean | null => finding.honoured;
  return {
    status,
    summary: joinBilingual(sentences, '; '),
    ...(fixes.length === 0 ? {} : { fix: joinBilingual(fixes, ' ') }),
    details: {
      capabilities: {
        idempotency_key: { honoured: honoured(probe.idempotencyKey), declared: declared.idempotencyKey },
        find_by_reference: { honoured: honoured(probe.findByReference), declared: declared.findByReference },
        probe_transactions: probe.created,
        left_pending: probe.leftPending,
      },
    },
  };
}
