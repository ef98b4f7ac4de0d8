/**
 * The `client-certificate` check as a support technician reads it: skipped without a certificate;
 * a file that cannot be used fails with what to do; an expired one, or one whose serial number is
 * not the marketplace id, fails; one close to expiry warns; a good one says how many days it has left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClientCertificate, EXPIRY_WARNING_DAYS } from '../../../main/doctor/client-certificate.js';
import { createTestPki, type IssuedCertificate, type TestPki } from '../../helpers/test-pki.js';

const MARKETPLACE = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
let pki: TestPki;
let store: IssuedCertificate;
beforeAll(() => {
  pki = createTestPki();
  store = pki.client('loja', MARKETPLACE);
});
afterAll(() => pki.remove());

const DAY = 86_400_000;
/** The test CA issues for two days: "now" is moved so that `days` whole days are left. */
const daysBefore = (days: number): Date => new Date(Date.now() + 2 * DAY - days * DAY - 60_000);

describe('the client-certificate check', () => {
  it('is skipped when no certificate is configured (a CA alone is not one)', () => {
    expect(checkClientCertificate({ certificate: undefined, marketplaceId: MARKETPLACE })).toMatchObject({
      status: 'skip',
      details: { configured: false },
    });
    expect(checkClientCertificate({ certificate: { ca: pki.caCert }, marketplaceId: MARKETPLACE }).status).toBe('skip');
  });

  it('fails when the files cannot be used, with the error code and what to do, in both languages', () => {
    const result = checkClientCertificate({
      certificate: { pfx: store.pfx, passphrase: 'errada' },
      marketplaceId: MARKETPLACE,
    });
    expect(result).toMatchObject({ status: 'fail', details: { problem: 'PFX_PASSPHRASE' } });
    expect(result.fix).toContain('PINBRIDGE_CERT_PASSPHRASE');
    expect(result.pt.fix).toContain(
      'Digite a senha do certificado (a escolhida na emissão do certificado) na janela do Pinbridge',
    );
  });

  it('is ok with the days left and the serial number, far from expiry', () => {
    const result = checkClientCertificate({
      certificate: { cert: store.cert, key: store.key },
      marketplaceId: MARKETPLACE,
      now: daysBefore(EXPIRY_WARNING_DAYS + 10),
    });
    expect(result).toMatchObject({
      status: 'ok',
      details: { serial_number: MARKETPLACE.toUpperCase(), days_to_expiry: EXPIRY_WARNING_DAYS + 10 },
    });
    expect(result.pt.summary).toMatch(
      /^O certificado do cliente \(série [0-9A-F]+\) vale por mais \d+ dias, até \d{4}-\d{2}-\d{2}$/,
    );
  });

  it(`warns within ${EXPIRY_WARNING_DAYS} days of expiry, and fails once expired`, () => {
    const soon = checkClientCertificate({
      certificate: { cert: store.cert, key: store.key },
      marketplaceId: MARKETPLACE,
      now: daysBefore(10),
    });
    expect(soon).toMatchObject({ status: 'warn', details: { days_to_expiry: 10 } });
    expect(soon.fix).toMatch(/Renew it/);
    const expired = checkClientCertificate({
      certificate: { cert: store.cert, key: store.key },
      marketplaceId: MARKETPLACE,
      now: new Date(Date.now() + 3 * DAY),
    });
    expect(expired.status).toBe('fail');
    expect(expired.summary).toMatch(/expired on \d{4}-\d{2}-\d{2}: the payments API will refuse every call/);
  });

  it('fails when the serial number is not the marketplace id, naming both and the certificate to use', () => {
    const other = '0123456789abcdef0123456789abcdef';
    const result = checkClientCertificate({
      certificate: { cert: store.cert, key: store.key },
      marketplaceId: other,
      now: daysBefore(100),
    });
    expect(result).toMatchObject({
      status: 'fail',
      details: { marketplace_id: other, serial_number: MARKETPLACE.toUpperCase(), serial_matches_marketplace: false },
    });
    expect(result.summary).toBe(
      `The client certificate is not the marketplace's: serial ${MARKETPLACE.toUpperCase()} ≠ marketplace ${other}; GoPag refuses every call with it (401/403), whatever the token`,
    );
    expect(result.fix).toContain(
      `Use the ICP-Brasil certificate issued for marketplace ${other}, whose serial number is ${other}`,
    );
    expect(result.fix).toContain('openssl x509 -noout -serial');
    expect(result.pt.summary).toContain(`série ${MARKETPLACE.toUpperCase()} ≠ marketplace ${other}`);
  });

  it('only warns for a marketplace id no serial number can be (HOMOLOG), pointing at the payments-api check', () => {
    const result = checkClientCertificate({
      certificate: { cert: store.cert, key: store.key },
      marketplaceId: 'HOMOLOG',
      now: daysBefore(100),
    });
    expect(result).toMatchObject({ status: 'warn', details: { marketplace_id: 'HOMOLOG' } });
    expect(result.summary).toContain('cannot be the marketplace id HOMOLOG (not a hexadecimal number)');
    expect(result.pt.summary).toContain('não pode ser o id do marketplace HOMOLOG');
  });

  it('is ok for the marketplace’s own certificate given as a legacy PKCS#12 file (RC2-40)', () => {
    const result = checkClientCertificate({
      certificate: { pfx: store.legacyPfx, passphrase: store.pfxPassphrase },
      marketplaceId: MARKETPLACE,
      now: daysBefore(100),
    });
    expect(result).toMatchObject({ status: 'ok', details: { serial_number: MARKETPLACE.toUpperCase() } });
  });
});
