/**
 * One host connection to the simulated PINPAD: a DeviceLink over the transport, and the
 * dispatcher that runs one command at a time (abecs.md §1.6, §9). A CAN aborts the running
 * command and nothing is answered for it; a new valid command aborts the running one too and is
 * answered instead. Unknown ids get ERR010 (and so do the Abecs TLV commands on a legacy-profile
 * PINPAD), malformed commands the status the wire layer reads in them (011/019). After a secure
 * OPN, commands and answers travel encrypted (S220 §5.2.2, `#answer`).
 *
 * Logs carry command ids, lengths and statuses only, never packet contents.
 */
import type { ByteTransport } from '../transports/transport.js';
import { DeviceLink, type DeviceLinkOptions } from './device-link.js';
import { CommandAborted } from './customer.js';
import { ST, StatusReply, type CommandContext, type CommandHandler } from './handler.js';
import { ABECS_TLV_COMMANDS } from './profiles.js';
import { MEDIA_COMMANDS } from './wire/commands/media.js';
import type { DeviceState } from './state.js';
import { WireStatusError } from './wire/errors.js';
import { DC2 } from './wire/frame.js';
import {
  decodeCommandPacket,
  encodeNotification,
  encodeResponsePacket,
  ERR_ID,
  readCommandId,
  type CommandPacket,
  type ResponsePacket,
} from './wire/packet.js';
import { openPacket, sealPacket } from './wire/secure.js';
import { notificationMessage } from './wire/text.js';

export interface SimulatorSessionOptions {
  readonly link?: DeviceLinkOptions;
}

interface Running {
  readonly id: string;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

export class SimulatorSession {
  readonly link: DeviceLink;
  /** Resolves once the transport is open and commands are being served. */
  readonly ready: Promise<void>;
  #running: Running | undefined;
  #closed = false;
  readonly #device: DeviceState;
  readonly #handlers: ReadonlyMap<string, CommandHandler>;

