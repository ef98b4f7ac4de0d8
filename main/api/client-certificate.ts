/**
 * The client certificate a provider may require on every call (mutual TLS): GoPag, in front of
 * this API family, asks for an ICP-Brasil certificate whose serial number equals the
 * `marketplace_id` in the URL, and refuses the call (401/403) otherwise.
 *
 * A store gives it as PEM files (certificate and private key) or as one PKCS#12 file (.pfx/.p12,
 * as ICP-Brasil A1 certificates are delivered) with its passphrase; optionally a CA bundle for a
 * provider (or a sandbox) whose server certificate is not from a public CA. Everything is read
 * and checked once, by Node's own TLS (the same OpenSSL that will present it), so a wrong
 * passphrase or a key of another certificate is a clear error at start-up, not a refused call.
 * A legacy PKCS#12 file (RC2-40, the OpenSSL 1.x default), which OpenSSL 3 refuses without its
 * legacy provider, is opened by legacy-pkcs12.ts and handed on as PEM.
 */
import { CodedError } from '../../lib/errors.js';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SecureContext } from 'node:tls';
import { nodeTls } from '../../lib/net-builtins.js';
import { isUnsupportedPkcs12, LegacyPkcs12Error, openLegacyPkcs12 } from './legacy-pkcs12.js';

/** Where the certificate is: paths already resolved by the caller. */
export interface ClientCertificateFiles {
  /** PEM certificate (chain allowed), with `key`. */
  readonly cert?: string;
  /** PEM private key of `cert`. */
  readonly key?: string;
  /** PKCS#12 (.pfx / .p12) holding the certificate and its key, instead of cert + key. */
  readonly pfx?: string;
  /** The PKCS#12 file's passphrase (from the environment or secure storage, never a file). */
  readonly passphrase?: string;
  /** PEM CA certificates to trust for the provider's server, beside the public ones. */
  readonly ca?: string;
}

/** What the HTTP client hands to TLS: the files' bytes. */
export interface ClientTls {
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly pfx?: Buffer;
  readonly passphrase?: string;
  readonly ca?: Buffer;
}

export type ClientCertificateErrorCode =
  /** cert without key, key without cert, or both PEM and PKCS#12. */
  | 'INCOMPLETE'
  /** A file cannot be read (missing, no permission). */
  | 'UNREADABLE'
  /** The PEM file holds no certificate, or the key file no key. */
  | 'NOT_PEM'
  /** The key is not the certificate's. */
  | 'KEY_MISMATCH'
  /** The PKCS#12 passphrase is wrong (or missing). */
  | 'PFX_PASSPHRASE'
  /** The PKCS#12 file cannot be read as PKCS#12. */
  | 'PFX_INVALID';

