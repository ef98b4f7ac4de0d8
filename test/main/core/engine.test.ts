import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { Journal, JournalError } from '../../../main/core/journal/journal.js';
import { ConnectionError } from '../../../main/api/index.js';
import { EngineError } from '../../../main/core/errors.js';
import { BRIEF_OPERATION_WAIT_MS } from '../../../main/core/engine/start.js';
import { centavos } from '../../../main/core/money.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import { problem } from '../../../main/core/problems.js';
import type { PaymentsPort } from '../../../main/core/ports.js';
import { TEST_CARDS } from '../../../drivers/simulator/index.js';
import { FakeScheduler } from '../../helpers/fake-scheduler.js';
import { displayed, engineRig, progressed, saleParams, type EngineRig, type RigOptions } from './engine-rig.js';

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function open(options: RigOptions = {}, card = 'visaCredit'): Promise<EngineRig> {
  rig = await engineRig({ simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card } }, ...options });
  await rig.addPinpad('PB-ENGINE-1');
  return rig;
}

const sale = (overrides: Partial<SaleRequest> = {}): SaleRequest => saleParams('sale', overrides);

describe('a PINPAD payment, driver ⇄ simulator ⇄ sandbox', () => {
  it('approves a chip credit sale and confirms it by the auto policy', async () => {
    const { engine, client, journal, events } = await open();
    const params = sale();
    const outcome = await engine.start(params);
    expect(outcome).toMatchObject({
      status: 'approved',
      state: 'confirmed',
      confirmation: 'confirmed',
      amount: 1990,
      installments: 1,
      card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' },
    });
    expect(outcome.authorizationCode).toMatch(/^[0-9]{6}$/);
    expect(outcome.nsu).toMatch(/^[0-9]+$/);
    const transaction = await client.transactions.retrieve(outcome.transactionId!);
    expect(transaction).toMatchObject({
      status: 'succeeded',
      reference_id: params.referenceId,
      terminal: 'PB-ENGINE-1',
      amount: 1990,
    });
    // What the receipts print: how the cardholder was verified, the transaction number, the acquirer.
    expect(journal.get(outcome.paymentId)).toMatchObject({
      card: { verification: 'online_pin' },
      authorization: { transactionNumber: transaction.transaction_number, acquirer: 'sandbox' },
    });
    // Every step journaled, in order.
    const states = journal.events(outcome.paymentId).map((event) => event.to);
    expect(states.filter((state, i) => state !== states[i - 1])).toEqual([
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
      'confirmed',
    ]);
    const steps = events.filter((e) => e.referenceId === params.referenceId).map((e) => e.step);
    for (const step of [
      'started',
      'creating_transaction',
      'waiting_card',
      'card_read',
      'authorizing',
      'approved',
      'confirmed',
    ] as const) {
      expect(steps).toContain(step);
    }
    expect(steps).toContain('pinpad_message');
    expect(events.every((e) => e.cashierMessage.length > 0)).toBe(true);
    // Nobody is waited for under `auto`: the approval step does not say "aguardando confirmação".
    const approval = events.find((e) => e.referenceId === params.referenceId && e.step === 'awaiting_confirmation');
    expect(approval).toMatchObject({ message: 'Approved; confirmed automatically', cashierMessage: 'Aprovada' });
  });

  it.each([
    [10051, '51', 'insufficient_funds', 'Saldo insuficiente', 'NAO AUTORIZADA'],
    [
      10005,
      '05',
      'do_not_honor',
      'Não autorizada pelo emissor. O cliente deve contatar a central do cartão',
      'NAO AUTORIZADA\nCONTATE EMISSOR',
    ],
    [10054, '54', 'expired_card', 'Cartão vencido', 'NAO AUTORIZADA\nCARTAO VENCIDO'],
    [10055, '55', 'incorrect_pin', 'Senha inválida', 'NAO AUTORIZADA\nSENHA INVALIDA'],
    [
      10057,
      '57',
      'transaction_not_allowed',
      'Transação não permitida para este cartão',
      'NAO AUTORIZADA\nNAO PERMITIDA',
    ],
    [
      10059,
      '59',
      'suspected_fraud',
      'Não autorizada (suspeita de fraude). O cliente deve contatar a central do cartão',
      'NAO AUTORIZADA\nCONTATE EMISSOR',
    ],
    [
      10091,
      '91',
      'issuer_unavailable',
      'Emissor do cartão fora do ar: tente novamente em instantes',
      'NAO AUTORIZADA\nTENTE NOVAMENTE',
    ],
  ])(
    'ends a sale of %i centavos declined by the issuer (%s: %s), telling the POS why, the cashier in Portuguese and the customer on the PINPAD',
    async (amount, issuerCode, declineCode, cashierMessage, pinpadText) => {
      const { engine, client, journal, pinpads } = await open();
      const sim = pinpads[0]!.sim;
      const shown: string[] = [];
      sim.on('display', ({ lines }: { lines: readonly string[] }) =>
        shown.push(
          lines
            .map((line) => line.trim())
            .join('\n')
            .trimEnd(),
        ),
      );
      const outcome = await engine.start(sale({ amount: centavos(amount) }));
      expect(outcome).toMatchObject({
        status: 'declined',
        state: 'declined',
        declineCode: declineCode,
        issuerResponseCode: issuerCode,
        problem: { code: 'CARD_DECLINED', cashierMessage: cashierMessage },
      });
      expect(outcome.problem?.message).toContain(`(${issuerCode})`);
      expect(journal.get(outcome.paymentId)?.problem).toMatchObject({ declineCode, issuerCode });
      expect(shown, JSON.stringify(shown)).toContain(pinpadText);
      expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('failed');
    },
  );

  it('reverses at once when the card refuses after the online approval', async () => {
    const { engine, client } = await open({}, 'visaRefuseAfterOnline');
    const outcome = await engine.start(sale());
    expect(outcome).toMatchObject({ status: 'declined', state: 'reversed', problem: { code: 'CHIP_REFUSED' } });
    expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('reversed');
  });

  it('cancels the pending transaction when the card declines offline', async () => {
    const { engine, client } = await open({}, 'visaOfflineDeclined');
    const outcome = await engine.start(sale());
    expect(outcome).toMatchObject({
      status: 'declined',
      state: 'declined',
      problem: { code: 'CARD_DECLINED_OFFLINE' },
    });
    expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('canceled');
  });

  it('approves a debit sale with a debit card, and a contactless credit sale', async () => {
    const { engine } = await open({}, 'visaDebit');
    expect(await engine.start(sale({ paymentType: 'debit', installments: undefined }))).toMatchObject({
      status: 'approved',
      installments: null,
    });
    await rig!.close();
    rig = undefined;
    const contactless = await open({}, 'visaContactless');
    expect(await contactless.engine.start(sale())).toMatchObject({
      status: 'approved',
      card: { entryMode: 'contactless_chip' },
    });
  });

  it('hands the PINPAD a credit card for a debit sale unless the scripted customer matches the application (training mode does)', async () => {
    const plain = await open();
    expect(await plain.engine.start(sale({ paymentType: 'debit', installments: undefined }))).toMatchObject({
      status: 'failed',
      problem: { code: 'UNSUPPORTED_CARD' },
    });
    await plain.close();
    rig = await engineRig({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit', matchApplication: true } },
    });
    await rig.addPinpad('PB-ENGINE-1');
    expect(await rig.engine.start(sale({ paymentType: 'debit', installments: undefined }))).toMatchObject({
      status: 'approved',
      card: { maskedPan: '400005******5556' },
    });
    expect(await rig.engine.start(sale())).toMatchObject({
      status: 'approved',
      card: { maskedPan: '411111******1111' },
    });
  });

  it('lets the customer choose the installments on the PINPAD when the POS leaves them open', async () => {
    rig = await engineRig({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit', keys: '3' } },
    });
    await rig.addPinpad('PB-ENGINE-1');
    const outcome = await rig.engine.start(sale({ amount: centavos(30000), installments: undefined }));
    expect(outcome).toMatchObject({ status: 'approved', installments: 3 });
    const transaction = await rig.client.transactions.retrieve(outcome.transactionId!);
    expect(transaction.installment_plan?.number_installments).toBe(3);
  });

  it('asks for the CPF on the keypad when told to, and keeps it for the receipt', async () => {
    rig = await engineRig({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit', cpf: '52998224725' } },
    });
    await rig.addPinpad('PB-ENGINE-1');
    const outcome = await rig.engine.start(sale({ askTaxId: true }));
    expect(outcome).toMatchObject({ status: 'approved', customerTaxId: '52998224725' });
  });
});

