/**
 * The certificates the agent presents, for `pinbridge_certificate_expiry_timestamp_seconds`:
 * the payments API client certificate (mutual TLS, when the settings name one) and the POS TLS
 * certificate (`pos.tls`, made by `pinbridge pos cert`). Read once at start-up, from what the
 * agent loaded: those are the certificates it presents until it restarts, whatever the files
 * on the disk become meanwhile.
 */
import { X509Certificate } from 'node:crypto';
import type { CertificateInfo } from '../api/index.js';
import type { CertificatesSource, HeldCertificate } from '../metrics/certificates.js';
import type { MetricsLogger } from '../metrics/metrics.js';

/** The notAfter of a PEM certificate; of a chain, the first one's (the one presented). Throws on no PEM. */
export function notAfterOf(pem: string | Buffer): Date {
  return new Date(new X509Certificate(pem).validTo);
}

export function heldCertificates(
  apiClient: Pick<CertificateInfo, 'validTo'> | undefined,
  posTlsCert: string | Buffer | undefined,
  logger: MetricsLogger,
): CertificatesSource {
  const held: HeldCertificate[] = [];
  if (apiClient !== undefined) held.push({ certificate: 'api_client', notAfter: apiClient.validTo });
  if (posTlsCert !== undefined) {
    try {
      held.push({ certificate: 'pos_tls', notAfter: notAfterOf(posTlsCert) });
    } catch (error) {
      // The TLS server refuses such a file first; a metric is never a reason to stop.
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'metrics: the POS TLS certificate could not be read for its expiry',
      );
    }
  }
  return () => held;
}
