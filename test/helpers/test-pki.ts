/**
 * A throwaway PKI made with the `openssl` command, as a store's technician or a provider makes
 * one: a CA, a server certificate for 127.0.0.1 and client certificates with the serial number
 * the provider wants (GoPag: the marketplace id), as PEM and as PKCS#12.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface IssuedCertificate {
  readonly cert: string;
  readonly key: string;
  /** PKCS#12 with the certificate and key, under `pfxPassphrase`. */
  readonly pfx: string;
  readonly pfxPassphrase: string;
  /**
   * The same certificate and key as a legacy PKCS#12 file, as OpenSSL 1.x exported by default
   * (certificate bag under RC2-40-CBC, key under 3DES; `openssl pkcs12 -export -legacy`), same
   * passphrase.
   */
  readonly legacyPfx: string;
}

export interface TestPki {
  readonly dir: string;
  /** PEM file of the CA certificate. */
  readonly caCert: string;
  /** Server certificate (127.0.0.1, localhost) and key files. */
  readonly server: { readonly cert: string; readonly key: string };
  /**
   * A client certificate with this serial number (hex), issued by the CA; its key is P-256, or
   * RSA 2048 as ICP-Brasil A1 certificates have with `{ rsa: true }`.
   */
  client(name: string, serialHex: string, options?: { readonly rsa?: boolean }): IssuedCertificate;
  remove(): void;
}

const openssl = (cwd: string, args: readonly string[]): void => {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
};

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
const RSA_KEY = ['-newkey', 'rsa:2048', '-nodes'];

function issue(
  dir: string,
  name: string,
  serialHex: string,
  subject: string,
  extensions: string,
  keyOptions: readonly string[] = EC_KEY,
): void {
  openssl(dir, ['req', ...keyOptions, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-set_serial',
    `0x${serialHex}`,
    '-days',
    '2',
    '-sha256',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  ]);
}

/** A new CA with its server certificate, in a temporary directory. */
export function createTestPki(caName = 'Pinbridge Test CA'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-pki-'));
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-sha256',
    '-subj',
    `/CN=${caName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  issue(
    dir,
    'server',
    '01',
    '/CN=127.0.0.1',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  return {
    dir,
    caCert: join(dir, 'ca.pem'),
    server: { cert: join(dir, 'server.pem'), key: join(dir, 'server.key') },
    client(name, serialHex, options = {}) {
      const subject = `/C=BR/O=Loja Teste/CN=${name}`;
      issue(dir, name, serialHex, subject, 'extendedKeyUsage=clientAuth\n', options.rsa === true ? RSA_KEY : EC_KEY);
      const pfxPassphrase = `senha-${name}`;
      const pkcs12 = (out: string, extra: readonly string[]): void =>
        openssl(dir, [
          'pkcs12',
          '-export',
          ...extra,
          '-in',
          `${name}.pem`,
          '-inkey',
          `${name}.key`,
          '-out',
          out,
          '-passout',
          `pass:${pfxPassphrase}`,
        ]);
      pkcs12(`${name}.pfx`, []);
      pkcs12(`${name}-legacy.pfx`, ['-legacy']);
      return {
        cert: join(dir, `${name}.pem`),
        key: join(dir, `${name}.key`),
        pfx: join(dir, `${name}.pfx`),
        pfxPassphrase,
        legacyPfx: join(dir, `${name}-legacy.pfx`),
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const readPem = (path: string): string => readFileSync(path, 'utf8');