describe('cancelling and failing at each step', () => {
  it('cancels from the POS while the PINPAD waits for the card (CAN), and cancels the transaction', async () => {
    rig = await engineRig({ simulator: { timeScale: 0.05 } });
    const { sim } = await rig.addPinpad('PB-ENGINE-1');
    const params = sale();
    const running = rig.engine.start(params);
    await progressed(rig.engine, params.referenceId, 'waiting_card');
    await displayed(sim, /R\$/);
    const cancelled = await rig.engine.cancel(params.referenceId);
    expect(cancelled).toMatchObject({ status: 'cancelled', state: 'cancelled', problem: { code: 'CANCELLED_BY_POS' } });
    expect(await running).toEqual(cancelled);
    expect((await rig.client.transactions.retrieve(cancelled.transactionId!)).status).toBe('canceled');
  });

  it('ends as cancelled when the customer presses CANCEL at the PIN', async () => {
    rig = await engineRig({ simulator: { timeScale: 0.05 } });
    const { sim } = await rig.addPinpad('PB-ENGINE-1');
    sim.insertCard('visaCredit');
    const running = rig.engine.start(sale());
    await displayed(sim, /SENHA/);
    sim.keypad.press('cancel');
    // The chip card is still in the slot: the PINPAD asks for it back.
    await displayed(sim, /RETIRE/);
    sim.removeCard();
    expect(await running).toMatchObject({ status: 'cancelled', problem: { code: 'CANCELLED_BY_CUSTOMER' } });
  });

  it('fails with CARD_TIMEOUT when no card comes in time', async () => {
    rig = await engineRig({ simulator: { timeScale: 0.05 }, timeouts: { cardMs: 300 } });
    await rig.addPinpad('PB-ENGINE-1');
    const outcome = await rig.engine.start(sale());
    expect(outcome).toMatchObject({ status: 'failed', state: 'failed', problem: { code: 'CARD_TIMEOUT' } });
    expect((await rig.client.transactions.retrieve(outcome.transactionId!)).status).toBe('canceled');
  });

  it('fails with CARD_REMOVED when the card leaves the slot mid-way, with nothing charged', async () => {
    const { engine, client } = await open({}, 'visaRemovedEarly');
    const outcome = await engine.start(sale());
    expect(outcome.status).not.toBe('approved');
    expect(outcome.problem?.code).toMatch(/CARD_REMOVED|CARD_ERROR/);
    expect(['canceled', 'reversed', 'failed']).toContain(
      (await client.transactions.retrieve(outcome.transactionId!)).status,
    );
  });
});

