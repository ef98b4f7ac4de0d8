/**
 * Legacy PKCS#12 files, read without OpenSSL. `openssl pkcs12 -export` of OpenSSL 1.x (and many
 * certificate authorities' and browsers' exports since) seals the certificate bag with
 * pbeWithSHA1And40BitRC2-CBC; OpenSSL 3 keeps RC2 in its "legacy" provider, which Node does not
 * load, so Node's TLS refuses such a file ("Unsupported PKCS12 PFX data") although the passphrase
 * is right. node-forge implements RC2 and the PKCS#12 key derivation in JavaScript: it opens the
 * file (checking its MAC, so a wrong passphrase is still told apart), and the certificate chain
 * and the private key go on to TLS as PEM, checked by Node like any PEM pair.
 *
 * Only called after Node has refused the file as unsupported: every file Node reads itself keeps
 * going through OpenSSL.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import type forge from 'node-forge';

/** node-forge (CommonJS, ~40 modules), loaded only when a legacy file is met: every other certificate goes through OpenSSL. */
const forgeLibrary = (): typeof forge => createRequire(import.meta.url)('node-forge') as typeof forge;

/** The PEM certificate (the key's first, then the rest of the chain) and the PEM PKCS#8 key. */
export interface PemPair {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** The passphrase does not open it; it lacks the key or its certificate; or node-forge cannot read it. */
export type LegacyPkcs12Problem = 'passphrase' | 'incomplete' | 'invalid';

/** Why a legacy file could not be opened. */
export class LegacyPkcs12Error extends Error {
  readonly problem: LegacyPkcs12Problem;

  constructor(problem: LegacyPkcs12Problem, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LegacyPkcs12Error';
    this.problem = problem;
  }
}

/** Whether Node's TLS refused a PKCS#12 file for its algorithms (not for its passphrase or shape). */
export function isUnsupportedPkcs12(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // OpenSSL 3: "Unsupported PKCS12 PFX data"; BoringSSL (the Electron shell's): UNKNOWN_ALGORITHM or UNSUPPORTED_CIPHER.
  return (
    (error as NodeJS.ErrnoException).code === 'ERR_CRYPTO_UNSUPPORTED_OPERATION' ||
    /unsupported|unknown[ _]algorithm/i.test(error.message)
  );
}

// PKCS#12 bag types (RFC 7292 §4.2).
const KEY_BAG = '1.2.840.113549.1.12.10.1.1';
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const CERT_BAG = '1.2.840.113549.1.12.10.1.3';

const pem = (label: string, der: Buffer): string =>
  `-----BEGIN ${label}-----\n${(der.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${label}-----\n`;

const derOf = (node: forge.asn1.Asn1): Buffer => Buffer.from(forgeLibrary().asn1.toDer(node).getBytes(), 'binary');

/** A bag as node-forge fills it: `asn1` is set only when it could not parse the key or certificate itself. */
type Bag = Omit<forge.pkcs12.Bag, 'asn1'> & { readonly asn1?: forge.asn1.Asn1 };

/** The PKCS#8 PrivateKeyInfo of a key bag: forge parses RSA keys; others it leaves as ASN.1. */
function privateKeyInfo(bag: Bag): Buffer | undefined {
  if (bag.key) return derOf(forgeLibrary().pki.wrapRsaPrivateKey(forgeLibrary().pki.privateKeyToAsn1(bag.key)));
  return bag.asn1 === undefined ? undefined : derOf(bag.asn1);
}

/** The DER of a certificate bag (forge re-encodes around the captured TBSCertificate, byte for byte). */
function certificateDer(bag: Bag): Buffer | undefined {
  if (bag.cert) return derOf(forgeLibrary().pki.certificateToAsn1(bag.cert));
  return bag.asn1 === undefined ? undefined : derOf(bag.asn1);
}

/**
 * Opens a PKCS#12 file whatever its (legacy) encryption. Throws LegacyPkcs12Error: `passphrase`
 * when the MAC or the key does not open with it, `incomplete` when the file holds no certificate
 * with its private key, `invalid` when node-forge cannot read it.
 */
export function openLegacyPkcs12(pfx: Buffer, passphrase: string | undefined): PemPair {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const { asn1: asn1Codec, pkcs12 } = forgeLibrary();
    const asn1 = asn1Codec.fromDer(pfx.toString('binary'));
    p12 = pkcs12.pkcs12FromAsn1(asn1, true, passphrase ?? '');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/password|MAC could not be verified/i.test(message))
      throw new LegacyPkcs12Error('passphrase', message, { cause: error });
    throw new LegacyPkcs12Error('invalid', message, { cause: error });
  }
  const bags: readonly Bag[] = p12.safeContents.flatMap((contents) => contents.safeBags);
  const keyBags = bags.filter((bag) => bag.type === SHROUDED_KEY_BAG || bag.type === KEY_BAG);
  const certBags = bags.filter((bag) => bag.type === CERT_BAG);
  const keyDer = keyBags.map(privateKeyInfo).find((der) => der !== undefined);
  if (keyDer === undefined) throw new LegacyPkcs12Error('incomplete', 'it holds no private key');
  const key = createPrivateKey({ key: keyDer, format: 'der', type: 'pkcs8' });
  const certificates = certBags
    .map(certificateDer)
    .filter((der): der is Buffer => der !== undefined)
    .map((der) => new X509Certificate(der));
  // TLS presents the first certificate of the PEM: the one the key belongs to, then its chain.
  const own = certificates.find((certificate) => certificate.checkPrivateKey(key));
  if (own === undefined) throw new LegacyPkcs12Error('incomplete', 'it holds no certificate of its private key');
  const chain = [own, ...certificates.filter((certificate) => certificate !== own)];
  return {
    cert: Buffer.from(chain.map((certificate) => pem('CERTIFICATE', certificate.raw)).join('')),
    key: Buffer.from(key.export({ format: 'pem', type: 'pkcs8' })),
  };
}
