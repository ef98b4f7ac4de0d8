/**
 * `pinbridge_certificate_expiry_timestamp_seconds{certificate}`: when each certificate the agent
 * presents stops being valid (notAfter, Unix seconds), so a chain is warned weeks ahead rather
 * than when the payments API or the POS refuses the connection. Only the certificates the agent
 * holds appear: `api_client` (mutual TLS with the payments API) and `pos_tls` (the POS's wss://,
 * `pinbridge pos cert`).
 */
import { Gauge, type Registry } from 'prom-client';
import type { MetricsGuard } from './guard.js';

export const CERTIFICATE_NAMES = ['api_client', 'pos_tls'] as const;
export type CertificateName = (typeof CERTIFICATE_NAMES)[number];

export interface HeldCertificate {
  readonly certificate: CertificateName;
  readonly notAfter: Date;
}

/** The certificates the agent holds now; those it has not are left out. */
export type CertificatesSource = () => readonly HeldCertificate[];

export function registerCertificateGauge(
  registers: Registry[],
  certificates: CertificatesSource,
  guard: MetricsGuard,
): void {
  const gauge: Gauge<'certificate'> = new Gauge({
    name: 'pinbridge_certificate_expiry_timestamp_seconds',
    help:
      'When each certificate the agent presents expires (notAfter, Unix seconds): api_client (mutual TLS with the payments API), ' +
      'pos_tls (the POS connection, pinbridge pos cert). A certificate the agent does not have is not exposed.',
    labelNames: ['certificate'],
    registers,
    collect: () => {
      gauge.reset();
      for (const held of guard('certificates', certificates) ?? []) {
        const seconds = held.notAfter.getTime() / 1000;
        // A closed set of names: nothing else (a subject, a serial) becomes a label.
        if ((CERTIFICATE_NAMES as readonly string[]).includes(held.certificate) && Number.isFinite(seconds))
          gauge.set({ certificate: held.certificate }, Math.floor(seconds));
      }
    },
  });
}