export class ClientCertificateError extends CodedError<ClientCertificateErrorCode> {
  constructor(code: ClientCertificateErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** What `pinbridge doctor` and the logs say of the certificate (nothing secret). */
export interface CertificateInfo {
  /** Upper-case hex, as X.509 tools print it. */
  readonly serialNumber: string;
  readonly subject: string;
  readonly issuer: string;
  readonly validFrom: Date;
  readonly validTo: Date;
  readonly fingerprint256: string;
}

function read(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message;
    throw new ClientCertificateError('UNREADABLE', `The ${what} ${path} cannot be read: ${reason}.`, { cause: error });
  }
}

/**
 * Reads and checks the certificate files. Undefined when none is named (no mutual TLS). Throws
 * ClientCertificateError with a sentence naming the file.
 */
export function loadClientTls(files: ClientCertificateFiles): ClientTls | undefined {
  const { cert, key, pfx, ca } = files;
  if (cert === undefined && key === undefined && pfx === undefined) {
    return ca === undefined ? undefined : { ca: read(ca, 'CA certificate file') };
  }
  if (pfx !== undefined && (cert !== undefined || key !== undefined)) {
    throw new ClientCertificateError(
      'INCOMPLETE',
      'Give the client certificate either as a PKCS#12 file or as PEM certificate and key files, not both.',
    );
  }
  if (pfx === undefined && (cert === undefined || key === undefined)) {
    throw new ClientCertificateError(
      'INCOMPLETE',
      `The client certificate needs both files: ${cert === undefined ? 'the certificate' : 'the private key'} is missing.`,
    );
  }
  const tls: ClientTls =
    pfx !== undefined
      ? pkcs12(read(pfx, 'PKCS#12 file'), files)
      : { cert: read(cert!, 'certificate file'), key: read(key!, 'private key file') };
  const withCa = ca === undefined ? tls : { ...tls, ca: read(ca, 'CA certificate file') };
  certificateInfo(withCa, files);
  return withCa;
}

/**
 * A PKCS#12 file as TLS will take it: as it is when Node's OpenSSL reads it; as PEM when OpenSSL
 * refuses its legacy encryption (RC2-40), which legacy-pkcs12.ts opens instead.
 */
function pkcs12(pfx: Buffer, names: ClientCertificateFiles): ClientTls {
  const tls = { pfx, ...(names.passphrase === undefined ? {} : { passphrase: names.passphrase }) };
  try {
    nodeTls().createSecureContext(tls);
    return tls;
  } catch (error) {
    if (!isUnsupportedPkcs12(error)) return tls; // certificateInfo names the problem
    try {
      return openLegacyPkcs12(pfx, names.passphrase);
    } catch (legacy) {
      if (legacy instanceof LegacyPkcs12Error && legacy.problem === 'passphrase')
        throw passphraseError(names.pfx, names.passphrase, legacy);
      const file = names.pfx ?? 'certificado.pfx';
      if (legacy instanceof LegacyPkcs12Error && legacy.problem === 'incomplete') {
        throw new ClientCertificateError(
          'PFX_INVALID',
          `The PKCS#12 file ${file} cannot be presented: ${legacy.message}. Export the certificate again with its private key.`,
          { cause: legacy },
        );
      }
      throw new ClientCertificateError(
        'PFX_INVALID',
        `The PKCS#12 file ${file} uses a legacy encryption (RC2) and cannot be opened (${legacy instanceof Error ? legacy.message : String(legacy)}): re-export it with AES-256, typing its passphrase when asked: ${reexportCommand(file)}`,
        { cause: legacy },
      );
    }
  }
}

/**
 * The commands that turn a legacy PKCS#12 file into one OpenSSL 3 reads (AES-256, SHA-256 MAC),
 * with OpenSSL 3's own tool; the unencrypted middle file is private (umask) and removed. A pipe
 * will not do: `pkcs12 -export` reads its input twice.
 */
export function reexportCommand(file: string): string {
  const aes = file.replace(/(\.(pfx|p12))?$/i, '-aes.pfx');
  return `\`(umask 077; openssl pkcs12 -legacy -in '${file}' -nodes -out chave-e-certificado.pem && openssl pkcs12 -export -in chave-e-certificado.pem -out '${aes}' -keypbe AES-256-CBC -certpbe AES-256-CBC -macalg sha256; rm -f chave-e-certificado.pem)\``;
}

function passphraseError(
  file: string | undefined,
  passphrase: string | undefined,
  cause: unknown,
): ClientCertificateError {
  return new ClientCertificateError(
    'PFX_PASSPHRASE',
    `The passphrase of the PKCS#12 file ${file ?? ''} is ${passphrase === undefined ? 'missing' : 'wrong'} (enter it in the Pinbridge window, or set PINBRIDGE_CERT_PASSPHRASE).`,
    { cause },
  );
}

/** The certificate TLS will present, checked the way TLS will use it. */
export function certificateInfo(tls: ClientTls, names: ClientCertificateFiles = {}): CertificateInfo {
  let raw: Buffer;
  if (tls.pfx !== undefined) {
    const context = secureContext(tls, names);
    const presented = new (nodeTls().TLSSocket)(null as never, { secureContext: context }).getCertificate();
    if (presented === null || !('raw' in presented))
      throw new ClientCertificateError('PFX_INVALID', `The PKCS#12 file ${names.pfx ?? ''} holds no certificate.`);
    raw = presented.raw;
  } else {
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(tls.cert ?? Buffer.alloc(0));
    } catch (error) {
      throw new ClientCertificateError(
        'NOT_PEM',
        `The certificate file ${names.cert ?? ''} holds no PEM certificate.`,
        { cause: error },
      );
    }
    let matches: boolean;
    try {
      matches = certificate.checkPrivateKey(createPrivateKey(tls.key ?? Buffer.alloc(0)));
    } catch (error) {
      throw new ClientCertificateError(
        'NOT_PEM',
        `The private key file ${names.key ?? ''} holds no private key Pinbridge can read (PEM, unencrypted).`,
        { cause: error },
      );
    }
    if (!matches)
      throw new ClientCertificateError(
        'KEY_MISMATCH',
        `The private key ${names.key ?? ''} is not the key of the certificate ${names.cert ?? ''}.`,
      );
    raw = certificate.raw;
  }
  const certificate = new X509Certificate(raw);
  return {
    serialNumber: certificate.serialNumber.toUpperCase(),
    subject: certificate.subject.replaceAll('\n', ', '),
    issuer: certificate.issuer.replaceAll('\n', ', '),
    validFrom: new Date(certificate.validFrom),
    validTo: new Date(certificate.validTo),
    fingerprint256: certificate.fingerprint256,
  };
}

function secureContext(tls: ClientTls, names: ClientCertificateFiles): SecureContext {
  try {
    return nodeTls().createSecureContext({
      pfx: tls.pfx,
      ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/mac verify failure|bad decrypt|password/i.test(message))
      throw passphraseError(names.pfx, tls.passphrase, error);
    throw new ClientCertificateError(
      'PFX_INVALID',
      `The file ${names.pfx ?? ''} is not a PKCS#12 certificate: ${message}.`,
      { cause: error },
    );
  }
}

/**
 * Whether the certificate's serial number is the marketplace id, as GoPag requires: compared as
 * hex, without case or leading zeros (a serial whose first bit is set gains a 00 byte in DER).
 */
export function serialMatchesMarketplace(info: Pick<CertificateInfo, 'serialNumber'>, marketplaceId: string): boolean {
  const normal = (hex: string): string => hex.toLowerCase().replace(/^0+/, '');
  return /^[0-9a-f]+$/i.test(marketplaceId) && normal(info.serialNumber) === normal(marketplaceId);
}

/** Whole days until the certificate expires (negative once it has). */
export function daysToExpiry(info: Pick<CertificateInfo, 'validTo'>, now: Date = new Date()): number {
  return Math.floor((info.validTo.getTime() - now.getTime()) / 86_400_000);
}
