/**
 * Reading the store's client certificate before any call: PEM files or a PKCS#12 file, checked
 * by Node's TLS the way it will present them, with a sentence naming the file when they are
 * wrong; and what the doctor reports of it (serial number, expiry).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  certificateInfo,
  ClientCertificateError,
  daysToExpiry,
  loadClientTls,
  serialMatchesMarketplace,
} from '../../../main/api/index.js';
import { thrown } from '../../helpers/thrown.js';
import { createTestPki, type IssuedCertificate, type TestPki } from '../../helpers/test-pki.js';

const MARKETPLACE = '3249465a7753536b62545a6e684e5931';
let pki: TestPki;
let store: IssuedCertificate;
let other: IssuedCertificate;
let rsa: IssuedCertificate;

beforeAll(() => {
  pki = createTestPki();
  store = pki.client('loja', MARKETPLACE);
  other = pki.client('outra', '0A0B0C');
  rsa = pki.client('loja-rsa', MARKETPLACE, { rsa: true });
});
afterAll(() => pki.remove());

describe('the client certificate', () => {
  it('is nothing when no file is named (no mutual TLS), and only a CA when only one is named', () => {
    expect(loadClientTls({})).toBeUndefined();
    expect(Object.keys(loadClientTls({ ca: pki.caCert })!)).toEqual(['ca']);
  });

  it('reads PEM certificate and key, and tells its serial number, subject, issuer and validity', () => {
    const tls = loadClientTls({ cert: store.cert, key: store.key, ca: pki.caCert })!;
    const info = certificateInfo(tls);
    expect(info.serialNumber).toBe(MARKETPLACE.toUpperCase());
    expect(info.subject).toContain('CN=loja');
    expect(info.issuer).toContain('CN=Pinbridge Test CA');
    expect(daysToExpiry(info)).toBe(1);
    expect(daysToExpiry(info, new Date(info.validTo.getTime() + 86_400_000))).toBe(-1);
    expect(serialMatchesMarketplace(info, MARKETPLACE)).toBe(true);
    expect(serialMatchesMarketplace(info, 'HOMOLOG')).toBe(false);
  });

  it('reads a PKCS#12 file with its passphrase: the same certificate', () => {
    const info = certificateInfo(loadClientTls({ pfx: store.pfx, passphrase: store.pfxPassphrase })!);
    expect(info.serialNumber).toBe(MARKETPLACE.toUpperCase());
  });

  describe('a legacy PKCS#12 file (certificate under RC2-40, the OpenSSL 1.x default), which Node’s own TLS refuses', () => {
    it('is the kind of file OpenSSL 3 will not open without its legacy provider', () => {
      expect(() =>
        createSecureContext({ pfx: readFileSync(store.legacyPfx), passphrase: store.pfxPassphrase }),
      ).toThrow(/Unsupported PKCS12 PFX data/);
    });

    it.each([
      ['an RSA key, as ICP-Brasil A1 certificates have', () => rsa],
      ['an elliptic-curve key', () => store],
    ])('loads with %s: handed on as the PEM certificate and its key', (_, issued) => {
      const tls = loadClientTls({ pfx: issued().legacyPfx, passphrase: issued().pfxPassphrase, ca: pki.caCert })!;
      expect(tls.pfx).toBeUndefined();
      expect(tls.cert!.toString()).toBe(readFileSync(issued().cert, 'utf8'));
      expect(tls.key!.toString()).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(tls.ca).toBeDefined();
      expect(certificateInfo(tls).serialNumber).toBe(MARKETPLACE.toUpperCase());
    });

    it('still tells a wrong or missing passphrase from a bad file', () => {
      expect(thrown(() => loadClientTls({ pfx: store.legacyPfx, passphrase: 'errada' }))).toMatchObject({
        code: 'PFX_PASSPHRASE',
        message: expect.stringMatching(/passphrase of the PKCS#12 file .*loja-legacy\.pfx is wrong/) as unknown,
      });
      expect(thrown(() => loadClientTls({ pfx: store.legacyPfx }))).toMatchObject({
        code: 'PFX_PASSPHRASE',
        message: expect.stringMatching(/is missing/) as unknown,
      });
    });
  });

  describe('a legacy PKCS#12 file that cannot be opened even so', () => {
    const legacyExport = (name: string, extra: readonly string[]): string => {
      const out = join(pki.dir, name);
      execFileSync(
        'openssl',
        [
          'pkcs12',
          '-export',
          '-legacy',
          ...extra,
          '-in',
          store.cert,
          '-out',
          out,
          '-passout',
          `pass:${store.pfxPassphrase}`,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      return out;
    };

    it('says it holds no private key when it was exported without one', () => {
      const noKey = legacyExport('sem-chave.pfx', ['-nokeys']);
      const error = thrown(() => loadClientTls({ pfx: noKey, passphrase: store.pfxPassphrase }));
      expect(error).toMatchObject({ code: 'PFX_INVALID' });
      expect((error as Error).message).toBe(
        `The PKCS#12 file ${noKey} cannot be presented: it holds no private key. Export the certificate again with its private key.`,
      );
    });

    it('names the reason and the exact command that re-exports it with AES-256 — a command that works', () => {
      // A MAC algorithm (SHA-224) node-forge does not implement, on a file Node refuses for its RC2.
      const odd = legacyExport('mac-sha224.pfx', ['-inkey', store.key, '-macalg', 'sha224']);
      const error = thrown(() => loadClientTls({ pfx: odd, passphrase: store.pfxPassphrase }));
      expect(error).toMatchObject({ code: 'PFX_INVALID' });
      const message = (error as Error).message;
      expect(message).toMatch(
        /^The PKCS#12 file .*mac-sha224\.pfx uses a legacy encryption \(RC2\) and cannot be opened \(.*\): re-export it with AES-256, typing its passphrase when asked: `/,
      );
      // Run as the message gives it; a technician types the passphrase where `-passin`/`-passout` supply it here.
      const command = /`([^`]+)`$/
        .exec(message)![1]!
        .replaceAll('openssl pkcs12', 'openssl pkcs12 -passin env:SENHA -passout env:SENHA');
      execFileSync('sh', ['-c', command], { cwd: pki.dir, env: { ...process.env, SENHA: store.pfxPassphrase } });
      const fixed = join(pki.dir, 'mac-sha224-aes.pfx');
      expect(() => createSecureContext({ pfx: readFileSync(fixed), passphrase: store.pfxPassphrase })).not.toThrow();
      expect(certificateInfo(loadClientTls({ pfx: fixed, passphrase: store.pfxPassphrase })!).serialNumber).toBe(
        MARKETPLACE.toUpperCase(),
      );
    });
  });

  it('compares the serial with the marketplace id as hex, without case or leading zeros', () => {
    expect(serialMatchesMarketplace({ serialNumber: '00A1B2' }, 'a1b2')).toBe(true);
    expect(serialMatchesMarketplace({ serialNumber: 'A1B2' }, 'a1b3')).toBe(false);
  });

  it.each([
    ['a certificate without its key', () => ({ cert: store.cert }), 'INCOMPLETE', /private key is missing/],
    [
      'PEM and PKCS#12 together',
      () => ({ cert: store.cert, key: store.key, pfx: store.pfx }),
      'INCOMPLETE',
      /not both/,
    ],
    [
      'a file that is not there',
      () => ({ cert: join(pki.dir, 'nope.pem'), key: store.key }),
      'UNREADABLE',
      /nope\.pem cannot be read: it does not exist/,
    ],
    [
      'the key of another certificate',
      () => ({ cert: store.cert, key: other.key }),
      'KEY_MISMATCH',
      /outra\.key is not the key of the certificate .*loja\.pem/,
    ],
    [
      'a key file in the certificate’s place',
      () => ({ cert: store.key, key: store.key }),
      'NOT_PEM',
      /holds no PEM certificate/,
    ],
    [
      'a PKCS#12 file without its passphrase',
      () => ({ pfx: store.pfx }),
      'PFX_PASSPHRASE',
      /passphrase .* is missing \(enter it in the Pinbridge window, or set PINBRIDGE_CERT_PASSPHRASE\)/,
    ],
    ['a wrong passphrase', () => ({ pfx: store.pfx, passphrase: 'errada' }), 'PFX_PASSPHRASE', /is wrong/],
    [
      'a PEM file given as PKCS#12',
      () => ({ pfx: store.cert, passphrase: 'x' }),
      'PFX_INVALID',
      /is not a PKCS#12 certificate/,
    ],
  ] as const)('refuses %s with %s and a sentence naming the file', (_, files, code, message) => {
    const error = thrown(() => loadClientTls(files()));
    expect(error).toBeInstanceOf(ClientCertificateError);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a key file that holds no key', () => {
    const empty = join(pki.dir, 'empty.key');
    writeFileSync(empty, 'not a key\n');
    expect(thrown(() => loadClientTls({ cert: store.cert, key: empty }))).toMatchObject({ code: 'NOT_PEM' });
  });
});
