/**
 * One answer to "can I sell now?", for the status line on top of every page: "Pronto para
 * vender", or what is missing, in words. Built only from what the window already hears: its
 * connection to the agent, and the agent's PINPADs, the link to its PINPAD, printers, payments
 * API and disk (agent.status, then the pinpad.*, printer.status, api.health and agent.disk
 * events the Situação page keeps).
 *
 * Blocking (no sale is possible): the connection to the agent lost, the disk full, no PINPAD
 * connected (or its EMV tables refused), the payments API down. A warning (sales go on): the
 * printer out of reach, out of paper, its cover open or in error — the receipt waits in the print
 * queue —, its paper running low, the disk refusing the logs' writes. Training or live is said,
 * not a problem.
 */
import type { ClientState, EventPayload } from '../client/index.js';
import type { Mode } from './context.js';
import { t, type MessageKey } from './i18n.js';
import { printerName } from './labels.js';
import { printerTrouble } from './print-watch.js';

type Pinpad = EventPayload<'pinpad.connected'>;
type PinpadLink = EventPayload<'pinpad.link'>;
type Printer = EventPayload<'printer.status'>;
type ApiHealth = EventPayload<'api.health'>;
type Disk = EventPayload<'agent.disk'>;

/** What the agent last said about its devices (the Situação page keeps it current). */
export interface DeviceStates {
  readonly pinpads: readonly Pinpad[];
  readonly link: PinpadLink | null;
  readonly printers: readonly Printer[];
  readonly api: ApiHealth | null;
  readonly disk: Disk | null;
}

/** ok: ready to sell; warn: sales go on without something; bad: no sale is possible; off: not known yet. */
export type ReadyLevel = 'ok' | 'warn' | 'bad' | 'off';

/** Something missing: what it is (for the specs and styles), whether it stops sales, and its words. */
export interface Missing {
  readonly what: 'connection' | 'disk' | 'pinpad' | 'tables' | 'api' | 'printer';
  readonly blocking: boolean;
  /** Blocking only for a moment, by itself (the PINPAD being reached, its tables being written). */
  readonly passing?: boolean;
  /** Receipts wait in the print queue meanwhile. */
  readonly queues: boolean;
  readonly text: string;
}

export interface Readiness {
  readonly level: ReadyLevel;
  /** The blocking first; empty when ready or not known yet. */
  readonly missing: readonly Missing[];
  /** The line as the cashier reads it. */
  readonly text: string;
}

export interface ReadinessInput {
  readonly connection: ClientState;
  readonly mode: Mode | null;
  /** null until agent.status was read on this connection. */
  readonly devices: DeviceStates | null;
}

const blocking = (what: Missing['what'], key: MessageKey): Missing => ({
  what,
  blocking: true,
  queues: false,
  text: t(key),
});

function pinpadMissing(devices: DeviceStates): Missing | null {
  const connected = devices.pinpads.filter((pinpad) => pinpad.connected);
  if (connected.length === 0) {
    // The first attempt at the PINPAD is still under way: not missing yet, not ready either.
    const connecting = devices.link?.state === 'connecting';
    return connecting
      ? { ...blocking('pinpad', 'ready.pinpadConnecting'), passing: true }
      : blocking('pinpad', 'ready.pinpadDown');
  }
  // One PINPAD able to sell is enough; tables refused on every one stop the sales.
  const tables = connected.map((pinpad) => pinpad.tables?.state ?? 'current');
  if (tables.every((state) => state === 'failed')) return blocking('tables', 'ready.tablesFailed');
  if (tables.every((state) => state !== 'current'))
    return { ...blocking('tables', 'ready.tablesLoading'), passing: true };
  return null;
}

/** The first trouble of a printer, in words; null while it prints (or while nothing can be known). */
function printerMissing(printer: Printer, named: boolean): Missing | null {
  const warn = (key: MessageKey, queues: boolean): Missing => {
    const problem = t(key);
    return {
      what: 'printer',
      blocking: false,
      queues,
      text: named ? t('ready.printerNamed', { problem, name: printerName(printer.name) }) : problem,
    };
  };
  // The same trouble, in the same order, as a print waiting on this printer is told (print-watch.ts).
  const trouble = printerTrouble(printer);
  if (trouble === 'UNREACHABLE') return warn('ready.printerOffline', true);
  if (trouble === 'PAPER_OUT') return warn('ready.printerPaperOut', true);
  if (trouble === 'COVER_OPEN') return warn('ready.printerCoverOpen', true);
  if (trouble !== null && trouble !== 'AUTO_RECOVERABLE') return warn('ready.printerError', true);
  if (printer.paper_low) return warn('ready.printerPaperLow', false);
  // connected null: being checked (seconds after start), or a system printer its spooler answers for.
  return null;
}

export function readiness(input: ReadinessInput): Readiness {
  const { connection, devices } = input;
  if (connection === 'reconnecting' || connection === 'closed' || connection === 'blocked') {
    const missing = blocking(
      'connection',
      connection === 'reconnecting' ? 'connection.reconnecting' : 'connection.closed',
    );
    return { level: 'bad', missing: [missing], text: missing.text };
  }
  if (connection !== 'ready') return { level: 'off', missing: [], text: t('connection.connecting') };
  if (devices === null) return { level: 'off', missing: [], text: t('ready.checking') };

  const missing: Missing[] = [];
  const disk = devices.disk;
  if (disk !== null && disk.state === 'full') {
    missing.push(
      disk.sales_refused
        ? blocking('disk', 'ready.diskFull')
        : { what: 'disk', blocking: false, queues: false, text: t('ready.diskFailing') },
    );
  }
  const pinpad = pinpadMissing(devices);
  if (pinpad !== null) missing.push(pinpad);
  if (devices.api?.state === 'down') missing.push(blocking('api', 'ready.apiDown'));
  for (const printer of devices.printers) {
    const trouble = printerMissing(printer, devices.printers.length > 1);
    if (trouble !== null) missing.push(trouble);
  }
  missing.sort((a, b) => Number(b.blocking) - Number(a.blocking));

  if (missing.length === 0)
    return { level: 'ok', missing, text: t(input.mode === 'training' ? 'ready.okTraining' : 'ready.ok') };
  const stopped = missing.some((item) => item.blocking);
  const problems = missing.map((item) => item.text).join(' · ');
  // Sales go on: said once, after every warning, with the queue when receipts wait in it.
  const text = stopped
    ? problems
    : t(missing.some((item) => item.queues) ? 'ready.salesGoOnQueued' : 'ready.salesGoOn', { problems });
  // Red for what stops the sales until someone acts; amber for what passes by itself or lets them go on.
  const level = missing.some((item) => item.blocking && item.passing !== true) ? 'bad' : 'warn';
  return { level, missing, text };
}
