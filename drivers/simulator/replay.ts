/**
 * Replaying a recorded session (a Pinbridge ABECS trace file): a simulated PINPAD that answers each host
 * command with what the real PINPAD answered in the recording, so a support desk can run the
 * store's session again — against the agent, `pinbridge pinpad …`, or a test — without the store.
 *
 * - The n-th command with a given id gets the answers of the n-th recorded command with that id:
 *   its NTM notifications, then its response (status and data as recorded, masked). Once a
 *   recording runs out for an id, the last one is given again (a host asking for the
 *   identification twice still gets it). An id never recorded answers ERR010 (the session does).
 * - Answers keep their recorded delay after the command (times `timeScale`), so a customer who
 *   took 8 s to insert the card takes 8 s again; CAN or a new command aborts the wait as on a
 *   real PINPAD.
 * - A command the host cancelled in the recording (CAN, or a new command before any response)
 *   gets its notifications and then no answer, until the host cancels it again.
 * - Each host connection starts the recording from its beginning.
 *
 * The command's own parameters are not compared with the recording's: the replay answers by id
 * and order only. With a test card to re-seal (`reseal`), the answers that carried card data —
 * masked or zeroed in the file — carry that card's, sealed for real (replay-reseal.ts).
 */
import type { SimCard } from './cards.js';
import { CommandAborted, sleep } from './customer.js';
import type { CommandContext, CommandHandler } from './handler.js';
import { finishChip, resealAnswer } from './replay-reseal.js';
import { decodeResponsePacket, notificationText, type ResponsePacket } from './wire/packet.js';

/**
 * One line of a recorded session as the trace file holds it (JSON lines after the header): `t`
 * milliseconds since the start, who sent it, a packet or a control byte; packets carry their id,
 * the PINPAD's their RSP_STAT, and `data`, the hex of the (masked) PKTDATA when it could be kept.
 * This is the file format; the simulator reads the packets with its own wire layer.
 */
export interface ReplayTraceEvent {
  readonly t: number;
  readonly dir: 'host' | 'pinpad';
  /** 'packet', or a control byte: 'ack', 'nak', 'eot', 'can'. */
  readonly kind: string;
  readonly id?: string;
  readonly status?: string;
  readonly data?: string;
}

/** A recorded session: its events in order (the header plays no part in a replay). */
export interface ReplayTrace {
  readonly events: readonly ReplayTraceEvent[];
}

export interface ReplayAnswer {
  /** Milliseconds after the command in the recording. */
  readonly delayMs: number;
  /** An NTM's text, or the response's PKTDATA. */
  readonly notification?: string;
  readonly response?: Buffer;
}

export interface ReplayExchange {
  readonly id: string;
  readonly answers: readonly ReplayAnswer[];
  /** False when the host cancelled it before any response: the replay then waits for CAN. */
  readonly answered: boolean;
}

interface Building {
  readonly id: string;
  readonly t: number;
  readonly data: string | undefined;
  readonly answers: ReplayAnswer[];
  answered: boolean;
  /** A response, CAN or new command ended it: later PINPAD packets (resends, late answers) are not its answers. */
  closed: boolean;
}

/** The recording as commands and their answers, by command id in recorded order. */
export function replayScript(trace: ReplayTrace): ReadonlyMap<string, readonly ReplayExchange[]> {
  const script = new Map<string, ReplayExchange[]>();
  let current: Building | undefined;
  const finish = (): void => {
    if (current === undefined) return;
    const { id, answers, answered } = current;
    const list = script.get(id) ?? [];
    list.push({ id, answers, answered });
    script.set(id, list);
    current = undefined;
  };
  for (const event of trace.events) {
    if (event.dir === 'host') {
      if (event.kind === 'can' && current) current.closed = true;
      if (event.kind !== 'packet') continue;
      // The same packet again before any answer is a resend after NAK (or a lost ACK), not a new command.
      if (
        current &&
        !current.closed &&
        current.answers.length === 0 &&
        current.id === event.id &&
        current.data === event.data
      )
        continue;
      finish();
      // An encrypted or unreadable command cannot be matched by id: its answers are skipped.
      if (event.id !== undefined)
        current = { id: event.id, t: event.t, data: event.data, answers: [], answered: false, closed: false };
      continue;
    }
    if (event.kind !== 'packet' || current === undefined || current.closed || event.id === undefined) continue;
    const delayMs = Math.max(0, event.t - current.t);
    const data =
      event.data !== undefined
        ? Buffer.from(event.data, 'hex')
        : Buffer.from(`${event.id}${event.status ?? '000'}`, 'latin1');
    if (event.id === 'NTM') {
      current.answers.push({ delayMs, notification: notificationText(data) });
    } else {
      current.answers.push({ delayMs, response: data });
      current.answered = true;
      current.closed = true;
    }
  }
  finish();
  return script;
}

/** A recorded response as a packet; one whose blocks do not parse goes back as id + status. */
function envelopeOf(data: Buffer): ResponsePacket {
  try {
    return decodeResponsePacket(data);
  } catch {
    const id = data.subarray(0, 3).toString('latin1');
    const status = Number(data.subarray(3, 6).toString('latin1'));
    return { id, status: Number.isInteger(status) ? status : 0, blocks: [] };
  }
}

async function play(exchange: ReplayExchange, ctx: CommandContext, timeScale: number): Promise<ResponsePacket> {
  const start = performance.now();
  for (const answer of exchange.answers) {
    const wait = answer.delayMs * timeScale - (performance.now() - start);
    if (wait > 0) await sleep(wait, ctx.signal);
    if (answer.notification !== undefined) await ctx.notify(answer.notification);
    else if (answer.response !== undefined) return envelopeOf(answer.response);
  }
  // Cancelled in the recording: no answer until the host cancels (or sends something else).
  await sleep(2 ** 31 - 1, ctx.signal);
  throw new CommandAborted();
}

/**
 * One handler per recorded command id, for one host connection (the counters of "the n-th GCX"
 * are per connection). The session answers every other id with ERR010 — but FCX, when re-sealing
 * and the recording has none (finishChip).
 */
export function replayHandlers(
  script: ReadonlyMap<string, readonly ReplayExchange[]>,
  options: { readonly timeScale: number; readonly reseal?: SimCard },
): ReadonlyMap<string, CommandHandler> {
  const played = new Map<string, number>();
  const handlers = new Map<string, CommandHandler>();
  const { reseal } = options;
  for (const [id, exchanges] of script) {
    handlers.set(id, {
      id,
      blocking: true,
      async run(cmd, ctx) {
        const n = played.get(id) ?? 0;
        played.set(id, n + 1);
        const recorded = await play(exchanges[Math.min(n, exchanges.length - 1)]!, ctx, options.timeScale);
        return reseal === undefined ? recorded : resealAnswer(reseal, cmd, recorded, ctx.device);
      },
    });
  }
  if (reseal !== undefined && !handlers.has('FCX')) {
    handlers.set('FCX', { id: 'FCX', blocking: false, run: (cmd) => Promise.resolve(finishChip(cmd)) });
  }
  return handlers;
}
