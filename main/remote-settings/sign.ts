/**
 * The chain's side of a document (`pinbridge remote-settings sign`): what the person wrote — a
 * version, a scope, the settings, maybe an expiry — checked as an agent will check it, completed
 * with the format and the time of issue, and signed. Refused here, a mistake never reaches a
 * checkout to be refused there.
 */
import { checkPayload, DOCUMENT_FORMAT, signPayload, type Envelope } from './document.js';
import { forbiddenPaths, governedPaths } from './merge.js';
import { RemoteDocumentRefused } from './refusal.js';
import { RemoteSettingsError } from './keys.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The envelope for the document `json` (format and issued_at filled when absent), signed with `privateKeyPem`. */
export function signDocument(json: unknown, privateKeyPem: string, now: Date = new Date()): Envelope {
  if (!isObject(json)) throw new RemoteSettingsError('INVALID_DOCUMENT', 'the document must be a JSON object');
  const payload = { format: DOCUMENT_FORMAT, issued_at: now.toISOString(), ...json };
  try {
    const checked = checkPayload(payload);
    const forbidden = forbiddenPaths(governedPaths(checked.settings));
    if (forbidden.length > 0)
      throw new RemoteSettingsError(
        'INVALID_DOCUMENT',
        `the settings set ${forbidden.join(', ')}, which a remote document may never set: agents would refuse it`,
      );
  } catch (error) {
    if (error instanceof RemoteDocumentRefused) throw new RemoteSettingsError('INVALID_DOCUMENT', error.message);
    throw error;
  }
  try {
    return signPayload(Buffer.from(`${JSON.stringify(payload, null, 2)}\n`), privateKeyPem);
  } catch (error) {
    throw new RemoteSettingsError('NOT_A_KEY', `the private key cannot sign: ${(error as Error).message}`);
  }
}
