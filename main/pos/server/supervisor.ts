/**
 * The supervisor's authorization of a void (settings `supervisor`): before payment.undo or
 * payment.cancel voids an approved sale — or undoes an approval still waiting for confirmation —
 * the agent itself checks the supervisor's PIN, so a window (or a page pretending to be one)
 * that skips its PIN field gets nowhere. Which requests need it:
 * - from the window: every void of an approval when `required_for` is "voids" and the sale's
 *   amount reaches `min_amount_centavos`; the PIN comes in the request (`supervisor_pin`, typed in
 *   the window) or is typed on the PINPAD (`supervisor_entry: "pinpad"`, or `entry` "pinpad");
 * - from a POS: only when `pos_voids` is "pinpad" (by default a POS is trusted: it runs its own
 *   supervisor step); then the PIN is typed on the PINPAD, as the POS cannot send one.
 * A payment still running (the card in the PINPAD, no sale handed over yet) is stopped without
 * it, and a repeat of a void already done needs nothing.
 *
 * Every attempt is logged (never a digit of the PIN) and noted in the payment's journal history;
 * the void itself carries "authorized by the supervisor (…)" in its journal note.
 *
 * Wrong PINs lock the channel they were typed for: the window's voids, or the POS systems' (typed
 * on the PINPAD), so a POS cannot lock the store's window out. A PIN file changed outside Pinbridge
 * locks both until the PIN is set again in the window (SUPERVISOR_LOCKED, reason TAMPERED).
 */
import type { PaymentOutcome } from '../../core/outcome.js';
import { PosError } from '../protocol/index.js';
import type { CallContext } from './dispatch.js';
import { toPosError } from './errors.js';
import type { SupervisorChannel, SupervisorLock, SupervisorPolicy } from './supervisor-guard.js';

// The guard the agent provides lives apart (supervisor-guard.ts): agent.ts names it, and this module
// names the dispatcher's CallContext, which names agent.ts.
export type {
  SupervisorChannel,
  SupervisorGuard,
  SupervisorLock,
  SupervisorPinCheck,
  SupervisorPolicy,
} from './supervisor-guard.js';

export type SupervisorEntry = 'window' | 'pinpad';

/** What a void request may carry for the supervisor. */
export interface SupervisorParams {
  readonly supervisor_pin?: string;
  readonly supervisor_entry?: SupervisorEntry;
}

/** How long the supervisor has at the PINPAD (its prompt times out by itself). */
export const PINPAD_PIN_SECONDS = 60;

const VOIDABLE: ReadonlySet<PaymentOutcome['state']> = new Set(['awaiting_confirmation', 'confirmed']);

function minutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/** Whether this request on this payment needs the supervisor, and from where the PIN may come. */
export function supervisorNeed(
  policy: SupervisorPolicy,
  outcome: Pick<PaymentOutcome, 'state' | 'amount'>,
  fromWindow: boolean,
): { needed: false } | { needed: true; entries: readonly SupervisorEntry[] } {
  if (policy.requiredFor !== 'voids' || !VOIDABLE.has(outcome.state) || outcome.amount < policy.minAmountCentavos)
    return { needed: false };
  if (!fromWindow) return policy.posVoids === 'pinpad' ? { needed: true, entries: ['pinpad'] } : { needed: false };
  return { needed: true, entries: policy.entry === 'either' ? ['window', 'pinpad'] : [policy.entry] };
}

/** Appends a line to the payment's journal history; a journal that refuses it does not stop the answer. */
function note(context: CallContext, referenceId: string, text: string): void {
  try {
    context.agent.engine.note(referenceId, text);
  } catch (error) {
    context.log.error(
      { reference: referenceId, err: error instanceof Error ? error.message : String(error) },
      'supervisor attempt not noted in the journal',
    );
  }
}

/** The PINPAD the sale ran on when it is connected, else the one the registry picks. */
function pinpadFor(context: CallContext, terminal: string): string | undefined {
  return context.agent.pinpads.list().some((pinpad) => pinpad.serialNumber === terminal && pinpad.connected)
    ? terminal
    : undefined;
}

/**
 * Checks the supervisor for a void of `referenceId` when the settings ask for it. Returns the
 * note for the void's journal entry ("authorized by the supervisor (…)"), or undefined when no
 * authorization is needed; throws SUPERVISOR_REQUIRED / SUPERVISOR_PIN_WRONG / SUPERVISOR_LOCKED.
 */
