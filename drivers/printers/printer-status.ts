/**
 * What a receipt printer says about itself, read from the ESC/POS real-time status (status.ts). Kept
 * apart from the parsing so that PrinterError (errors.ts), which carries the status that made a
 * printer refuse a job, can name it while status.ts throws PrinterError.
 */

/**
 * The printer's error, most serious first when several are reported. UNKNOWN: DLE EOT 2 says an error
 * occurred but DLE EOT 3 names none of the causes this model defines.
 */
export type PrinterFault = 'UNRECOVERABLE' | 'MECHANICAL' | 'AUTOCUTTER' | 'AUTO_RECOVERABLE' | 'UNKNOWN';

export interface PrinterStatus {
  /** DLE EOT 1 bit 3 off. */
  readonly online: boolean;
  readonly coverOpen: boolean;
  /** The roll end sensor sees no paper, or printing stopped at paper end. */
  readonly paperOut: boolean;
  readonly paperNearEnd: boolean;
  /** From the kick-out connector's pin 3; which level means "open" depends on the drawer's switch. */
  readonly drawerOpen: boolean;
  readonly error: PrinterFault | null;
}
