/**
 * The supervisor's authorization of voids over the real POS API (settings `supervisor`
 * required_for "voids" from R$ 100,00): the window sets the PIN (never sent back, never in a
 * file in clear); a window void of an approved sale of R$ 1.234,56 without the PIN, with a wrong
 * one, and after five wrong ones is refused with a machine-readable code and a pt-BR sentence,
 * nothing voided; with the right one (typed in the window, or on the PINPAD under its fixed
 * IDENTIFICACAO prompt) it goes through, and the journal says who authorized it and how. A POS
 * is trusted unless the store says its voids need the PINPAD too; wrong PINs typed on the PINPAD
 * for a POS's voids lock the POS systems' voids, never the window's. A PIN file changed outside
 * Pinbridge locks every void until the window sets the PIN again. No PIN digit reaches the log
 * or the journal.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_MS, MAX_FAILURES, SupervisorPin, supervisorGuard } from '../../../../main/agent/supervisor-pin.js';
import type { SupervisorGuard, SupervisorPolicy } from '../../../../main/pos/server/supervisor.js';
import { artifactsDir } from '../../../helpers/card-data-scan.js';
import { testIntegrityKey } from '../../../helpers/integrity-key.js';
import { checkedCall, checkedFailure, posRig, type PosRig, type RpcClient } from '../pos-rig.js';

const STORE_PIN = '482193';
const WRONG_PIN = '907153';
/** A PIN someone who edits the file knows. */
const KNOWN_PIN = '246810';
const BIG = 123_456;
const SMALL = 5_000;

const sale = (reference: string, amount: number) => ({
  reference_id: reference,
  amount,
  payment_type: 'credit',
  installments: 1,
  description: 'Pedido',
});

/** The policy in use can change between specs: the guard reads it from here. */
let policy: SupervisorPolicy = {
  requiredFor: 'voids',
  minAmountCentavos: 10_000,
  entry: 'either',
  posVoids: 'trusted',
};
let now = Date.parse('2026-11-27T15:00:00Z');

const guardOver = (pin: SupervisorPin): SupervisorGuard => supervisorGuard(pin, () => policy);

let pos: PosRig;
let window: RpcClient;
let pinFile: string;
const open: RpcClient[] = [];

beforeAll(async () => {
  pinFile = join(mkdtempSync(join(artifactsDir(), 'supervisor-')), 'supervisor-pin');
  pos = await posRig({
    config: { confirmation: 'pos', confirmationDeadlineMs: 600_000 },
    // A dozen sales and voids in a few seconds is far faster than any cashier: a budget that the
    // simulator's quick customer cannot exhaust, so no spec here depends on the machine's speed.
    rateLimit: { capacity: 2_000, refillPerSecond: 1_000 },
    supervisor: guardOver(new SupervisorPin(pinFile, { integrity: testIntegrityKey(), now: () => now })),
    // The person at the PINPAD: a card shortly after each prompt, the store's PIN under IDENTIFICACAO.
    simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit', identification: STORE_PIN } },
  });
  window = await pos.operator();
}, 30_000);
afterEach(async () => {
  policy = { requiredFor: 'voids', minAmountCentavos: 10_000, entry: 'either', posVoids: 'trusted' };
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await window?.close();
  await pos?.close();
});

/** An approved sale, confirmed unless `confirm` is false (then it waits for the POS). */
async function approved(reference: string, amount: number, confirm = true): Promise<void> {
  // On the first PINPAD (the one whose person types the store's PIN), once others are attached too.
  const outcome = await checkedCall(window, 'payment.start', {
    ...sale(reference, amount),
    terminal: pos.pinpads[0]!.serial,
  });
  expect(outcome).toMatchObject({ status: 'approved', confirmation: 'pending' });
  if (confirm) await checkedCall(window, 'payment.confirm', { reference_id: reference });
}

type Json = Record<string, unknown>;
const stateOf = (reference: string): string | undefined => pos.rig.journal.findByReference(reference)?.state;
const notesOf = (reference: string): string[] =>
  pos.rig.journal.events(pos.rig.journal.findByReference(reference)!.id).map((event) => event.note);