describe('exactly once', () => {
  it('returns the same payment for the same reference and parameters, without a second transaction', async () => {
    const { engine, client } = await open();
    const params = sale();
    const first = await engine.start(params);
    const again = await engine.start({ ...params });
    expect(again).toEqual(first);
    const list = await client.transactions.list({ reference_id: params.referenceId });
    expect(list.items).toHaveLength(1);
  });

  it('refuses the same reference with other parameters (REFERENCE_CONFLICT)', async () => {
    const { engine } = await open();
    const params = sale();
    await engine.start(params);
    const error = await engine.start({ ...params, amount: centavos(2990) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'REFERENCE_CONFLICT' });
  });

  it('waits out a message on the display (one command) instead of BUSY, and is BUSY while the PINPAD waits on the customer', async () => {
    const { engine } = await open();
    // A message: the sale starts once its command is done, and is approved.
    let shown = (): void => undefined;
    const message = engine.withTerminal('PB-ENGINE-1', () => new Promise<void>((resolve) => (shown = resolve)), {
      brief: true,
    });
    const started = engine.start(sale());
    expect(engine.terminals()[0]).toMatchObject({ busy: true, payment: null });
    shown();
    await message;
    await expect(started).resolves.toMatchObject({ status: 'approved' });
    // A key the customer is to press is not brief: a sale meanwhile is refused at once.
    let pressed = (): void => undefined;
    const key = engine.withTerminal('PB-ENGINE-1', () => new Promise<void>((resolve) => (pressed = resolve)));
    await expect(engine.start(sale())).rejects.toMatchObject({
      code: 'BUSY',
      message: expect.stringContaining('busy with another operation') as unknown,
    });
    pressed();
    await key;
  });

  it('stops a brief operation that yields to a payment (a Pix QR being loaded), waits for it, then sells', async () => {
    const { engine } = await open();
    const steps: string[] = [];
    const load = engine.withTerminal(
      'PB-ENGINE-1',
      (_serial, signal) =>
        new Promise<void>((resolve, reject) => {
          signal.addEventListener('abort', () => {
            steps.push('load aborted');
            // The driver answers the packet in flight first, then discards the partial file.
            setTimeout(() => {
              steps.push('load ended');
              reject(new Error('CANCELLED'));
            }, 50);
          });
        }),
      { brief: true, yieldsToPayment: true },
    );
    const started = engine.start(sale()).then((outcome) => {
      steps.push('sale ended');
      return outcome;
    });
    await expect(load).rejects.toThrow('CANCELLED');
    await expect(started).resolves.toMatchObject({ status: 'approved' });
    expect(steps).toEqual(['load aborted', 'load ended', 'sale ended']);
  });

  it('waits for a yielding operation however long it takes to stop (a slow PINPAD), never BUSY', async () => {
    // The engine's clock is a FakeScheduler: the 3 s a message gets pass when the spec says.
    const scheduler = new FakeScheduler();
    const { engine } = await open({ scheduler, now: scheduler.date });
    let stopped = (): void => undefined;
    const load = engine.withTerminal(
      'PB-ENGINE-1',
      (_serial, signal) =>
        new Promise<void>((_resolve, reject) => {
          // The packet in flight, then MLE and DMF, each answered late: the load ends when the spec says.
          signal.addEventListener('abort', () => (stopped = () => reject(new Error('CANCELLED'))));
        }),
      { brief: true, yieldsToPayment: true },
    );
    const started = engine.start(sale());
    await scheduler.advance(BRIEF_OPERATION_WAIT_MS + 1_000);
    // Still waiting for the load, not refused.
    expect(engine.terminals()[0]).toMatchObject({ busy: true, payment: null });
    stopped();
    await expect(load).rejects.toThrow('CANCELLED');
    await expect(started).resolves.toMatchObject({ status: 'approved' });
  });

  it('answers BUSY for a second sale on a PINPAD that is running one, and serves another PINPAD in parallel', async () => {
    rig = await engineRig({ simulator: { timeScale: 0.05 } });
    const first = await rig.addPinpad('PB-ENGINE-1');
    const second = await rig.addPinpad('PB-ENGINE-2');
    const one = rig.engine.start(sale({ terminal: first.serial }));
    const busy = await rig.engine.start(sale({ terminal: first.serial })).catch((e: unknown) => e);
    expect(busy).toMatchObject({ code: 'BUSY' });
    const two = rig.engine.start(sale({ terminal: second.serial }));
    first.sim.insertCard('visaCredit');
    second.sim.insertCard('mastercardCredit');
    await Promise.all([displayed(first.sim, /SENHA/), displayed(second.sim, /SENHA/)]);
    for (const p of [first, second]) {
      p.sim.keypad.type('1234');
      p.sim.keypad.press('enter');
    }
    const removal = Promise.all([displayed(first.sim, /RETIRE/), displayed(second.sim, /RETIRE/)]).then(() => {
      first.sim.removeCard();
      second.sim.removeCard();
    });
    const [a, b] = await Promise.all([one, two]);
    await removal;
    expect(a).toMatchObject({ status: 'approved', terminal: 'PB-ENGINE-1' });
    expect(b).toMatchObject({ status: 'approved', terminal: 'PB-ENGINE-2', card: { brand: 'mastercard' } });
    // The PINPAD is free again.
    expect(rig.engine.terminals().every((t) => !t.busy)).toBe(true);
  });

  it('learns a lost authorization answer from the API instead of authorizing again', async () => {
    // The authorization outlasts the API timeout; the calls before it fit well inside it, even on a
    // loaded machine.
    const { engine, client, journal } = await open({ slowAuthorizationMs: 4_000, config: { apiTimeoutMs: 1_500 } });
    const outcome = await engine.start(sale({ amount: centavos(10096) }));
    const states = journal.events(outcome.paymentId).map((event) => event.to);
    expect(states).toContain('unknown');
    expect(outcome.status).toBe('approved');
    const transaction = await client.transactions.retrieve(outcome.transactionId!);
    expect(transaction.status).toBe('succeeded');
    expect(transaction.history.filter((entry) => entry.operation_type === 'authorization')).toHaveLength(1);
  });

  it('tells the chip the host never answered (FCX "no host response") when the authorization is lost before the API had it', async () => {
    const { engine, pinpads } = await open({
      payments: (client) => ({
        transactions: client.transactions,
        terminal: {
          pendingTransactions: (serial, options) => client.terminal.pendingTransactions(serial, options),
          authorize: () => Promise.reject(networkDown()),
          complete: (id, request, options) => client.terminal.complete(id, request, options),
          reverse: (id, request, options) => client.terminal.reverse(id, request, options),
          void: (id, request, options) => client.terminal.void(id, request, options),
        },
      }),
    });
    const commands: string[] = [];
    pinpads[0]!.deviceLink.on('trace', (trace) => {
      if (trace.direction === 'in' && trace.kind === 'packet' && trace.command !== undefined)
        commands.push(trace.command);
    });
    const outcome = await engine.start(sale());
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'AUTHORIZATION_NOT_RECEIVED' } });
    // GOX's ARQC is answered: FCX before the card is asked out (RMC).
    expect(commands.slice(commands.indexOf('GOX'))).toEqual(['GOX', 'FCX', 'RMC', 'DSP']);
  });

  it('tells status: NotFound, InProgress, then Processed with the result', async () => {
    rig = await engineRig({ simulator: { timeScale: 0.05 } });
    const { sim } = await rig.addPinpad('PB-ENGINE-1');
    const params = sale();
    expect(rig.engine.status(params.referenceId)).toEqual({ kind: 'not_found' });
    const running = rig.engine.start(params);
    await progressed(rig.engine, params.referenceId, 'waiting_card');
    expect(rig.engine.status(params.referenceId)).toMatchObject({ kind: 'in_progress' });
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    await displayed(sim, /RETIRE/);
    sim.removeCard();
    const outcome = await running;
    expect(rig.engine.status(params.referenceId)).toEqual({ kind: 'processed', outcome });
  });
});