  constructor(
    device: DeviceState,
    readonly transport: ByteTransport,
    handlers: ReadonlyMap<string, CommandHandler>,
    options: SimulatorSessionOptions = {},
  ) {
    this.#device = device;
    this.#handlers = handlers;
    this.link = new DeviceLink(transport, { logger: device.logger, ...options.link });
    this.link.on('command', (pktdata) => this.#onCommand(pktdata));
    this.link.on('cancel', () => this.#onCancel());
    this.ready = transport.isOpen ? Promise.resolve() : transport.open();
  }

  /** Id of the command being processed, if any (for status screens and tests). */
  get currentCommand(): string | undefined {
    return this.#running?.id;
  }

  /** Resolves when the command in progress (if any) has finished or been aborted. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running.done;
  }

  /** Stops serving: aborts the running command and detaches from the transport (left open). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const running = this.#running;
    running?.controller.abort();
    this.link.dispose();
    await running?.done;
  }

  #onCancel(): void {
    const running = this.#running;
    if (!running) return;
    this.#device.logger.info({ command: running.id }, 'simulator: command aborted by CAN');
    running.controller.abort();
  }

  #onCommand(pktdata: Buffer): void {
    if (this.#closed) return;
    const previous = this.#running;
    if (previous) {
      this.#device.logger.info({ command: previous.id }, 'simulator: command aborted by a new command');
      previous.controller.abort();
    }
    const controller = new AbortController();
    const id = pktdata.subarray(0, 3).toString('latin1');
    const running: Running = {
      id,
      controller,
      done: this.#process(pktdata, controller.signal, previous?.done).finally(() => {
        if (this.#running === running) this.#running = undefined;
      }),
    };
    this.#running = running;
  }

  async #process(pktdata: Buffer, signal: AbortSignal, previous: Promise<void> | undefined): Promise<void> {
    // The aborted command must be out of the way before the new one touches the device state.
    if (previous) await previous;
    if (signal.aborted) return;
    const answer = await this.#answer(pktdata, signal);
    if (answer === undefined || signal.aborted || this.#closed) return;
    const { response, ksec } = answer;
    this.#device.logger.debug(
      { command: response.id, status: response.status, blocks: response.blocks.length, encrypted: ksec !== undefined },
      'simulator: response',
    );
    const packet = encodeResponsePacket(response);
    await this.link.respond(ksec === undefined ? packet : sealPacket(ksec, packet));
  }

  /**
   * Secure communication around the command (S220 §5.2.2, §6.3.2, §6.4.1): the response, and the
   * KSEC to encrypt it with (none: in clear).
   *
   * - An encrypted packet while secure communication is off: ERR003.
   * - An encrypted packet that fails the checks of §5.2.2.2: ERR009, and an encrypted OPN:
   *   OPN010 — both in clear, after the processing of CLO (secure communication ends, the PINPAD
   *   is closed).
   * - Any other encrypted command is answered encrypted, its NTMs too, except CLO and CLX, whose
   *   answers are always in clear (they end secure communication).
   * - A clear command while secure communication is on: `<ID>009` in clear, the session kept —
   *   except OPN, which is only ever sent in clear and always accepted.
   */
  async #answer(
    pktdata: Buffer,
    signal: AbortSignal,
  ): Promise<{ readonly response: ResponsePacket; readonly ksec?: Buffer } | undefined> {
    const device = this.#device;
    const ksec = device.ksec;
    if (pktdata[0] === DC2) {
      if (ksec === undefined) return { response: { id: ERR_ID, status: ST.NOSEC, blocks: [] } };
      const clear = openPacket(ksec, pktdata);
      if (clear === undefined) {
        device.close();
        return { response: { id: ERR_ID, status: ST.ERRPKTSEC, blocks: [] } };
      }
      const id = readCommandId(clear);
      if (id === 'OPN') {
        device.close();
        return { response: { id, status: ST.INVCALL, blocks: [] } };
      }
      const response = await this.#respondTo(clear, signal, ksec);
      if (response === undefined) return undefined;
      return id === 'CLO' || id === 'CLX' ? { response } : { response, ksec };
    }
    const id = readCommandId(pktdata);
    if (ksec !== undefined && id !== 'OPN') return { response: { id: id ?? ERR_ID, status: ST.ERRPKTSEC, blocks: [] } };
    const response = await this.#respondTo(pktdata, signal, undefined);
    return response === undefined ? undefined : { response };
  }

  /**
   * The handler of a command this device's profile knows: a BibComp PINPAD has no TLV commands, a
   * text-only one no multimedia commands (optional, S220 §3.4: ERR010 like any unknown command).
   */
  #handlerFor(id: string): CommandHandler | undefined {
    if (!this.#device.profile.abecsCommands && ABECS_TLV_COMMANDS.has(id)) return undefined;
    if (!this.#device.profile.graphic && MEDIA_COMMANDS.has(id)) return undefined;
    return this.#handlers.get(id);
  }

  /** The command's response; `ksec` when it came encrypted (its NTMs are encrypted too). */
  async #respondTo(
    pktdata: Buffer,
    signal: AbortSignal,
    ksec: Buffer | undefined,
  ): Promise<ResponsePacket | undefined> {
    let cmd: CommandPacket;
    try {
      cmd = decodeCommandPacket(pktdata);
    } catch {
      // Block lengths that do not parse: an integrity error in a command the PINPAD knows is
      // ST_INVPARM for that command (S220 §6.2.2); the training simulator answers ERR010.
      const id = readCommandId(pktdata);
      if (id !== undefined && this.#device.profile.envelopeErrorIsInvparm && this.#handlerFor(id)) {
        return { id, status: ST.INVPARM, blocks: [] };
      }
      return { id: ERR_ID, status: ST.INVCALL, blocks: [] };
    }
    const handler = this.#handlerFor(cmd.id);
    this.#device.logger.debug({ command: cmd.id, length: pktdata.length }, 'simulator: command');
    if (!handler) return { id: ERR_ID, status: ST.INVCALL, blocks: [] };
    // S220 §6.4.1: a command before any OPN (or after CLO/CLX) runs as if a classic OPN came first.
    if (!this.#device.opened && this.#device.profile.implicitOpen && cmd.id !== 'OPN') this.#device.open();
    const ctx: CommandContext = {
      device: this.#device,
      signal,
      notify: async (text) => {
        if (signal.aborted || this.#closed) throw new CommandAborted();
        // NTM_MSG is 2×16 (S220 §2.3.3, §7.4), as the PPC-930 sent it (TRACE "NTM000032…");
        // the training simulator keeps its historical unpadded text.
        const ntm = encodeNotification(
          this.#device.profile.name === 'training' ? text : notificationMessage(text.slice(0, 16), text.slice(16)),
        );
        await this.link.notifyPacket(ksec === undefined ? ntm : sealPacket(ksec, ntm));
      },
    };
    try {
      return await handler.run(cmd, ctx);
    } catch (error) {
      if (error instanceof CommandAborted || signal.aborted) return undefined;
      if (error instanceof StatusReply) return { id: cmd.id, status: error.status, blocks: [] };
      if (error instanceof WireStatusError) return { id: cmd.id, status: error.status, blocks: [] };
      this.#device.logger.error(
        { command: cmd.id, error: error instanceof Error ? error.message : String(error) },
        'simulator: internal error while handling a command',
      );
      return { id: cmd.id, status: ST.INTERR, blocks: [] };
    }
  }
}
