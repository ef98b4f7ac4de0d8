/**
 * Sends a support bundle to the chain's support desk: one HTTP PUT of the archive's bytes as they
 * are (Content-Type application/gzip) to `support.upload_url` — a PUT rather than a multipart POST
 * so the bytes received are the bytes written, which a presigned object-store URL also takes.
 * Only over HTTPS; plain HTTP only to this computer (127.0.0.1, ::1, localhost), for tests.
 */
import { uploadUrlProblem } from '../settings/support-settings.js';
import { SupportBundleError } from './bundle.js';

/** Why an upload failed: the URL cannot take it, nothing answered, no answer in time, or a refusal (`status`). */
export type UploadFailureKind = 'bad_url' | 'unreachable' | 'timeout' | 'refused';

export class UploadError extends SupportBundleError {
  constructor(
    readonly kind: UploadFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super('UPLOAD_FAILED', message);
  }
}

export async function uploadBundle(url: string, archive: Buffer, timeoutMs = 60_000): Promise<{ status: number }> {
  const problem = uploadUrlProblem(url);
  if (problem !== undefined) throw new UploadError('bad_url', `support.upload_url ${problem}`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/gzip' },
      body: new Uint8Array(archive),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new UploadError(
      timedOut ? 'timeout' : 'unreachable',
      timedOut
        ? `${new URL(url).origin} did not take the bundle within ${timeoutMs / 1000} s`
        : `the bundle could not be sent to ${new URL(url).origin}: ${(error as Error).message}`,
    );
  }
  // The answer's body is not wanted: read and dropped, so the connection is let go.
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) {
    throw new UploadError(
      'refused',
      `${new URL(url).origin} refused the bundle: HTTP ${response.status}`,
      response.status,
    );
  }
  return { status: response.status };
}