describe('the answer waits for the disk', () => {
  it('journals the approval while the customer takes the card out, and tells no one (answer, events, status) before it is on the disk', async () => {
    rig = await engineRig({ simulator: { timeScale: 0.05 } });
    const { sim } = await rig.addPinpad('PB-ENGINE-1');
    const journal = rig.journal;
    // The journal's fsync held until the test lets it go.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const flush = journal.flush.bind(journal);
    journal.flush = () => flush().then(() => gate);
    // A failed expectation must not leave the run (and the rig's close) waiting for ever.
    onTestFinished(() => release());
    const params = sale();
    let answered = false;
    const running = rig.engine.start(params).then((outcome) => {
      answered = true;
      return outcome;
    });
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    // The PINPAD asks for the card back with the approval already committed…
    await displayed(sim, /RETIRE/);
    expect(journal.findByReference(params.referenceId)?.state).toBe('confirmed');
    expect(rig.engine.status(params.referenceId)).toMatchObject({ kind: 'in_progress', state: 'confirmed' });
    sim.removeCard();
    await displayed(sim, /APROVADA/);
    // …but until the fsync is done, neither the POS's answer nor the progress events go out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    const steps = (): string[] => rig!.events.filter((e) => e.referenceId === params.referenceId).map((e) => e.step);
    expect(steps()).not.toContain('awaiting_confirmation');
    expect(steps()).not.toContain('confirmed');
    expect(rig.engine.status(params.referenceId)).toMatchObject({ kind: 'in_progress' });
    release();
    const outcome = await running;
    expect(outcome).toMatchObject({ status: 'approved', state: 'confirmed' });
    expect(rig.engine.status(params.referenceId)).toEqual({ kind: 'processed', outcome });
    expect(steps().slice(-3)).toEqual(['removing_card', 'awaiting_confirmation', 'confirmed']);
  });

  it('ends the payment as journaled, and keeps serving, when the fsync fails', async () => {
    const { engine, journal, sim } = await open().then((r) => ({ ...r, sim: r.pinpads[0]!.sim }));
    const flush = journal.flush.bind(journal);
    journal.flush = () => Promise.reject(new JournalError('IO', 'the disk refused the fsync (test)'));
    const failed = await engine.start(sale());
    // The approval stands at the API and in the journal; the log says the run failed.
    expect(failed).toMatchObject({ status: 'approved', state: 'confirmed' });
    expect(readFileSync(rig!.logPath, 'utf8')).toContain('the disk refused the fsync (test)');
    journal.flush = flush;
    expect(sim.display.lines.join(' ')).toMatch(/APROVADA/);
    expect(await engine.start(sale())).toMatchObject({ status: 'approved', state: 'confirmed' });
  });
});