export async function authorizeVoid(
  context: CallContext,
  referenceId: string,
  params: SupervisorParams,
): Promise<string | undefined> {
  const { agent, session, log } = context;
  const guard = agent.supervisor;
  if (guard === undefined) return undefined;
  const status = agent.engine.status(referenceId);
  if (status.kind !== 'processed') return undefined;
  const sale = status.outcome;
  const fromWindow = session.operator;
  const need = supervisorNeed(guard.policy, sale, fromWindow);
  if (!need.needed) return undefined;
  const who = fromWindow ? 'window' : (session.client?.id ?? 'pos');
  // The window's voids and the POS systems' are counted and locked apart (supervisor-guard.ts).
  const channel: SupervisorChannel = fromWindow ? 'window' : 'pos';
  if (!guard.isSet()) {
    log.warn({ reference: referenceId, by: who }, 'void refused: the supervisor PIN is required and none is set');
    throw new PosError(
      'SUPERVISOR_REQUIRED',
      'This store requires the supervisor for voids, and no supervisor PIN is set: set it in the window (Configurações → Supervisor).',
      { reason: 'PIN_NOT_SET' },
      'Esta operação precisa da senha do supervisor, e nenhuma foi cadastrada. Cadastre em Configurações → Supervisor.',
    );
  }
  const locked = guard.lock(channel);
  if (locked !== null) throw refusedLocked(context, referenceId, who, locked);

  let entry: SupervisorEntry;
  if (params.supervisor_pin !== undefined) entry = 'window';
  else if (params.supervisor_entry !== undefined) entry = params.supervisor_entry;
  else if (need.entries.length === 1 && need.entries[0] === 'pinpad') entry = 'pinpad';
  else {
    throw new PosError(
      'SUPERVISOR_REQUIRED',
      'This void needs the supervisor: send supervisor_pin (typed in the window) or supervisor_entry "pinpad".',
      { reason: 'PIN_MISSING' },
      'Esta operação precisa da senha do supervisor.',
    );
  }
  if (!need.entries.includes(entry)) {
    const onPinpad = need.entries.includes('pinpad');
    throw new PosError(
      'SUPERVISOR_REQUIRED',
      onPinpad
        ? 'This store takes the supervisor PIN on the PINPAD only (settings supervisor.entry).'
        : 'This store takes the supervisor PIN in the window only (settings supervisor.entry).',
      { reason: onPinpad ? 'PINPAD_ONLY' : 'WINDOW_ONLY' },
      onPinpad
        ? 'A senha do supervisor deve ser digitada no PINPAD.'
        : 'A senha do supervisor deve ser digitada na janela do Pinbridge.',
    );
  }

  let pin: string;
  let where: string;
  if (entry === 'window') {
    pin = params.supervisor_pin ?? '';
    where = 'PIN typed in the window';
  } else {
    const terminal = pinpadFor(context, sale.terminal);
    log.info(
      { reference: referenceId, by: who, terminal: terminal ?? null },
      'asking the supervisor for the PIN on the PINPAD',
    );
    // The PINPAD's fixed IDENTIFICACAO prompt (GCD 1Dh): there is no "supervisor password" prompt,
    // and the digits show in clear under it (free prompts are not allowed, abecs.md §3.8).
    where = `PIN typed on the PINPAD ${terminal ?? sale.terminal}`;
    try {
      pin = await agent.pinpads.readCustomerData(terminal, 'identification', {
        timeoutSeconds: PINPAD_PIN_SECONDS,
        minDigits: 4,
        maxDigits: 8,
      });
    } catch (error) {
      // CANCEL pressed, no answer in time, the PINPAD busy or gone: an attempt all the same.
      // Said as the API says it to the caller (PINPAD_CANCELLED, PINPAD_TIMEOUT, BUSY…), not the driver's status.
      const code = toPosError(error)?.code ?? 'INTERNAL_ERROR';
      log.warn(
        { reference: referenceId, by: who, code },
        'void not authorized: no supervisor PIN came from the PINPAD',
      );
      note(context, referenceId, `void refused: no supervisor PIN typed on the PINPAD (${code})`);
      throw error;
    }
  }

  const check = guard.check(pin, channel);
  const fields = { reference: referenceId, payment: sale.paymentId, amount: sale.amount, by: who, entry };
  if (!check.ok && check.reason === 'TAMPERED') throw refusedLocked(context, referenceId, who, { reason: 'TAMPERED' });
  if (check.ok) {
    const how = `authorized by the supervisor (${where}${check.training ? ', training PIN' : ''})`;
    log.info(fields, 'void authorized by the supervisor');
    return how;
  }
  if (check.reason === 'NOT_SET') {
    throw new PosError(
      'SUPERVISOR_REQUIRED',
      'No supervisor PIN is set.',
      { reason: 'PIN_NOT_SET' },
      'Nenhuma senha de supervisor cadastrada. Cadastre em Configurações → Supervisor.',
    );
  }
  if (check.reason === 'WRONG') {
    log.warn({ ...fields, attemptsLeft: check.attemptsLeft }, 'supervisor PIN wrong; void refused');
    note(context, referenceId, `void refused: wrong supervisor PIN (${where}); ${check.attemptsLeft} attempt(s) left`);
    throw new PosError(
      'SUPERVISOR_PIN_WRONG',
      `The supervisor PIN is wrong; ${check.attemptsLeft} attempt(s) left before it locks.`,
      { attempts_left: check.attemptsLeft },
      check.attemptsLeft === 1
        ? 'Senha do supervisor incorreta. Resta 1 tentativa.'
        : `Senha do supervisor incorreta. Restam ${check.attemptsLeft} tentativas.`,
    );
  }
  log.warn(
    { ...fields, retryAfterMs: check.retryAfterMs },
    'supervisor PIN wrong too many times: locked; void refused',
  );
  note(
    context,
    referenceId,
    `void refused: wrong supervisor PIN (${where}); supervisor PIN locked for ${minutes(check.retryAfterMs)} min`,
  );
  throw lockedError(check.until, check.retryAfterMs);
}

