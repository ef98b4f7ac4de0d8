/**
 * What the POS server needs from the rest of the agent, in one place: the payment engine, the
 * PINPADs, receipts and printers, the payments API (for the relays, with the agent's own
 * credentials and seller) and the paired clients. `start` builds it from the running parts;
 * tests build it from the engine rig and the sandbox.
 */
import type { ReceiptPrinter } from '../../../drivers/printers/printer.js';
import type { PaymentsClient } from '../../api/index.js';
import type { ApiHealthMonitor } from '../../api/health.js';
import type { PaymentEngine } from '../../core/engine.js';
import type { PinpadRegistry } from '../../core/pinpad/registry.js';
import type { PrintQueue } from '../../receipts/print-queue.js';
import type { ReceiptService } from '../../receipts/service.js';
import type { ClientStore } from '../clients/client-store.js';

export interface PosAgent {
  readonly version: string;
  readonly mode: 'training' | 'live';
  readonly engine: PaymentEngine;
  readonly pinpads: PinpadRegistry;
  /** Absent when receipts cannot be built (no store data outside training mode). */
  readonly receipts: ReceiptService | undefined;
  /** The receipt printers by name, for their status. */
  readonly printers: ReadonlyMap<string, { readonly device: ReceiptPrinter }>;
  readonly printQueue: PrintQueue | undefined;
  readonly api: PaymentsClient;
  /** The seller every relayed charge is made for (`on_behalf_of`). */
  readonly sellerId: string;
  readonly apiHealth: ApiHealthMonitor;
  readonly clients: ClientStore;
}
