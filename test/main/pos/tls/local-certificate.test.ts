/**
 * The local certificate for wss://: a CA the machine trusts once, whose key is gone, and a
 * server certificate for localhost, 127.0.0.1 and ::1 that a real TLS client accepts through
 * that CA, and only through it.
 */
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalCertificate,
  MAX_SERVER_DAYS,
  type LocalCertificate,
} from '../../../../main/pos/tls/local-certificate.js';

let made: LocalCertificate;
let server: Server;
let port: number;

function certificates(pem: string): X509Certificate[] {
  return pem.split(/(?=-----BEGIN CERTIFICATE-----)/).map((block) => new X509Certificate(block));
}

/** A TLS handshake with the test server: 'ok' or the error code the client saw. */
async function handshake(options: { host: string; servername?: string; ca?: string }): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({
      host: options.host,
      port,
      ...(options.servername ? { servername: options.servername } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
    });
    socket.once('secureConnect', () => {
      socket.end();
      resolve('ok');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

beforeAll(async () => {
  made = await createLocalCertificate({ machine: 'caixa-01' });
  server = createServer({ key: made.key, cert: made.cert }, (socket) => socket.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server?.close();
});

describe('createLocalCertificate', () => {
  it('makes a server certificate for localhost, 127.0.0.1 and ::1, signed by a CA named for the machine', () => {
    const [leaf, chained] = certificates(made.cert);
    const [ca] = certificates(made.caCert);
    expect(chained!.fingerprint256).toBe(ca!.fingerprint256);
    expect(leaf!.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(leaf!.checkHost('localhost')).toBe('localhost');
    expect(leaf!.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf!.checkHost('pos.example.com')).toBeUndefined();
    expect(leaf!.checkIssued(ca!)).toBe(true);
    expect(leaf!.verify(ca!.publicKey)).toBe(true);
    expect(leaf!.ca).toBe(false);
    expect(leaf!.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // serverAuth only
    expect(ca!.ca).toBe(true);
    expect(ca!.subject).toContain(`Pinbridge local CA caixa-01 ${made.notBefore.toISOString().slice(0, 10)}`);
    expect(made.caFingerprint256).toBe(ca!.fingerprint256);
    expect(made.names).toEqual(['localhost', '127.0.0.1', '::1']);
  });

  it('is valid from an hour before now for 825 days at most, the limit macOS enforces', async () => {
    const [leaf] = certificates(made.cert);
    expect(Math.abs(Date.now() - 3_600_000 - made.notBefore.getTime())).toBeLessThan(60_000);
    const dated = await createLocalCertificate({ now: new Date('2026-11-21T12:00:00Z') });
    expect(new Date(certificates(dated.cert)[0]!.validFrom).toISOString()).toBe('2026-11-21T11:00:00.000Z');
    expect(made.notAfter.getTime() - made.notBefore.getTime()).toBe(MAX_SERVER_DAYS * 86_400_000);
    expect(new Date(leaf!.validTo).getTime()).toBe(made.notAfter.getTime());
    const short = await createLocalCertificate({ days: 30 });
    expect(short.notAfter.getTime() - short.notBefore.getTime()).toBe(30 * 86_400_000);
    await expect(createLocalCertificate({ days: 826 })).rejects.toThrow(/days must be a whole number from 1 to 825/);
    await expect(createLocalCertificate({ days: 0 })).rejects.toThrow(RangeError);
  });

  it("hands out one private key, the server's: the CA's key is discarded, so it can sign nothing else", () => {
    const everything = made.caCert + made.cert + made.key;
    expect(everything.match(/PRIVATE KEY-----/g)).toHaveLength(2); // BEGIN and END of the one key
    expect(made.caCert).not.toContain('PRIVATE');
    expect(made.cert).not.toContain('PRIVATE');
  });

  it('is accepted by a TLS client that trusts the CA, by name and by address, and refused by one that does not', async () => {
    expect(await handshake({ host: '127.0.0.1', ca: made.caCert })).toBe('ok');
    expect(await handshake({ host: '127.0.0.1', servername: 'localhost', ca: made.caCert })).toBe('ok');
    expect(await handshake({ host: '127.0.0.1' })).toBe('SELF_SIGNED_CERT_IN_CHAIN');
    const other = await createLocalCertificate();
    expect(await handshake({ host: '127.0.0.1', ca: other.caCert })).toBe('SELF_SIGNED_CERT_IN_CHAIN');
    expect(await handshake({ host: '127.0.0.1', servername: 'pos.example.com', ca: made.caCert })).toBe(
      'ERR_TLS_CERT_ALTNAME_INVALID',
    );
  });
});
