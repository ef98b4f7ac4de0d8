import { DriverError } from '../errors.js';

/** ABECS status a PINPAD answers to a malformed command: ST_INVPARM (011) or ST_MANDAT (019). */
export type MalformedStatus = 11 | 19;

/**
 * A packet whose contents do not follow the ABECS layout: a response the driver cannot parse
 * (code MALFORMED_RESPONSE) or a command the simulator cannot parse (code MALFORMED_COMMAND).
 * `status` is what a PINPAD answers to such a command. Messages describe the layout problem
 * (field names, lengths), never the packet's bytes.
 */
export class AbecsFormatError extends DriverError {
  readonly status: MalformedStatus;

  constructor(code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND', message: string, status: MalformedStatus = 11) {
    super(code, message);
    this.status = status;
  }
}
