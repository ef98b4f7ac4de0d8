/**
 * The connected POS sessions and what reaches them: it turns the agent's events into the API's
 * notifications and sends each to the sessions that may see it (protocol/events.ts: a payment's
 * events to the client that started it, the rest to every authenticated session). Who started
 * which payment is the ownership store's (ownership-store.ts): the hub routes by it, and tells it
 * when the owner heard a result, so one that was away gets it at its next hello.
 */
import type { Logger } from 'pino';
import type { AuditEvent } from '../../audit-log.js';
import type { ApiHealthSnapshot } from '../../api/health.js';
import type { PaymentProgress as PaymentProgressEvent } from '../../core/events.js';
import type { PaymentOutcome } from '../../core/outcome.js';
import type { PinpadLinkStatus } from '../../pinpad/link-status.js';
import type { PinpadEntry } from '../../pinpad/registry.js';
import { PixCounter, type PixPaid } from '../../pinpad/pix-counter.js';
import { idleText } from '../../pinpad/display-text.js';
import { systemScheduler } from '../../core/scheduler.js';
import type { PrintJob } from '../../receipts/print-jobs.js';
import { pixSubjectTransaction } from '../../receipts/service.js';
import { EVENTS, type EventName, type EventPayload } from '../protocol/index.js';
import type { PairedClient, PairingGuard } from '../clients/client-store.js';
import type { DiskState, PosAgent, UpdateState } from './agent.js';
import type { PairingAnnouncement } from '../protocol/pairing.js';
import { OwnershipStore } from './ownership-store.js';
import { TokenBucket, type RateLimitOptions } from './rate-limit.js';
import type { Session } from './session.js';
import {
  diskView,
  updateView,
  apiHealthView,
  clientRecordView,
  outcomeView,
  pairingGuardView,
  pairingRequestView,
  pinpadLinkView,
  pinpadView,
  pixEndedView,
  pixPaidView,
  pixShowView,
  printerView,
  printJobView,
  progressView,
} from './views.js';

/** Results given at one hello at most (the newest; the rest at the next one). */
export const MISSED_MAX = 100;

/** How many Pix transactions' print owners the hub keeps (a day of a busy checkout). */
const PIX_JOB_OWNERS_KEPT = 500;

export class Hub {
  readonly sessions = new Set<Session>();
  readonly #rateLimit: RateLimitOptions;
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #agent: PosAgent;
  readonly #log: Logger;
  /** Who started which payment: the running ones (routing their events), the unheard results, tap-to-pay charges. */
  readonly #owners: OwnershipStore;
  /** Pairing requests waiting for their code, with the code: for the window, in memory only (they live 2 minutes). */
  readonly #pairings = new Map<string, PairingAnnouncement>();
  /** The session that asked for each of them: it may wait for its code as long as the request lives. */
  readonly #pairingSessions = new Map<string, Session>();
  /** Where security events go (main/audit-log.ts); a no-op without one. */
  readonly audit: (event: AuditEvent) => void;
  readonly #unsubscribe: (() => void)[] = [];
  readonly #stopping = new AbortController();
  /** Who each recent Pix's prints are for, by transaction id (notePixJobOwner). */
  readonly #pixJobOwners = new Map<string, string | null>();
  /** Pix at the counter: the bolepix QRs shown on the PINPADs (pix.show), their events to whoever asked. */
  readonly pix: PixCounter;

