/**
 * How the simulator's command handlers are written: each pairs a command of the simulator's own
 * wire layer (wire/commands: how the PINPAD reads the request and writes the answer) with a
 * function that acts on the simulated device. A handler answers an error status by throwing
 * `StatusReply`; an abort (CAN or a new command) surfaces as `CommandAborted` from every wait and
 * means "send nothing".
 */
import type { DeviceCommand, Reading } from './wire/command.js';
import type { CommandPacket, ResponsePacket } from './wire/packet.js';
import type { DeviceState } from './state.js';

export { ST } from './wire/statuses.js';

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
  /** Reads the request, acts, and returns the response packet. */
  run(cmd: CommandPacket, ctx: CommandContext): Promise<ResponsePacket>;
}

/** How this device reads the spec where it is lenient or inconsistent (profiles.ts). */
export function readingOf(device: DeviceState): Reading {
  return { strict: device.profile.strictReading, specVersion: device.identity.specVersion };
}

/** Binds a wire command to the function that carries it out on the simulated device. */
export function defineHandler<Req, Res>(
  command: DeviceCommand<Req, Res>,
  handle: (req: Req, ctx: CommandContext) => Res | Promise<Res>,
): CommandHandler {
  return {
    id: command.id,
    blocking: command.blocking,
    async run(cmd, ctx) {
      // decode throws WireStatusError; the session answers its status (011/019).
      const req = command.decode(cmd, readingOf(ctx.device));
      const res = await handle(req, ctx);
      return { id: command.id, ...command.encode(res) };
    },
  };
}