describe('setting the PIN from the window', () => {
  it('says no PIN is set, keeps one as a salted hash only the window can set, and never sends it back', async () => {
    expect(await checkedCall(window, 'operator.supervisor')).toEqual({
      required_for: 'voids',
      min_amount_centavos: 10_000,
      entry: 'either',
      pos_voids: 'trusted',
      pin_set: false,
      training_pin: true,
      locked_until: null,
      pos_locked_until: null,
      tampered: false,
    });
    const pos1 = await pos.paired('Caixa 1');
    open.push(pos1);
    expect((await checkedFailure(pos1, 'operator.setSupervisorPin', { pin: STORE_PIN })).code).toBe('OPERATOR_ONLY');
    expect((await checkedFailure(window, 'operator.setSupervisorPin', { pin: '12a4' })).code).toBe('INVALID_PARAMS');
    expect(await checkedCall(window, 'operator.setSupervisorPin', { pin: STORE_PIN })).toEqual({ stored: true });
    const view = await checkedCall(window, 'operator.supervisor');
    expect(view.pin_set).toBe(true);
    expect(JSON.stringify(view)).not.toContain(STORE_PIN);
    expect(readFileSync(pinFile, 'utf8')).not.toContain(STORE_PIN);
  });
});

describe('a void from the window', () => {
  it('of R$ 1.234,56 without the PIN: SUPERVISOR_REQUIRED in Portuguese, nothing voided', async () => {
    await approved('sup-none', BIG);
    const error = await checkedFailure(window, 'payment.undo', { reference_id: 'sup-none' });
    expect(error).toMatchObject({
      code: 'SUPERVISOR_REQUIRED',
      reason: 'PIN_MISSING',
      cashier_message: 'Esta operação precisa da senha do supervisor.',
    });
    expect(stateOf('sup-none')).toBe('confirmed');
    // payment.cancel of an approval is the same void.
    expect((await checkedFailure(window, 'payment.cancel', { reference_id: 'sup-none' })).code).toBe(
      'SUPERVISOR_REQUIRED',
    );
    expect(stateOf('sup-none')).toBe('confirmed');
  });

  it('with a wrong PIN: SUPERVISOR_PIN_WRONG with the attempts left, noted in the sale’s history; then the right one voids it, authorized', async () => {
    await approved('sup-typed', BIG);
    const wrong = await checkedFailure(window, 'payment.undo', {
      reference_id: 'sup-typed',
      supervisor_pin: WRONG_PIN,
    });
    expect(wrong).toMatchObject({
      code: 'SUPERVISOR_PIN_WRONG',
      attempts_left: MAX_FAILURES - 1,
      cashier_message: 'Senha do supervisor incorreta. Restam 4 tentativas.',
    });
    expect(stateOf('sup-typed')).toBe('confirmed');
    const voided = await checkedCall(window, 'payment.undo', { reference_id: 'sup-typed', supervisor_pin: STORE_PIN });
    expect(voided).toMatchObject({
      status: 'cancelled',
      state: 'undone',
      confirmation: 'undone',
      problem: { code: 'VOIDED_BY_POS', cashier_message: 'Venda cancelada pelo caixa' },
    });
    const notes = notesOf('sup-typed');
    expect(notes).toContain('void refused: wrong supervisor PIN (PIN typed in the window); 4 attempt(s) left');
    expect(notes).toContain('undoing: VOIDED_BY_POS; authorized by the supervisor (PIN typed in the window)');
    const progress = await window.next(
      'payment.progress',
      (event) => event.reference_id === 'sup-typed' && event.step === 'undone',
    );
    expect(progress.cashier_message).toBe('Venda cancelada');
  });

  it('undoing an approval still waiting for confirmation needs the supervisor too, and reads "desfeita"', async () => {
    await approved('sup-pending', BIG, false);
    expect((await checkedFailure(window, 'payment.undo', { reference_id: 'sup-pending' })).code).toBe(
      'SUPERVISOR_REQUIRED',
    );
    expect(stateOf('sup-pending')).toBe('awaiting_confirmation');
    const undone = await checkedCall(window, 'payment.undo', {
      reference_id: 'sup-pending',
      supervisor_pin: STORE_PIN,
    });
    expect(undone).toMatchObject({
      state: 'undone',
      problem: { code: 'UNDONE_BY_POS', cashier_message: 'Venda desfeita pelo caixa antes da confirmação' },
    });
    expect(notesOf('sup-pending')).toContain(
      'undoing: UNDONE_BY_POS; authorized by the supervisor (PIN typed in the window)',
    );
    // Its progress says "desfeita" (desfazimento), not "cancelada".
    const said = await window.next(
      'payment.progress',
      (event) => event.reference_id === 'sup-pending' && event.step === 'undone',
    );
    expect(said.cashier_message).toBe('Venda desfeita; nada foi cobrado');
  });

  it('below the store’s amount (R$ 50,00 < R$ 100,00) needs no supervisor, and a repeat of a void done needs nothing', async () => {
    await approved('sup-small', SMALL);
    expect(await checkedCall(window, 'payment.undo', { reference_id: 'sup-small' })).toMatchObject({ state: 'undone' });
    expect(notesOf('sup-small')).toContain('undoing: VOIDED_BY_POS');
    expect(await checkedCall(window, 'payment.undo', { reference_id: 'sup-typed' })).toMatchObject({ state: 'undone' });
  });

  it(`locks after ${MAX_FAILURES} wrong PINs in a row: even the right one is refused until the lock ends (in Portuguese, with retry_after_ms)`, async () => {
    await approved('sup-lock', BIG);
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++) {
      expect(
        (await checkedFailure(window, 'payment.undo', { reference_id: 'sup-lock', supervisor_pin: WRONG_PIN })).code,
      ).toBe('SUPERVISOR_PIN_WRONG');
    }
    const locked = await checkedFailure(window, 'payment.undo', {
      reference_id: 'sup-lock',
      supervisor_pin: WRONG_PIN,
    });
    // When the lock ends, as well as how long from now: what the window counts down to.
    expect(locked).toMatchObject({
      code: 'SUPERVISOR_LOCKED',
      reason: 'WRONG_PINS',
      retry_after_ms: LOCK_MS,
      locked_until: new Date(now + LOCK_MS).toISOString(),
      cashier_message: 'Senha do supervisor bloqueada por excesso de tentativas erradas. Tente de novo em 5 minutos.',
    });
    now += 90_000;
    const stillLocked = await checkedFailure(window, 'payment.undo', {
      reference_id: 'sup-lock',
      supervisor_pin: STORE_PIN,
    });
    // Asked again later: the same end, and less time to wait.
    expect(stillLocked).toMatchObject({
      code: 'SUPERVISOR_LOCKED',
      retry_after_ms: LOCK_MS - 90_000,
      locked_until: new Date(now - 90_000 + LOCK_MS).toISOString(),
      cashier_message: 'Senha do supervisor bloqueada por excesso de tentativas erradas. Tente de novo em 4 minutos.',
    });
    now -= 90_000;
    expect((await checkedCall(window, 'operator.supervisor')).locked_until).toBe(new Date(now + LOCK_MS).toISOString());
    expect(stateOf('sup-lock')).toBe('confirmed');
    expect(notesOf('sup-lock').filter((note) => note.startsWith('void refused'))).toHaveLength(MAX_FAILURES + 1);
    now += LOCK_MS;
    expect(
      await checkedCall(window, 'payment.undo', { reference_id: 'sup-lock', supervisor_pin: STORE_PIN }),
    ).toMatchObject({ state: 'undone' });
  });

  it('with the PIN typed on the PINPAD: asked under IDENTIFICACAO, then voided, authorized "on the PINPAD"', async () => {
    await approved('sup-pinpad', BIG);
    const sim = pos.pinpads[0]!.sim;
    const shown: string[] = [];
    const watch = ({ lines }: { lines: readonly string[] }): void => void shown.push(lines.join('|'));
    sim.on('display', watch);
    try {
      const voided = await checkedCall(window, 'payment.undo', {
        reference_id: 'sup-pinpad',
        supervisor_entry: 'pinpad',
      });
      expect(voided).toMatchObject({ state: 'undone', problem: { code: 'VOIDED_BY_POS' } });
    } finally {
      sim.off('display', watch);
    }
    expect(shown.some((lines) => lines.startsWith('IDENTIFICACAO'))).toBe(true);
    expect(notesOf('sup-pinpad')).toContain(
      `undoing: VOIDED_BY_POS; authorized by the supervisor (PIN typed on the PINPAD ${pos.pinpads[0]!.serial})`,
    );
  });

  it('where the store takes the PIN on the PINPAD only, a PIN typed in the window is refused', async () => {
    policy = { ...policy, entry: 'pinpad' };
    await approved('sup-pinpad-only', BIG);
    const error = await checkedFailure(window, 'payment.undo', {
      reference_id: 'sup-pinpad-only',
      supervisor_pin: STORE_PIN,
    });
    expect(error).toMatchObject({
      code: 'SUPERVISOR_REQUIRED',
      reason: 'PINPAD_ONLY',
      cashier_message: 'A senha do supervisor deve ser digitada no PINPAD.',
    });
    // Without saying where, the PINPAD asks by itself.
    expect(await checkedCall(window, 'payment.undo', { reference_id: 'sup-pinpad-only' })).toMatchObject({
      state: 'undone',
    });
  });
});