describe('the confirmation policy "pos"', () => {
  it('waits for the POS: confirm makes it stand; undo voids it', async () => {
    const { engine, client, events } = await open({ config: { confirmation: 'pos', confirmationDeadlineMs: 60_000 } });
    const kept = await engine.start(sale());
    expect(kept).toMatchObject({ status: 'approved', state: 'awaiting_confirmation', confirmation: 'pending' });
    expect(events.find((e) => e.referenceId === kept.referenceId && e.step === 'awaiting_confirmation')).toMatchObject({
      message: 'Approved; waiting for the POS to confirm',
      cashierMessage: 'Aprovada; aguardando confirmação',
    });
    expect(await engine.confirm(kept.referenceId)).toMatchObject({ state: 'confirmed' });

    const dropped = await engine.start(sale());
    const undone = await engine.undo(dropped.referenceId);
    expect(undone).toMatchObject({ status: 'cancelled', state: 'undone', confirmation: 'undone' });
    const transaction = await client.transactions.retrieve(dropped.transactionId!);
    expect(transaction).toMatchObject({ status: 'canceled', voided: true });
  });

  it('voids an approval the POS did not confirm before the deadline', async () => {
    // 1.5 s: a deadline shorter than a loaded machine's answer to the sale passes before the POS hears it.
    const { engine, client } = await open({ config: { confirmation: 'pos', confirmationDeadlineMs: 1_500 } });
    const outcome = await engine.start(sale());
    expect(outcome.state).toBe('awaiting_confirmation');
    await expect
      .poll(() => engine.status(outcome.referenceId), { timeout: 10_000 })
      .toMatchObject({
        kind: 'processed',
        outcome: { state: 'undone', problem: { code: 'NOT_CONFIRMED' } },
      });
    expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('canceled');
  });

  it('voids at once, after a restart, an approval whose deadline passed while the agent was down; a late confirm is refused', async () => {
    // The engine's clock is a FakeScheduler: the deadline passes when the spec says, not when a
    // loaded machine gets round to it.
    const scheduler = new FakeScheduler();
    const { engine, client } = await open({
      config: { confirmation: 'pos', confirmationDeadlineMs: 150 },
      scheduler,
      now: scheduler.date,
    });
    const outcome = await engine.start(sale());
    expect(outcome).toMatchObject({ state: 'awaiting_confirmation' });
    // The agent stops (its deadline timer with it) and comes back after the deadline.
    await rig!.engine.close();
    await scheduler.advance(250);
    const restarted = await rig!.restart();
    const report = await restarted.recover();
    expect(report).toMatchObject({ found: 1, settled: 1 });
    expect(restarted.status(outcome.referenceId)).toMatchObject({
      kind: 'processed',
      outcome: { state: 'undone', problem: { code: 'NOT_CONFIRMED' } },
    });
    expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('canceled');
    await expect(restarted.confirm(outcome.referenceId)).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  it('refuses to confirm a declined sale (INVALID_STATE)', async () => {
    const { engine } = await open();
    const declined = await engine.start(sale({ amount: centavos(10051) }));
    await expect(engine.confirm(declined.referenceId)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(engine.confirm('no-such-sale')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

/** The real client, with chosen calls failing as if the network were down. */
const networkDown = (): ConnectionError =>
  new ConnectionError({ message: 'network down (test)', method: 'POST', path: '/v1/…' });

function flaky(client: PaymentsPort, down: { reverse: boolean; void: boolean }): PaymentsPort {
  return {
    transactions: client.transactions,
    terminal: {
      pendingTransactions: (serial, options) => client.terminal.pendingTransactions(serial, options),
      authorize: (id, request, options) => client.terminal.authorize(id, request, options),
      complete: (id, request, options) => client.terminal.complete(id, request, options),
      reverse: async (id, request, options) => {
        if (down.reverse) throw networkDown();
        return client.terminal.reverse(id, request, options);
      },
      void: async (id, request, options) => {
        if (down.void) throw networkDown();
        return client.terminal.void(id, request, options);
      },
    },
  };
}

describe('the undo queue', () => {
  it('keeps a reversal the API did not take, visibly, and lands it once the API is back', async () => {
    const down = { reverse: true, void: false };
    const { engine, client } = await open({ payments: (c) => flaky(c, down) }, 'visaRefuseAfterOnline');
    const outcome = await engine.start(sale());
    expect(outcome).toMatchObject({ status: 'declined', state: 'reversing' });
    expect(engine.pending().undos.map((u) => u.referenceId)).toEqual([outcome.referenceId]);
    expect(rig!.events.some((e) => e.step === 'undo_pending')).toBe(true);
    down.reverse = false;
    await expect
      .poll(() => engine.status(outcome.referenceId), { timeout: 5_000 })
      .toMatchObject({ outcome: { state: 'reversed' } });
    expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('reversed');
    expect(engine.pending().undos).toEqual([]);
  });
});

describe('recovery after a restart', () => {
  it('cancels a transaction created before the crash and never authorized', async () => {
    const { client, sandbox } = await open();
    const { journal } = rig!;
    const intent = journal.createIntent({
      referenceId: 'crashed-1',
      source: 'pos',
      terminal: 'PB-ENGINE-1',
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'x',
      notification: null,
      paramsHash: 'h',
      confirmation: 'auto',
    });
    const transaction = await client.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      on_behalf_of: sandbox.sellerId,
      description: 'x',
      amount: 1990,
      terminal: 'PB-ENGINE-1',
      reference_id: 'crashed-1',
    });
    journal.transition(intent.id, 'created', { transactionId: transaction.id });
    const engine = await rig!.restart();
    const report = await engine.recover();
    expect(report).toMatchObject({ found: 1, settled: 1 });
    expect(engine.status('crashed-1')).toMatchObject({
      kind: 'processed',
      outcome: { status: 'failed', problem: { code: 'INTERRUPTED' } },
    });
    expect((await client.transactions.retrieve(transaction.id)).status).toBe('canceled');
  });

  it('does not let a slow recovery hold a new sale longer than the API deadline; it finishes in the background', async () => {
    let releaseReverse: () => void = () => {};
    const reverseHeld = new Promise<void>((resolve) => (releaseReverse = resolve));
    const { client, sandbox, journal } = await open({
      config: { apiTimeoutMs: 300 },
      payments: (inner) => ({
        transactions: inner.transactions,
        terminal: {
          pendingTransactions: (...args) => inner.terminal.pendingTransactions(...args),
          authorize: (...args) => inner.terminal.authorize(...args),
          complete: (...args) => inner.terminal.complete(...args),
          void: (...args) => inner.terminal.void(...args),
          // The cancel of the leftover hangs until the test lets it through.
          reverse: async (...args) => {
            await reverseHeld;
            return inner.terminal.reverse(...args);
          },
        },
      }),
    });
    const leftover = journal.createIntent({
      referenceId: 'left-over-1',
      source: 'pos',
      terminal: 'PB-ENGINE-1',
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'x',
      notification: null,
      paramsHash: 'h',
      confirmation: 'auto',
    });
    const transaction = await client.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      on_behalf_of: sandbox.sellerId,
      description: 'x',
      amount: 1990,
      terminal: 'PB-ENGINE-1',
      reference_id: 'left-over-1',
    });
    journal.transition(leftover.id, 'created', { transactionId: transaction.id });

    const outcome = await rig!.engine.start(sale());
    expect(outcome.status).toBe('approved');
    expect(journal.get(leftover.id)?.state).toBe('aborting');
    releaseReverse();
    await expect.poll(() => journal.get(leftover.id)?.state, { timeout: 5_000 }).toBe('failed');
    expect((await client.transactions.retrieve(transaction.id)).status).toBe('canceled');
  });

  it('adopts by reference_id an intent whose creation answer was never journaled, and closes one that has none', async () => {
    const { client, sandbox } = await open();
    const { journal } = rig!;
    const base = {
      source: 'pos',
      terminal: 'PB-ENGINE-1',
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'x',
      notification: null,
      paramsHash: 'h',
      confirmation: 'auto',
    } as const;
    journal.createIntent({ ...base, referenceId: 'crashed-created' });
    journal.createIntent({ ...base, referenceId: 'crashed-early' });
    const created = await client.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      on_behalf_of: sandbox.sellerId,
      description: 'x',
      amount: 1990,
      terminal: 'PB-ENGINE-1',
      reference_id: 'crashed-created',
    });
    const engine = await rig!.restart();
    await engine.recover();
    expect(engine.status('crashed-created')).toMatchObject({
      outcome: { status: 'failed', transactionId: created.id },
    });
    expect((await client.transactions.retrieve(created.id)).status).toBe('canceled');
    expect(engine.status('crashed-early')).toMatchObject({
      outcome: { status: 'failed', transactionId: null, state: 'failed' },
    });
  });

  it('resolves an authorization in flight at the crash against the API: an approval nobody finished is reversed', async () => {
    const { engine, client } = await open();
    const approved = await engine.start(sale());
    // Rewind the journal's view: the same transaction, as if the crash came right after sending the authorization.
    const { journal } = rig!;
    const intent = journal.createIntent({
      referenceId: 'crashed-authorizing',
      source: 'pos',
      terminal: 'PB-ENGINE-1',
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'x',
      notification: null,
      paramsHash: 'h',
      confirmation: 'auto',
    });
    journal.transition(intent.id, 'created', { transactionId: approved.transactionId });
    journal.transition(intent.id, 'card_read', {
      card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' },
    });
    journal.transition(intent.id, 'authorizing');
    const restarted = await rig!.restart();
    await restarted.recover();
    expect(restarted.status('crashed-authorizing')).toMatchObject({ outcome: { state: 'reversed', status: 'failed' } });
    expect((await client.transactions.retrieve(approved.transactionId!)).status).toBe('reversed');
  });
});

describe('pending transactions created elsewhere', () => {
  it('runs a pending PINPAD transaction addressed to this PINPAD like any sale', async () => {
    const { engine, client, sandbox } = await open();
    const created = await client.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      on_behalf_of: sandbox.sellerId,
      description: 'Pedido 77',
      amount: 4590,
      terminal: 'PB-ENGINE-1',
      reference_id: 'backend-77',
      notification: 'Pedido 77',
    });
    const outcomes = await engine.runPendingFor('PB-ENGINE-1');
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      status: 'approved',
      transactionId: created.id,
      referenceId: 'backend-77',
      amount: 4590,
    });
    expect((await client.transactions.retrieve(created.id)).status).toBe('succeeded');
    expect(await engine.runPendingFor('PB-ENGINE-1')).toEqual([]);
  });

  it('cancels a pending transaction left behind by a payment that already ended (its creation landed after recovery)', async () => {
    const { engine, client, sandbox, journal } = await open();
    const ended = journal.createIntent({
      referenceId: 'late-create-1',
      source: 'pos',
      terminal: 'PB-ENGINE-1',
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'x',
      notification: null,
      paramsHash: 'h',
      confirmation: 'auto',
    });
    journal.transition(ended.id, 'failed', { problem: problem('INTERRUPTED') });
    const late = await client.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      on_behalf_of: sandbox.sellerId,
      description: 'x',
      amount: 1990,
      terminal: 'PB-ENGINE-1',
      reference_id: 'late-create-1',
    });
    expect(await engine.runPendingFor('PB-ENGINE-1')).toEqual([]);
    expect((await client.transactions.retrieve(late.id)).status).toBe('canceled');
    expect(journal.get(ended.id)).toMatchObject({ state: 'failed', transactionId: null });
  });

  it('picks them up by itself when polling is on, and keeps polling through an API outage', async () => {
    const calls: string[] = [];
    let apiDown = true;
    const { engine, client, sandbox } = await open({
      config: { pendingPollMs: 30 },
      payments: (inner) => ({
        transactions: inner.transactions,
        terminal: {
          authorize: (...args) => inner.terminal.authorize(...args),
          complete: (...args) => inner.terminal.complete(...args),
          reverse: (...args) => inner.terminal.reverse(...args),
          void: (...args) => inner.terminal.void(...args),
          pendingTransactions: (serial, options) => {
            calls.push(serial);
            if (apiDown) return Promise.reject(networkDown());
            return inner.terminal.pendingTransactions(serial, options);
          },
        },
      }),
    });
    await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 20 });
    const confirmed = progressed(engine, 'backend-78', 'confirmed');
    apiDown = false;
    const created = await client.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      on_behalf_of: sandbox.sellerId,
      description: 'Pedido 78',
      amount: 2500,
      terminal: 'PB-ENGINE-1',
      reference_id: 'backend-78',
    });
    const approved = await confirmed;
    expect(approved.terminal).toBe('PB-ENGINE-1');
    expect((await client.transactions.retrieve(created.id)).status).toBe('succeeded');
    expect(engine.status('backend-78')).toMatchObject({
      kind: 'processed',
      outcome: { status: 'approved', transactionId: created.id },
    });
    expect(calls.every((serial) => serial === 'PB-ENGINE-1')).toBe(true);
  });
});

