/**
 * The `client-certificate` check as a support technician reads it: skipped without a certificate;
 * a file that cannot be used fails with what to do; an expired one fails; one close to expiry or
 * issued for another marketplace warns; a good one says how many days it has left.
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

  it('warns when the serial number is not the marketplace id (GoPag refuses it)', () => {
    const result = checkClientCertificate({
      certificate: { cert: store.cert, key: store.key },
      marketplaceId: 'HOMOLOG',
      now: daysBefore(100),
    });
    expect(result).toMatchObject({ status: 'warn', details: { marketplace_id: 'HOMOLOG' } });
    expect(result.pt.summary).toContain('não é o id do marketplace HOMOLOG');
  });
});
