/**
 * A pairing request as the server announces it to the agent (which shows it in the window, and on
 * the terminal of `pinbridge start`). The wire's form of it is `PairingRequestView` (models.ts).
 */

/** What the cashier must see to approve a pairing: the code goes there and nowhere else. */
export interface PairingAnnouncement {
  readonly pairingId: string;
  readonly name: string;
  readonly origin: string | null;
  readonly code: string;
  readonly expiresAt: string;
  /** The process that asked (the browser, for a page), when the server could tell it. */
  readonly program: { readonly pid: number; readonly name: string; readonly program: string } | null;
}
