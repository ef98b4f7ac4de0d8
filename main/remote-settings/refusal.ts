/**
 * Why a remote settings document is not followed: a stable code (logs, doctor, `pinbridge
 * remote-settings status --json`, the window) and an English sentence. A document refused for
 * what it is (signature, scope, version, content) is never tried again; one refused because the
 * agent did not reach ready with it is not either (docs/remote-settings.md, Refusals).
 */
export type RefusalCode =
  /** Not an envelope of base64 payload and signature, or a payload that is not the format's JSON. */
  | 'MALFORMED'
  /** The signature does not verify with the pinned key: changed after signing, or another key. */
  | 'TAMPERED'
  /** The payload's format is not one this agent reads. */
  | 'UNKNOWN_FORMAT'
  /** The scope names another chain, store or checkout. */
  | 'WRONG_SCOPE'
  /** A version lower than the one running: an old document served again (replay, downgrade). */
  | 'DOWNGRADE'
  /** The same version with other content than the one running. */
  | 'VERSION_REUSED'
  /** A version refused before (it is never tried again). */
  | 'REFUSED_BEFORE'
  /** Past its expires_at. */
  | 'EXPIRED'
  /** It sets a field a remote document may never set (remote_settings, fleet, secrets). */
  | 'FORBIDDEN_FIELD'
  /** The local file with it merged over does not pass the settings' checks. */
  | 'INVALID_SETTINGS'
  /** The agent did not reach ready with it (start failed, or it stopped before confirming): rolled back. */
  | 'NOT_READY';

export interface Refusal {
  readonly code: RefusalCode;
  readonly message: string;
  /** The document's version, when it could be read. */
  readonly version: number | null;
  /** When it was refused (ISO 8601). */
  readonly at: string;
}

export class RemoteDocumentRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly version: number | null = null,
  ) {
    super(message);
    this.name = 'RemoteDocumentRefused';
  }
}