describe('a void from a POS', () => {
  it('is trusted by default: the POS runs its own supervisor step', async () => {
    const cashier = await pos.paired('Caixa confiável');
    open.push(cashier);
    await checkedCall(cashier, 'payment.start', sale('sup-pos-trusted', BIG));
    expect(await checkedCall(cashier, 'payment.undo', { reference_id: 'sup-pos-trusted' })).toMatchObject({
      state: 'undone',
    });
  });

  it('needs the supervisor on the PINPAD where the store says so', async () => {
    policy = { ...policy, posVoids: 'pinpad' };
    const cashier = await pos.paired('Caixa com supervisor');
    open.push(cashier);
    await checkedCall(cashier, 'payment.start', sale('sup-pos-pinpad', BIG));
    await checkedCall(cashier, 'payment.confirm', { reference_id: 'sup-pos-pinpad' });
    expect(await checkedCall(cashier, 'payment.undo', { reference_id: 'sup-pos-pinpad' })).toMatchObject({
      state: 'undone',
    });
    expect(notesOf('sup-pos-pinpad')).toContain(
      `undoing: VOIDED_BY_POS; authorized by the supervisor (PIN typed on the PINPAD ${pos.pinpads[0]!.serial})`,
    );
  });
});

describe('the supervisor at the PINPAD who presses CANCEL', () => {
  it('gets PINPAD_CANCELLED: nothing voided, the attempt logged and noted', async () => {
    // A PINPAD of its own whose person cancels the prompt (the other specs' PINPAD types the PIN).
    await checkedCall(window, 'operator.setSupervisorPin', { pin: STORE_PIN });
    const cancelling = await pos.addPinpad('POS0000000000002', {
      autoCustomer: { delayMs: 30, card: 'visaCredit', identification: '{cancel}' },
    });
    const outcome = await checkedCall(window, 'payment.start', {
      ...sale('sup-cancelled', BIG),
      terminal: cancelling.serial,
    });
    expect(outcome).toMatchObject({ status: 'approved' });
    await checkedCall(window, 'payment.confirm', { reference_id: 'sup-cancelled' });
    const error = await checkedFailure(window, 'payment.undo', {
      reference_id: 'sup-cancelled',
      supervisor_entry: 'pinpad',
    });
    expect(error).toMatchObject({ code: 'PINPAD_CANCELLED', cashier_message: 'Operação cancelada no PINPAD.' });
    expect(stateOf('sup-cancelled')).toBe('confirmed');
    expect(notesOf('sup-cancelled')).toContain(
      'void refused: no supervisor PIN typed on the PINPAD (PINPAD_CANCELLED)',
    );
    expect(readFileSync(pos.rig.logPath, 'utf8')).toContain(
      'void not authorized: no supervisor PIN came from the PINPAD',
    );
  });
});

