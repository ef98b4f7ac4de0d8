/**
 * The `client-certificate` check: the certificate the payments API calls present (mutual TLS),
 * read and checked as the agent will use it — the files readable, the key the certificate's, the
 * PKCS#12 passphrase right —, then what makes a provider refuse it later: expired (a failure) or
 * close to it (a warning), and a serial number that is not the marketplace id (a failure: GoPag
 * refuses every call with it). Skipped when none is configured.
 * Nothing secret is printed: the serial number, subject, issuer, dates and fingerprint only.
 */
import {
  certificateInfo,
  ClientCertificateError,
  daysToExpiry,
  loadClientTls,
  serialMatchesMarketplace,
  type CertificateInfo,
  type ClientCertificateFiles,
} from '../api/index.js';
import { bilingual, checkResult, messageOf, type Bilingual, type CheckDetails, type CheckResult } from './check.js';

/** Warn this many days before the certificate expires (ICP-Brasil A1 certificates last a year). */
export const EXPIRY_WARNING_DAYS = 30;

export interface ClientCertificateCheckOptions {
  readonly certificate: ClientCertificateFiles | undefined;
  /** The marketplace the certificate is for (GoPag: its serial number). */
  readonly marketplaceId: string | undefined;
  readonly now?: Date;
}

const FIXES: Readonly<Record<ClientCertificateError['code'], Bilingual>> = {
  INCOMPLETE: bilingual(
    'Give the certificate as --cert with --key (PEM), or as --pfx (PKCS#12) — in the settings: api.client_certificate {cert, key} or {pfx}.',
    'Informe o certificado como --cert com --key (PEM) ou como --pfx (PKCS#12) — nas configurações: api.client_certificate {cert, key} ou {pfx}.',
  ),
  UNREADABLE: bilingual(
    'Check the path and that the user running Pinbridge may read the file.',
    'Confira o caminho e se o usuário que executa o Pinbridge pode ler o arquivo.',
  ),
  NOT_PEM: bilingual(
    'Export the certificate and its key as PEM (an unencrypted key), or give the .pfx file with --pfx.',
    'Exporte o certificado e a chave em PEM (chave sem senha) ou informe o arquivo .pfx com --pfx.',
  ),
  KEY_MISMATCH: bilingual(
    'Use the private key generated with this certificate (the .pfx the certificate authority delivered holds both).',
    'Use a chave privada gerada com este certificado (o .pfx entregue pela autoridade certificadora contém os dois).',
  ),
  PFX_PASSPHRASE: bilingual(
    'Enter the certificate password (the one chosen when the certificate was issued) in the Pinbridge window, Settings, "Senha do certificado digital"; headless, set PINBRIDGE_CERT_PASSPHRASE.',
    'Digite a senha do certificado (a escolhida na emissão do certificado) na janela do Pinbridge, em Configurações, "Senha do certificado digital"; sem janela, defina PINBRIDGE_CERT_PASSPHRASE.',
  ),
  PFX_INVALID: bilingual(
    'Give the .pfx or .p12 file the certificate authority delivered, or the certificate as PEM with --cert and --key.',
    'Informe o arquivo .pfx ou .p12 entregue pela autoridade certificadora, ou o certificado em PEM com --cert e --key.',
  ),
};

const day = (date: Date): string => date.toISOString().slice(0, 10);

function detailsOf(info: CertificateInfo, days: number): Record<string, string | number> {
  return {
    serial_number: info.serialNumber,
    subject: info.subject,
    issuer: info.issuer,
    valid_from: info.validFrom.toISOString(),
    valid_to: info.validTo.toISOString(),
    days_to_expiry: days,
    fingerprint_sha256: info.fingerprint256,
  };
}

/**
 * A certificate whose serial number is not the marketplace id. GoPag refuses every call with it
 * (401/403), so it fails — unless the id is no hex number at all (GoPag's homologation
 * marketplace is "HOMOLOG"): no serial number can equal it, so the provider cannot be applying
 * the rule there as written, and the payments-api check's answer is what counts; it only warns.
 */
function serialMismatch(info: CertificateInfo, marketplaceId: string, details: CheckDetails): CheckResult {
  const comparable = /^[0-9a-f]+$/i.test(marketplaceId);
  return checkResult({
    id: 'client-certificate',
    status: comparable ? 'fail' : 'warn',
    summary: comparable
      ? bilingual(
          `The client certificate is not the marketplace's: serial ${info.serialNumber} ≠ marketplace ${marketplaceId}; GoPag refuses every call with it (401/403), whatever the token`,
          `O certificado do cliente não é o do marketplace: série ${info.serialNumber} ≠ marketplace ${marketplaceId}; a GoPag recusa todas as chamadas com ele (401/403), seja qual for o token`,
        )
      : bilingual(
          `The client certificate's serial ${info.serialNumber} cannot be the marketplace id ${marketplaceId} (not a hexadecimal number): a provider that requires the serial to be the marketplace id (GoPag) refuses it (401/403) — see the payments-api check`,
          `A série ${info.serialNumber} do certificado do cliente não pode ser o id do marketplace ${marketplaceId} (não é um número hexadecimal): um provedor que exige a série igual ao id do marketplace (GoPag) o recusa (401/403) — veja a verificação payments-api`,
        ),
    details: { ...details, marketplace_id: marketplaceId, serial_matches_marketplace: false },
    fix: wrongCertificateFix(marketplaceId),
  });
}

