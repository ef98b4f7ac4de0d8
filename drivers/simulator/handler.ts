/**
 * How the simulator's command handlers are written: each pairs a command codec (which parses the
 * request and builds the response, drivers/abecs/commands) with a function that acts on the
 * simulated device. A handler answers an error status by throwing `StatusReply`; an abort (CAN or
 * a new command) surfaces as `CommandAborted` from every wait and means "send nothing".
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../abecs/codec.js';
import type { DeviceState } from './state.js';

/** ABECS statuses the simulator answers (abecs.md §4.1). */
export const ST = Object.freeze({
  OK: 0,
  NOSEC: 3,
  F1: 4,
  F2: 5,
  F3: 6,
  F4: 7,
  BACKSP: 8,
  INVCALL: 10,
  INVPARM: 11,
  TIMEOUT: 12,
  CANCEL: 13,
  MANDAT: 19,
  TABVERDIF: 20,
  TABERR: 21,
  INTERR: 40,
  MCDATAERR: 41,
  ERRKEY: 42,
  NOCARD: 43,
  PINBUSY: 44,
  DUMBCARD: 60,
  ERRCARD: 61,
  CARDPROBLEMS: 68,
  CARDAPPNAV: 70,
  ERRFALLBACK: 76,
  CTLSAPPNAV: 84,
} as const);

/** Thrown by a handler to answer `<ID><status>` with no data. */
export class StatusReply extends Error {
  constructor(readonly status: number) {
    super(`status ${status}`);
    this.name = 'StatusReply';
  }
}

export interface CommandContext {
  readonly device: DeviceState;
  /** Aborted by CAN or by a new command: stop, change nothing more, answer nothing. */
  readonly signal: AbortSignal;
  /** Sends an NTM notification (≤ 32 characters) unless the command was aborted. */
  notify(text: string): Promise<void>;
}

export interface CommandHandler {
  readonly id: string;
  readonly blocking: boolean;
  /** Parses the request, acts, and returns the response envelope's parts via the codec. */
  run(cmd: CommandEnvelope, ctx: CommandContext): Promise<ResponseEnvelope>;
}

/** Binds a codec to the function that carries the command out on the simulated device. */
export function defineHandler<Req, Res>(
  codec: CommandCodec<Req, Res>,
  handle: (req: Req, ctx: CommandContext) => Res | Promise<Res>,
): CommandHandler {
  return {
    id: codec.id,
    blocking: codec.blocking,
    async run(cmd, ctx) {
      // decodeRequest throws AbecsFormatError; the session answers its status (011/019).
      const req = codec.decodeRequest(cmd);
      const res = await handle(req, ctx);
      return codec.encodeResponse(res);
    },
  };
}