  constructor(agent: PosAgent, rateLimit: RateLimitOptions, log: Logger, audit?: (event: AuditEvent) => void) {
    this.audit = audit ?? (() => {});
    this.#rateLimit = rateLimit;
    this.#agent = agent;
    this.#log = log;
    this.#owners = new OwnershipStore({
      file: agent.clients.file,
      journalOwner: (referenceId) => agent.engine.ownerOf(referenceId),
      onStoreFailed: (error, referenceId) => this.#storeFailed(error, referenceId),
    });
    const { engine, pinpads, pinpadLink, apiHealth, printQueue } = agent;
    const onProgress = (event: PaymentProgressEvent): void =>
      this.publish('payment.progress', progressView(event), this.#ownerOf(event.referenceId));
    const onResult = (outcome: PaymentOutcome): void => this.settled(outcome);
    const onConnected = (entry: PinpadEntry): void => this.#publishPinpad('pinpad.connected', entry);
    const onDisconnected = (entry: PinpadEntry): void => this.#publishPinpad('pinpad.disconnected', entry);
    const onBusy = (entry: PinpadEntry): void => this.#publishPinpad('pinpad.busy', entry);
    const onTables = (entry: PinpadEntry): void => this.#publishPinpad('pinpad.tables', entry);
    const onHealth = (health: ApiHealthSnapshot): void => this.publish('api.health', apiHealthView(health));
    const onLink = (status: PinpadLinkStatus): void => this.publish('pinpad.link', pinpadLinkView(status));
    // A payment's receipts tell its reference: they reach its owner (and the window) only.
    const onJob = (job: PrintJob): void => this.publish('printer.job', printJobView(job), this.#jobOwner(job.subject));
    engine.on('progress', onProgress).on('result', onResult);
    pinpads.on('connected', onConnected).on('disconnected', onDisconnected).on('busy', onBusy).on('tables', onTables);
    apiHealth.on('change', onHealth);
    pinpadLink?.on('change', onLink);
    printQueue?.on('job', onJob);
    const onDisk = (status: DiskState): void => this.publish('agent.disk', diskView(status));
    agent.disk?.on('change', onDisk);
    this.#unsubscribe.push(() => agent.disk?.off('change', onDisk));
    const onUpdate = (state: UpdateState): void => this.publish('agent.update', updateView(state));
    agent.updates?.on('change', onUpdate);
    this.#unsubscribe.push(() => agent.updates?.off('change', onUpdate));
    this.#unsubscribe.push(() => {
      engine.off('progress', onProgress).off('result', onResult);
      pinpads
        .off('connected', onConnected)
        .off('disconnected', onDisconnected)
        .off('busy', onBusy)
        .off('tables', onTables);
      apiHealth.off('change', onHealth);
      pinpadLink?.off('change', onLink);
      printQueue?.off('job', onJob);
    });
    this.pix = new PixCounter({
      pinpads,
      transactions: agent.api.transactions,
      scheduler: systemScheduler,
      idleText: agent.idleText ?? (() => idleText(agent.mode === 'training', agent.disk?.status.salesRefused === true)),
      logger: log,
    });
    this.pix.on('shown', (shown) => this.publish('pix.shown', pixShowView(shown), shown.owner));
    this.pix.on('paid', (paid) => this.publish('pix.paid', pixPaidView(paid, this.#printPixReceipt(paid)), paid.owner));
    this.pix.on('ended', (ended) => this.publish('pix.ended', pixEndedView(ended), ended.owner));
    this.#unsubscribe.push(() => this.pix.close());
    for (const [name, { device }] of agent.printers) {
      const changed = (): void => this.publish('printer.status', printerView(name, device));
      device.on('status', changed).on('connected', changed).on('disconnected', changed);
      this.#unsubscribe.push(() =>
        device.off('status', changed).off('connected', changed).off('disconnected', changed),
      );
    }
  }

  /** The rate budget of a session: its own before hello, its client's (shared by its sessions) after. */
  bucketFor(session: Session): TokenBucket {
    const client = session.client;
    if (client === undefined) return session.anonymousBucket;
    let bucket = this.#buckets.get(client.id);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.#rateLimit);
      this.#buckets.set(client.id, bucket);
    }
    return bucket;
  }

  /** The first client to start a reference owns its events and its result. */
  own(referenceId: string, clientId: string): void {
    this.#owners.own(referenceId, clientId);
  }

  /** Undoes `own` for a start the engine refused before journaling anything. */
  disown(referenceId: string, clientId: string): void {
    this.#owners.disown(referenceId, clientId);
  }

  ownTapToPay(transactionId: string, clientId: string): void {
    this.#owners.ownTapToPay(transactionId, clientId);
  }

  /** Who may hear of a tap-to-pay charge's end (and forgets it: it ends once). */
  releaseTapToPay(transactionId: string): string | undefined {
    return this.#owners.releaseTapToPay(transactionId);
  }

  /**
   * A payment ended: its owner's other sessions get `payment.result`; `answered` is the session
   * whose payment.start gets it as the answer. If no session of the owner was there to hear it,
   * the store keeps the record for the owner's next hello.
   */
  deliverResult(outcome: PaymentOutcome, answered: Session | undefined): void {
    // Not decided yet (the sale stopped before its result): the owner keeps it, and hears the
    // result when recovery decides it (`settled`).
    if (outcome.status === 'in_progress') return;
    const owner = this.#owners.ended(outcome.referenceId);
    if (owner === undefined) return;
    let told = answered?.open === true && answered.client?.id === owner;
    const text = notification('payment.result', outcomeView(outcome));
    for (const session of this.#sessionsOf(owner)) {
      if (session === answered) continue;
      session.sendRaw(text);
      told = true;
    }
    // The window sees every result (it does not count as the owner hearing it).
    for (const session of this.sessions)
      if (session.operator && session.open && session !== answered) session.sendRaw(text);
    if (told) this.#release(owner, [outcome.referenceId]);
  }

  /**
   * Recovery decided a payment no sale was driving: its owner (as the journal has it, also after a
   * restart) gets `payment.result` now, the window too; an owner away gets it at its next hello.
   */
  settled(outcome: PaymentOutcome): void {
    const owner = this.#ownerOf(outcome.referenceId);
    if (owner === null) {
      // No POS client started it (the window, a pending transaction): the window hears it.
      this.publish('payment.result', outcomeView(outcome), null);
      return;
    }
    this.#owners.resume(outcome.referenceId, owner);
    this.deliverResult(outcome, undefined);
  }

  /** The owner read the result by payment.status: it is not given again at its next hello. */
  heard(referenceId: string, clientId: string): void {
    if (!this.#owners.isRunning(referenceId)) this.#release(clientId, [referenceId]);
  }

  /**
   * The final results of the payments `clientId` started and never heard of (also from before a
   * restart), oldest first, read from the journal; each is given once, at most MISSED_MAX at a
   * time (the newest). Payments still running stay for their own answer.
   */
  takeMissed(clientId: string): PaymentOutcome[] {
    let owned: string[];
    try {
      owned = this.#owners.owned(clientId);
    } catch (error) {
      this.#storeFailed(error);
      return [];
    }
    const missed: PaymentOutcome[] = [];
    const forgotten: string[] = [];
    for (const referenceId of owned) {
      if (this.#owners.isRunning(referenceId)) continue;
      const status = this.#agent.engine.status(referenceId);
      if (status.kind === 'processed') missed.push(status.outcome);
      // Not in the journal (e.g. a start refused while the agent stopped): nothing to tell.
      else if (status.kind === 'not_found') forgotten.push(referenceId);
    }
    // The newest MISSED_MAX now; older ones at the next hello.
    const given = missed.slice(-MISSED_MAX);
    this.#release(clientId, [...forgotten, ...given.map((outcome) => outcome.referenceId)]);
    return given;
  }

  /**
   * Sends an event to its audience: for owned events, `owner`'s sessions and the window (every
   * session when the store lets its POS clients share payments; the window alone for a payment
   * no POS client started: `owner` null; every session for what no payment owns: `owner`
   * undefined); the window alone for operator events; else every authenticated session.
   */
  publish<E extends EventName>(event: E, payload: EventPayload<E>, owner?: string | null): void {
    if (this.sessions.size === 0) return;
    const text = notification(event, payload);
    const audience = EVENTS[event].audience;
    const shared = this.#agent.sharePayments === true;
    for (const session of this.#authenticated()) {
      const reached =
        audience === 'all' ||
        session.operator ||
        (audience === 'owner' &&
          (owner === undefined || shared || (typeof owner === 'string' && session.client?.id === owner)));
      if (reached) session.sendRaw(text);
    }
  }

  /**
   * Whether a session may know that a payment with this reference exists (a PINPAD's
   * payment_reference): its owner, the window, or everyone when the POS clients share payments.
   */
  mayKnowReference(session: Session, referenceId: string): boolean {
    if (session.operator || this.#agent.sharePayments === true) return true;
    return session.client !== undefined && this.#ownerOf(referenceId) === session.client.id;
  }

  /**
   * Whether a session may know of something a client started (a Pix show; `owner` null: the
   * window's): the owner, the window, or everyone when the POS clients share payments — as
   * `publish` sends an "owner" event.
   */
  mayKnowOwner(session: Session, owner: string | null): boolean {
    if (session.operator || this.#agent.sharePayments === true) return true;
    return session.client !== undefined && owner !== null && session.client.id === owner;
  }

  /** A PINPAD event: each session gets the reference of the sale it runs only if it may know it. */
  #publishPinpad(
    event: 'pinpad.connected' | 'pinpad.disconnected' | 'pinpad.busy' | 'pinpad.tables',
    entry: PinpadEntry,
  ): void {
    if (this.sessions.size === 0) return;
    const reference = entry.paymentReference;
    const full = notification(event, pinpadView(entry));
    const hidden = reference === null ? full : notification(event, pinpadView(entry, false));
    for (const session of this.#authenticated())
      session.sendRaw(reference === null || this.mayKnowReference(session, reference) ? full : hidden);
  }

  /** A PINPAD as `session` may see it (pinpad.list, pinpad.status, agent.status). */
  pinpadViewFor(session: Session, entry: PinpadEntry): ReturnType<typeof pinpadView> {
    const reference = entry.paymentReference;
    return pinpadView(entry, reference === null || this.mayKnowReference(session, reference));
  }

  /** The owner of the payment a print job is for ("payment:<reference_id>:…"); undefined for other jobs (slips, test prints). */
  #jobOwner(subject: string): string | null | undefined {
    const pix = pixSubjectTransaction(subject);
    if (pix !== undefined) return this.#pixJobOwners.get(pix);
    const match = /^payment:(.+):[a-z_]+:[a-z]+$/.exec(subject);
    return match === null ? undefined : this.#ownerOf(match[1]!);
  }

  /**
   * Who a Pix's prints are for (its QR slip, its receipt): their printer.job events go to that
   * client and the window, as a payment's receipts do. Noted before the job is queued (the queue
   * tells of it at once); the newest PIX_JOB_OWNERS_KEPT are kept — an older one goes to everyone.
   */
  notePixJobOwner(transactionId: string, owner: string | null): void {
    this.#pixJobOwners.delete(transactionId);
    this.#pixJobOwners.set(transactionId, owner);
    for (const oldest of this.#pixJobOwners.keys()) {
      if (this.#pixJobOwners.size <= PIX_JOB_OWNERS_KEPT) break;
      this.#pixJobOwners.delete(oldest);
    }
  }

  /** The customer's receipt of a Pix received, printed by itself; a failure is logged, never the Pix's. */
  #printPixReceipt(paid: PixPaid): PrintJob | null {
    this.notePixJobOwner(paid.transactionId, paid.owner);
    const onError = (error: unknown): void =>
      this.#log.warn(
        { transaction: paid.transactionId, err: error instanceof Error ? error.message : String(error) },
        'the receipt of a Pix received was not printed',
      );
    return this.#agent.receipts?.printPixPaid(paid, onError) ?? null;
  }

  /** Who started a payment: this run's record, else the journal's (null: no POS client did). */
  #ownerOf(referenceId: string): string | null {
    return this.#owners.ownerOf(referenceId);
  }

  /** A POS asked to pair on `session`: the window shows the code; the session may wait for it. */
  pairingRequested(pairing: PairingAnnouncement, session?: Session): void {
    // Expired ones go now, with the session each kept: nothing piles up while the window is closed.
    const now = new Date();
    for (const [id, waiting] of this.#pairings) if (new Date(waiting.expiresAt) <= now) this.#forgetPairing(id);
    this.#pairings.set(pairing.pairingId, pairing);
    if (session !== undefined) {
      session.pairingId = pairing.pairingId;
      session.pairingUntil = Date.parse(pairing.expiresAt);
      this.#pairingSessions.set(pairing.pairingId, session);
    }
    this.publish('pairing.requested', pairingRequestView(pairing));
  }

  /** Requests a newer one took the place of (client-store requestPairing): gone from the window. */
  pairingsWithdrawn(pairingIds: readonly string[]): void {
    for (const pairingId of pairingIds) this.pairingEnded(pairingId, 'withdrawn', null);
  }

  /** A wrong code was sent for a pairing request: the window shows who guessed, and the day's count. */
  pairingFailed(pairingId: string, origin: string | null, attemptsLeft: number, guard: PairingGuard): void {
    const pairing = this.#pairings.get(pairingId);
    this.publish('pairing.failed', {
      pairing_id: pairingId,
      name: pairing?.name ?? '',
      origin,
      attempts_left: attemptsLeft,
      guard: pairingGuardView(guard),
    });
    if (attemptsLeft === 0) this.#forgetPairing(pairingId);
  }

  /** The request is no longer pending: its session no longer waits for a code (it has its usual time). */
  #forgetPairing(pairingId: string): void {
    this.#pairings.delete(pairingId);
    const session = this.#pairingSessions.get(pairingId);
    this.#pairingSessions.delete(pairingId);
    if (session !== undefined && session.pairingId === pairingId) {
      session.pairingId = undefined;
      session.pairingUntil = 0;
    }
  }

  /** A pairing request is over (the POS sent the code, the cashier refused it, or a newer one took its place). */
  pairingEnded(pairingId: string, state: 'completed' | 'rejected' | 'withdrawn', client: PairedClient | null): void {
    this.#forgetPairing(pairingId);
    this.publish('pairing.ended', {
      pairing_id: pairingId,
      state,
      client: client === null ? null : clientRecordView(client, this.openSessions(client.id)),
    });
    this.clientsChanged();
  }

  /** The requests still waiting for their code (expired ones are dropped here). */
  pendingPairings(now = new Date()): PairingAnnouncement[] {
    const pending = new Set(this.#agent.clients.pendingPairings().map((pairing) => pairing.id));
    for (const [id, pairing] of this.#pairings)
      if (!pending.has(id) || new Date(pairing.expiresAt) <= now) this.#forgetPairing(id);
    return [...this.#pairings.values()];
  }

  /** The window's view of the POS connections changed (one connected, logged in, left, was revoked). */
  clientsChanged(): void {
    if (![...this.sessions].some((session) => session.operator && session.open)) return;
    this.publish('pos.clients', this.clientsView());
  }

  /** Every paired client with its open sessions, and the connections that have not said hello. */
  clientsView(): EventPayload<'pos.clients'> {
    const open = new Map<string, number>();
    let anonymous = 0;
    for (const session of this.sessions) {
      if (!session.open || session.operator) continue;
      if (session.client === undefined) anonymous++;
      else open.set(session.client.id, (open.get(session.client.id) ?? 0) + 1);
    }
    return {
      clients: this.#agent.clients.list().map((client) => clientRecordView(client, open.get(client.id) ?? 0)),
      anonymous_sessions: anonymous,
    };
  }

  /** Closes the sessions of a web origin the cashier just blocked (4003, as at the upgrade). */
  blockedOrigin(origin: string): void {
    for (const session of this.sessions)
      if (session.origin === origin && session.open && !session.operator) session.close('ORIGIN_BLOCKED');
  }

  /**
   * Closes every connection of a program the cashier just blocked (4005), the window's aside; the
   * program of a connection not looked up yet is looked up first.
   */
  async blockedProgram(program: string): Promise<number> {
    const sessions = [...this.sessions].filter((session) => session.open && !session.operator);
    const peers = await Promise.all(sessions.map((session) => session.lookUpPeer()));
    let closed = 0;
    sessions.forEach((session, index) => {
      if (peers[index]!.process?.program !== program || !session.open || session.operator) return;
      session.close('PROGRAM_BLOCKED');
      closed++;
    });
    return closed;
  }

  /** Closes the sessions of a revoked client. */
  revoked(clientId: string): void {
    for (const session of this.#sessionsOf(clientId)) session.close('TOKEN_REVOKED');
  }

  /** Aborted when the server closes: background work (tap-to-pay watches) stops with it. */
  get stopping(): AbortSignal {
    return this.#stopping.signal;
  }

  close(): void {
    this.#stopping.abort(new Error('POS server closing'));
    for (const off of this.#unsubscribe.splice(0)) off();
  }

  #release(clientId: string, referenceIds: readonly string[]): void {
    this.#owners.forget(clientId, referenceIds);
  }

  #storeFailed(error: unknown, referenceId?: string): void {
    this.#log.warn(
      { err: error instanceof Error ? error.message : String(error), reference_id: referenceId },
      'POS client store: payment owner not recorded',
    );
  }

  /** The open sessions of one paired client. */
  openSessions(clientId: string): number {
    return [...this.#sessionsOf(clientId)].length;
  }

  *#authenticated(): Iterable<Session> {
    for (const session of this.sessions) if (session.authenticated && session.open) yield session;
  }

  *#sessionsOf(clientId: string): Iterable<Session> {
    for (const session of this.sessions) if (session.client?.id === clientId && session.open) yield session;
  }
}

export function notification<E extends EventName>(event: E, payload: EventPayload<E>): string {
  return JSON.stringify({ jsonrpc: '2.0', method: event, params: payload });
}