describe("a POS's voids with the PIN on the PINPAD, and the window's", () => {
  it("are locked apart: wrong PINs typed on the PINPAD for a POS's void lock the POS systems' voids, while the window still voids with the right PIN", async () => {
    policy = { ...policy, posVoids: 'pinpad' };
    await checkedCall(window, 'operator.setSupervisorPin', { pin: STORE_PIN });
    // A PINPAD whose person types a wrong PIN at every prompt.
    const guessing = await pos.addPinpad('POS0000000000003', {
      autoCustomer: { delayMs: 30, card: 'visaCredit', identification: WRONG_PIN },
    });
    const cashier = await pos.paired('Caixa que erra');
    open.push(cashier);
    await checkedCall(cashier, 'payment.start', { ...sale('sup-pos-guess', BIG), terminal: guessing.serial });
    await checkedCall(cashier, 'payment.confirm', { reference_id: 'sup-pos-guess' });
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect((await checkedFailure(cashier, 'payment.undo', { reference_id: 'sup-pos-guess' })).code).toBe(
        'SUPERVISOR_PIN_WRONG',
      );
    expect(await checkedFailure(cashier, 'payment.undo', { reference_id: 'sup-pos-guess' })).toMatchObject({
      code: 'SUPERVISOR_LOCKED',
      reason: 'WRONG_PINS',
      retry_after_ms: LOCK_MS,
    });
    const view = await checkedCall(window, 'operator.supervisor');
    expect(view.pos_locked_until).toBe(new Date(now + LOCK_MS).toISOString());
    expect(view.locked_until).toBeNull();
    expect(stateOf('sup-pos-guess')).toBe('confirmed');

    // The store's window is not locked out by it.
    await approved('sup-window-free', BIG);
    expect(
      await checkedCall(window, 'payment.undo', { reference_id: 'sup-window-free', supervisor_pin: STORE_PIN }),
    ).toMatchObject({ state: 'undone' });
    // And the window may still void the POS's sale it could not.
    expect(
      await checkedCall(window, 'payment.undo', { reference_id: 'sup-pos-guess', supervisor_pin: STORE_PIN }),
    ).toMatchObject({ state: 'undone' });
    now += LOCK_MS;
  });
});

