/**
 * A command the PINPAD cannot accept as sent: the status it answers (`<ID><status>`, no data).
 * Thrown by the wire layer's decoders (ST_INVPARM for a malformed field or TLV, ST_MANDAT for a
 * missing mandatory parameter, S220 §3.1.3.1 and §6.2.2) and caught by the session.
 */
export class WireStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'WireStatusError';
  }
}
