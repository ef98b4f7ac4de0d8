/**
 * A certificate for `wss://127.0.0.1` / `wss://localhost`, made on the store's machine.
 *
 * Two certificates, as mkcert makes them: a small certificate authority ("Pinbridge local CA")
 * that the machine is told to trust, and the server certificate it signs for `localhost`,
 * `127.0.0.1` and `::1`. Unlike mkcert, the CA's private key is thrown away as soon as the
 * server certificate is signed: a root trusted by every browser on the machine whose key sits
 * in a file could sign a certificate for any bank. The price is that a renewal makes a new CA,
 * to be trusted again (every two years or so).
 *
 * The server certificate lives 825 days, the longest macOS accepts for a TLS server certificate
 * even under a local root; ECDSA P-256 keys, SHA-256 signatures.
 */
import { X509Certificate } from 'node:crypto';
import { hostname } from 'node:os';
import { generate } from 'selfsigned';
import { MAX_SERVER_DAYS } from './limits.js';

export { MAX_SERVER_DAYS };
const DAY_MS = 24 * 60 * 60 * 1000;

export interface LocalCertificateOptions {
  /** Days the server certificate is valid (1 to 825, default 825). */
  readonly days?: number;
  /** When validity starts (default now; tests move it). */
  readonly now?: Date;
  /** The machine's name in the CA's name, so a technician recognises it in a trust store. */
  readonly machine?: string;
}

export interface LocalCertificate {
  /** PEM of the CA certificate alone: the file the machine (and Firefox) is told to trust. */
  readonly caCert: string;
  /** PEM of the server certificate followed by the CA's, as the server sends them. */
  readonly cert: string;
  /** PEM (PKCS#8) of the server certificate's private key. */
  readonly key: string;
  /** The CA certificate's SHA-256 fingerprint (AA:BB:…), to check what a trust store shows. */
  readonly caFingerprint256: string;
  /** The names the server certificate is valid for. */
  readonly names: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export const LOCAL_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

export async function createLocalCertificate(options: LocalCertificateOptions = {}): Promise<LocalCertificate> {
  const days = options.days ?? MAX_SERVER_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_SERVER_DAYS) {
    throw new RangeError(`days must be a whole number from 1 to ${MAX_SERVER_DAYS} (got ${days})`);
  }
  // Backdated an hour so a machine whose clock is a little behind the browser's still accepts it;
  // whole seconds, as certificates keep them.
  const notBefore = new Date(Math.floor(((options.now ?? new Date()).getTime() - 60 * 60 * 1000) / 1000) * 1000);
  const notAfter = new Date(notBefore.getTime() + days * DAY_MS);
  const machine = (options.machine ?? hostname()).slice(0, 32);
  const stamp = notBefore.toISOString().slice(0, 10);

  const ca = await generate(
    [
      { name: 'commonName', value: `Pinbridge local CA ${machine} ${stamp}` },
      { name: 'organizationName', value: 'Pinbridge (this machine only)' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: notBefore,
      // The CA outlives its one certificate by a day; its key is gone, so it can sign nothing else.
      notAfterDate: new Date(notAfter.getTime() + DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    },
  );
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: notAfter,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  const caCert = normalizePem(ca.cert);
  return {
    caCert,
    cert: normalizePem(server.cert) + caCert,
    key: normalizePem(server.private),
    caFingerprint256: new X509Certificate(caCert).fingerprint256,
    names: LOCAL_NAMES,
    notBefore,
    notAfter,
  };
}

/** One trailing newline, Unix line ends: files that concatenate and diff cleanly. */
function normalizePem(pem: string): string {
  return `${pem.replace(/\r\n/g, '\n').trim()}\n`;
}