describe('a PIN file changed outside Pinbridge', () => {
  it('locks every void (window and POS) with a sentence that says what happened and what to do, until the window sets the PIN again', async () => {
    await checkedCall(window, 'operator.setSupervisorPin', { pin: STORE_PIN });
    await approved('sup-tampered', BIG);
    // The same OS user writes in the hash of a PIN they know (made by a Pinbridge of their own): the seal no longer fits.
    const theirs = join(mkdtempSync(join(artifactsDir(), 'supervisor-theirs-')), 'supervisor-pin');
    new SupervisorPin(theirs, { integrity: testIntegrityKey() }).set(KNOWN_PIN);
    const edited = JSON.parse(readFileSync(pinFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(pinFile, JSON.stringify({ ...edited, pin: (JSON.parse(readFileSync(theirs, 'utf8')) as Json).pin }));
    const refused = await checkedFailure(window, 'payment.undo', {
      reference_id: 'sup-tampered',
      supervisor_pin: KNOWN_PIN,
    });
    expect(refused).toMatchObject({
      code: 'SUPERVISOR_LOCKED',
      reason: 'TAMPERED',
      cashier_message:
        'O arquivo da senha do supervisor foi alterado fora do Pinbridge e, por segurança, a senha está bloqueada. O supervisor deve cadastrar a senha de novo em Configurações → Supervisor.',
    });
    expect(refused).not.toHaveProperty('retry_after_ms');
    expect(refused).not.toHaveProperty('locked_until');
    expect(stateOf('sup-tampered')).toBe('confirmed');
    expect(notesOf('sup-tampered')).toContain('void refused: the supervisor PIN file was changed outside Pinbridge');
    expect(await checkedCall(window, 'operator.supervisor')).toMatchObject({ tampered: true, pin_set: false });
    // The POS systems' voids too, before anything is asked on the PINPAD.
    policy = { ...policy, posVoids: 'pinpad' };
    const cashier = await pos.paired('Caixa depois da edição');
    open.push(cashier);
    await checkedCall(cashier, 'payment.start', { ...sale('sup-tampered-pos', BIG), terminal: pos.pinpads[0]!.serial });
    expect(await checkedFailure(cashier, 'payment.undo', { reference_id: 'sup-tampered-pos' })).toMatchObject({
      code: 'SUPERVISOR_LOCKED',
      reason: 'TAMPERED',
    });

    // The way back: the supervisor sets the PIN again in the window.
    await checkedCall(window, 'operator.setSupervisorPin', { pin: STORE_PIN });
    expect(await checkedCall(window, 'operator.supervisor')).toMatchObject({ tampered: false, pin_set: true });
    expect(
      await checkedCall(window, 'payment.undo', { reference_id: 'sup-tampered', supervisor_pin: STORE_PIN }),
    ).toMatchObject({ state: 'undone' });
  });
});

describe('what is written down', () => {
  it('never holds a digit of the PINs typed: not the log, not the journal file', () => {
    const journalFiles = [pos.rig.journalPath, `${pos.rig.journalPath}-wal`].filter((file) => existsSync(file));
    const log = readFileSync(pos.rig.logPath, 'utf8');
    expect(log).toContain('void authorized by the supervisor');
    expect(log).toContain('supervisor PIN wrong; void refused');
    for (const pin of [STORE_PIN, WRONG_PIN, KNOWN_PIN]) {
      expect(log, pin).not.toContain(pin);
      for (const file of journalFiles)
        expect(readFileSync(file).includes(Buffer.from(pin)), `${pin} in ${file}`).toBe(false);
    }
  });
});
