/**
 * Who started a payment, in one place: the first POS client to start a reference owns its events
 * and its result.
 *
 * - While the payment runs here, its owner is kept in memory: it routes every progress event.
 * - Until the owner has heard the result, a row in the POS clients file (clients-file.ts) keeps
 *   it, so a POS that was away when its payment ended — even across a restart — gets the result
 *   at its next hello (the result itself is read from the journal then). A row nobody came back
 *   for is forgotten after 30 days (payment.status still has the result).
 * - After that, the journal's record of the payment says who started it (`journalOwner`).
 * - A tap-to-pay charge relayed for a POS (handlers/relay.ts) is its creator's until it completes,
 *   in memory: the charge lives in the payments API, not in the journal.
 *
 * The sale must not wait on bookkeeping: a file that cannot be written is reported to
 * `onStoreFailed` and the payment is routed in memory only.
 */
import type { SqliteDatabase } from '../../storage/sqlite.js';

/** A result nobody came back for is forgotten after this long (payment.status still has it). */
export const OWNED_PAYMENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface OwnershipStoreOptions {
  /** The POS clients file (ClientStore.file), where the owners of unheard results are kept. */
  readonly file: SqliteDatabase;
  /** Who the journal says started a payment (PaymentEngine.ownerOf): null for no POS client, undefined for no such payment. */
  readonly journalOwner?: (referenceId: string) => string | null | undefined;
  /**
   * Told when the file could not be read or written by own/disown/forget; the payment goes on,
   * routed in memory. Default: the error is thrown (for a caller with nothing better to do).
   */
  readonly onStoreFailed?: (error: unknown, referenceId?: string) => void;
  /** The clock for started_at and the retention (tests pass their own). */
  readonly now?: () => Date;
}

export class OwnershipStore {
  readonly #file: SqliteDatabase;
  readonly #journalOwner: (referenceId: string) => string | null | undefined;
  readonly #onStoreFailed: (error: unknown, referenceId?: string) => void;
  readonly #now: () => Date;
  /** reference_id → client id of the payments started here and still running: what routes their events. */
  readonly #running = new Map<string, string>();
  /** tap-to-pay transaction id → client id, until it completes. */
  readonly #tapToPay = new Map<string, string>();

  constructor(options: OwnershipStoreOptions) {
    this.#file = options.file;
    this.#journalOwner = options.journalOwner ?? (() => undefined);
    this.#onStoreFailed =
      options.onStoreFailed ??
      ((error) => {
        throw error;
      });
    this.#now = options.now ?? (() => new Date());
    this.#forgetOld();
  }

  // --- the lasting record (the file) ---------------------------------------------------------

  /**
   * Records that `clientId` started the payment `referenceId`, unless a client already did:
   * the first one owns it. Returns the owner.
   */
  claim(referenceId: string, clientId: string): string {
    return this.#file.write(() => {
      this.#file
        .statement(`INSERT OR IGNORE INTO payment_owners (reference_id, client_id, started_at) VALUES (?, ?, ?)`)
        .run(referenceId, clientId, this.#now().toISOString());
      return (
        this.#file.statement(`SELECT client_id FROM payment_owners WHERE reference_id = ?`).get(referenceId) as {
          client_id: string;
        }
      ).client_id;
    });
  }

  /** The owner heard these results (or the starts were refused): forget them. Only the owner's rows go. */
  release(clientId: string, referenceIds: readonly string[]): void {
    this.#file.write(() => {
      const remove = this.#file.statement(`DELETE FROM payment_owners WHERE reference_id = ? AND client_id = ?`);
      for (const referenceId of referenceIds) remove.run(referenceId, clientId);
    });
  }

  /** The payments `clientId` started and has not heard the result of, oldest first. */
  owned(clientId: string): string[] {
    const rows = this.#file.autocommit(
      () =>
        this.#file
          .statement(`SELECT reference_id FROM payment_owners WHERE client_id = ? ORDER BY started_at, reference_id`)
          .all(clientId) as { reference_id: string }[],
    );
    return rows.map((row) => row.reference_id);
  }

  // --- the payments running here -------------------------------------------------------------

  /**
   * A client starts a payment: the first one owns it, here and in the file. A file that cannot be
   * written does not stop the sale (at worst its result is not kept for a hello after a restart).
   */
  own(referenceId: string, clientId: string): void {
    if (this.#running.has(referenceId)) return;
    let owner = clientId;
    try {
      owner = this.claim(referenceId, clientId);
    } catch (error) {
      this.#onStoreFailed(error, referenceId);
    }
    this.#running.set(referenceId, owner);
  }

  /** Undoes `own` for a start the engine refused before journaling anything. */
  disown(referenceId: string, clientId: string): void {
    if (this.#running.get(referenceId) !== clientId) return;
    this.#running.delete(referenceId);
    this.forget(clientId, [referenceId]);
  }

  /** A payment decided by recovery, no sale driving it: routed to `owner` until its result is delivered. */
  resume(referenceId: string, owner: string): void {
    this.#running.set(referenceId, owner);
  }

  /** The owner of a payment running here; undefined when none is. */
  runningOwner(referenceId: string): string | undefined {
    return this.#running.get(referenceId);
  }

  isRunning(referenceId: string): boolean {
    return this.#running.has(referenceId);
  }

  /** The payment ended here: its owner (undefined if it was not running here), no longer routed. */
  ended(referenceId: string): string | undefined {
    const owner = this.#running.get(referenceId);
    this.#running.delete(referenceId);
    return owner;
  }

  /** Who started a payment: this run's record, else the journal's (null: no POS client did). */
  ownerOf(referenceId: string): string | null {
    return this.#running.get(referenceId) ?? this.#journalOwner(referenceId) ?? null;
  }

  /**
   * `release`, whose failure is only reported: the result is then given again at a later hello,
   * which the POS tells by reference_id.
   */
  forget(clientId: string, referenceIds: readonly string[]): void {
    if (referenceIds.length === 0) return;
    try {
      this.release(clientId, referenceIds);
    } catch (error) {
      this.#onStoreFailed(error);
    }
  }

  // --- tap-to-pay charges --------------------------------------------------------------------

  ownTapToPay(transactionId: string, clientId: string): void {
    this.#tapToPay.set(transactionId, clientId);
  }

  /** Who may hear of a tap-to-pay charge's end (and forgets it: it ends once). */
  releaseTapToPay(transactionId: string): string | undefined {
    const owner = this.#tapToPay.get(transactionId);
    this.#tapToPay.delete(transactionId);
    return owner;
  }

  /** Deletes the rows older than the retention (at open, as the clients file does with its own). */
  #forgetOld(): void {
    try {
      this.#file.write(() => {
        this.#file
          .statement(`DELETE FROM payment_owners WHERE started_at < ?`)
          .run(new Date(this.#now().getTime() - OWNED_PAYMENT_RETENTION_MS).toISOString());
      });
    } catch (error) {
      this.#onStoreFailed(error);
    }
  }
}