describe('bad input and card data', () => {
  it("refuses a sale the store's installment rules do not allow, with the field and a sentence, and keeps running", async () => {
    const { engine } = await open();
    // The sale's shape (amount, description, notification, extra fields) is checked where it comes
    // in, at the POS edge; the engine refuses only what depends on the store's settings.
    for (const bad of [
      sale({ paymentType: 'debit', installments: 2 }),
      sale({ installments: 13 }),
      sale({ amount: centavos(900), installments: 3 }),
    ]) {
      const error = await engine.start(bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
      expect((error as EngineError).violations).toEqual([
        { field: 'installments', message: expect.stringMatching(/^[A-Z].+/) as unknown },
      ]);
    }
    expect(await engine.start(sale())).toMatchObject({ status: 'approved' });
  });

  it('keeps no PAN in the journal file, only the masked one', async () => {
    const { engine, journalPath } = await open();
    await engine.start(sale());
    await engine.start(sale({ amount: centavos(10051) }));
    rig!.journal.close();
    const files = [journalPath, `${journalPath}-wal`].filter((file) => existsSync(file));
    const bytes = files.map((file) => readFileSync(file).toString('latin1')).join('');
    for (const card of Object.values(TEST_CARDS)) expect(bytes).not.toContain(card.pan);
    expect(bytes).toContain('411111******1111');
    rig!.journal = Journal.open(journalPath);
  });
});