/** What to do about a certificate that is not the marketplace's (this check's and the payments-api check's fix). */
export function wrongCertificateFix(marketplaceId: string): Bilingual {
  const show =
    '`openssl x509 -noout -serial -in <certificate.pem>` (or `openssl pkcs12 -in <file.pfx> -nokeys | openssl x509 -noout -serial`)';
  return bilingual(
    `Use the ICP-Brasil certificate issued for marketplace ${marketplaceId}, whose serial number is ${marketplaceId} (${show} prints it), as api.client_certificate in the settings (--cert/--key or --pfx); if the marketplace id is the wrong one, correct api.marketplace_id (--marketplace) from the payments provider's dashboard.`,
    `Use o certificado ICP-Brasil emitido para o marketplace ${marketplaceId}, cujo número de série é ${marketplaceId} (${show} mostra a série), em api.client_certificate nas configurações (--cert/--key ou --pfx); se o id do marketplace estiver errado, corrija api.marketplace_id (--marketplace) pelo painel do provedor de pagamentos.`,
  );
}

export function checkClientCertificate(options: ClientCertificateCheckOptions): CheckResult {
  const { certificate, marketplaceId } = options;
  const tls = (() => {
    try {
      return certificate === undefined ? undefined : loadClientTls(certificate);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  })();
  if (tls instanceof Error) {
    return checkResult({
      id: 'client-certificate',
      status: 'fail',
      summary: bilingual(
        `The client certificate cannot be used: ${tls.message}`,
        `O certificado do cliente não pode ser usado: ${messageOf(tls)}`,
      ),
      details: { problem: tls instanceof ClientCertificateError ? tls.code : 'OTHER' },
      fix: tls instanceof ClientCertificateError ? FIXES[tls.code] : FIXES.UNREADABLE,
    });
  }
  if (tls === undefined || (tls.cert === undefined && tls.pfx === undefined)) {
    return checkResult({
      id: 'client-certificate',
      status: 'skip',
      summary: bilingual(
        'No client certificate is configured: the payments API calls use the key alone',
        'Nenhum certificado do cliente configurado: as chamadas à API de pagamentos usam só a chave',
      ),
      details: { configured: false },
    });
  }
  const info = certificateInfo(tls);
  const days = daysToExpiry(info, options.now);
  const details = detailsOf(info, days);
  if (days < 0) {
    return checkResult({
      id: 'client-certificate',
      status: 'fail',
      summary: bilingual(
        `The client certificate (serial ${info.serialNumber}) expired on ${day(info.validTo)}: the payments API will refuse every call`,
        `O certificado do cliente (série ${info.serialNumber}) venceu em ${day(info.validTo)}: a API de pagamentos vai recusar todas as chamadas`,
      ),
      details,
      fix: bilingual(
        'Renew the certificate with the certificate authority and give the new file (--cert/--key or --pfx).',
        'Renove o certificado com a autoridade certificadora e informe o novo arquivo (--cert/--key ou --pfx).',
      ),
    });
  }
  if (marketplaceId !== undefined && !serialMatchesMarketplace(info, marketplaceId))
    return serialMismatch(info, marketplaceId, details);
  if (days < EXPIRY_WARNING_DAYS) {
    return checkResult({
      id: 'client-certificate',
      status: 'warn',
      summary: bilingual(
        `The client certificate (serial ${info.serialNumber}) expires in ${days} day(s), on ${day(info.validTo)}`,
        `O certificado do cliente (série ${info.serialNumber}) vence em ${days} dia(s), em ${day(info.validTo)}`,
      ),
      details,
      fix: bilingual(
        'Renew it with the certificate authority now: once it expires, no payment goes through.',
        'Renove-o agora com a autoridade certificadora: depois do vencimento, nenhum pagamento passa.',
      ),
    });
  }
  return checkResult({
    id: 'client-certificate',
    status: 'ok',
    summary: bilingual(
      `The client certificate (serial ${info.serialNumber}) is valid for ${days} more days, until ${day(info.validTo)}`,
      `O certificado do cliente (série ${info.serialNumber}) vale por mais ${days} dias, até ${day(info.validTo)}`,
    ),
    details,
  });
}
