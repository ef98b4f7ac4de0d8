/**
 * Sends a support bundle to the chain's support desk: one HTTP PUT of the archive's bytes as they
 * are (Content-Type application/gzip) to `support.upload_url` — a PUT rather than a multipart POST
 * so the bytes received are the bytes written, which a presigned object-store URL also takes.
 * Only over HTTPS; plain HTTP only to this computer (127.0.0.1, ::1, localhost), for tests.
 */
import { uploadUrlProblem } from '../settings/support-settings.js';
import { SupportBundleError } from './bundle.js';

export async function uploadBundle(url: string, archive: Buffer, timeoutMs = 60_000): Promise<{ status: number }> {
  const problem = uploadUrlProblem(url);
  if (problem !== undefined) throw new SupportBundleError('UPLOAD_FAILED', `support.upload_url ${problem}`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/gzip' },
      body: new Uint8Array(archive),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new SupportBundleError(
      'UPLOAD_FAILED',
      `the bundle could not be sent to ${new URL(url).origin}: ${(error as Error).message}`,
    );
  }
  if (!response.ok) {
    throw new SupportBundleError('UPLOAD_FAILED', `${new URL(url).origin} refused the bundle: HTTP ${response.status}`);
  }
  return { status: response.status };
}
