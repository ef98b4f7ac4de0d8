/**
 * The shape every ABECS command module follows. One module per command (drivers/abecs/commands),
 * each exporting one `CommandCodec`. Codecs are symmetric: the host driver uses
 * `encodeRequest`/`decodeResponse`; `decodeRequest`/`encodeResponse` serve the trace's masking
 * (trace/mask.ts) and the property tests, which check that each pair is an identity. The
 * simulator does not use them: it reads the protocol with its own wire layer, written from the
 * spec (drivers/simulator/wire), so a misreading here cannot be agreed with by construction.
 *
 * Codecs work on envelopes (abecs.md §2.2): the 3-letter id, the N3 status for responses, and
 * the data blocks (each preceded on the wire by its N3 length). `envelope.ts` turns envelopes
 * into PKTDATA bytes and back; `frame.ts` turns PKTDATA into wire bytes.
 */
export interface CommandEnvelope {
  /** CMD_ID, three ASCII letters, e.g. "DSP". */
  readonly id: string;
  /** CMD_BLK1…n; an empty list is sent as the bare id (or "XXX000", both are accepted). */
  readonly blocks: readonly Buffer[];
}

export interface ResponseEnvelope {
  /** RSP_ID: the command's id, or "ERR" for an unknown command. */
  readonly id: string;
  /** RSP_STAT as a number (0 = ST_OK). */
  readonly status: number;
  /** RSP_BLK1…n; always empty when the status is an error. */
  readonly blocks: readonly Buffer[];
}

export interface CommandCodec<Req, Res> {
  readonly id: string;
  /** Blocking commands wait for the cardholder without the 10 s limit and may send NTM. */
  readonly blocking: boolean;
  /**
   * Statuses other than ST_OK that carry a result for this command instead of an error
   * (GKY returns the key in RSP_STAT; TLI answers 020 when a new table version starts).
   * `decodeResponse` receives envelopes with these statuses too.
   */
  readonly resultStatuses?: readonly number[];
  /** Validates `req` (throws InvalidArgumentError) and builds the command. */
  encodeRequest(req: Req): CommandEnvelope;
  /** Parses a command as the PINPAD receives it (throws AbecsFormatError on malformed input). */
  decodeRequest(cmd: CommandEnvelope): Req;
  /** Builds the response the PINPAD sends for a result. */
  encodeResponse(res: Res): ResponseEnvelope;
  /** Parses a successful (or result-status) response (throws AbecsFormatError on malformed input). */
  decodeResponse(rsp: ResponseEnvelope): Res;
}

/** The result of a command that returns nothing but its status. */
export type NoData = Record<string, never>;