/** A void refused under a lock in force: logged, noted in the sale's history, and said as SUPERVISOR_LOCKED. */
function refusedLocked(context: CallContext, referenceId: string, who: string, locked: SupervisorLock): PosError {
  if (locked.reason === 'TAMPERED') {
    context.log.warn(
      { reference: referenceId, by: who },
      'void refused: the supervisor PIN file was changed outside Pinbridge; set the PIN again in the window',
    );
    note(context, referenceId, 'void refused: the supervisor PIN file was changed outside Pinbridge');
    return tamperedError();
  }
  context.log.warn(
    { reference: referenceId, by: who, lockedUntil: locked.until },
    'void refused: the supervisor PIN is locked after too many wrong ones',
  );
  note(context, referenceId, `void refused: the supervisor PIN is locked until ${locked.until}`);
  return lockedError(locked.until, locked.retryAfterMs);
}

/**
 * Locked by wrong PINs: how long (retry_after_ms) and until when (locked_until, the time the
 * window counts down to: a lock read again after a restart ends when it always would have).
 */
function lockedError(until: string, retryAfterMs: number): PosError {
  const wait = minutes(retryAfterMs);
  return new PosError(
    'SUPERVISOR_LOCKED',
    `Too many wrong supervisor PINs: locked for ${wait} more minute(s), until ${until} (data.locked_until, data.retry_after_ms).`,
    { reason: 'WRONG_PINS', retry_after_ms: Math.max(0, Math.round(retryAfterMs)), locked_until: until },
    `Senha do supervisor bloqueada por excesso de tentativas erradas. Tente de novo em ${wait} ${wait === 1 ? 'minuto' : 'minutos'}.`,
  );
}

/** The PIN's file failed its seal: no PIN is taken until the supervisor sets it again in the window. */
function tamperedError(): PosError {
  return new PosError(
    'SUPERVISOR_LOCKED',
    "The supervisor PIN file was changed outside Pinbridge (its seal fails): every PIN is refused until the PIN is set again in Pinbridge's window (Configurações → Supervisor, operator.setSupervisorPin).",
    { reason: 'TAMPERED' },
    'O arquivo da senha do supervisor foi alterado fora do Pinbridge e, por segurança, a senha está bloqueada. O supervisor deve cadastrar a senha de novo em Configurações → Supervisor.',
  );
}
