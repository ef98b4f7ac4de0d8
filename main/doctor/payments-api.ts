/**
 * The `payments-api` check: with the real API's options (base URL, token, marketplace, seller),
 * one authenticated read — the seller's bank accounts, first page, one record — through the typed
 * client, no retries. It tells apart the failures a technician fixes differently: no answer
 * (network: address, firewall, proxy), 401/403 (credentials — or, when the client certificate's
 * serial number is not the marketplace id, that certificate), 404 (marketplace or seller id),
 * 5xx (the service itself). Without the options the agent runs in training mode on its embedded
 * sandbox, and there is nothing to reach. The token never appears in the result.
 *
 * With `probeCapabilities` (`doctor --probe-capabilities`, for a sandbox or homologation API) it
 * also tries whether the provider honours Idempotency-Key and the reference_id filter, creating
 * and cancelling test transactions (provider-capabilities.ts), and says what the settings'
 * `api.capabilities` should be.
 */
import {
  AuthenticationError,
  certificateInfo,
  ClientCertificateError,
  ConnectionError,
  InvalidRequestError,
  InvalidResponseError,
  loadClientTls,
  NotEnabledError,
  NotFoundError,
  PaymentsApiError,
  PaymentsClient,
  PermissionError,
  RateLimitError,
  serialMatchesMarketplace,
  ServerError,
  TimeoutError,
  type AuthScheme,
  type CertificateInfo,
  type ClientCertificateFiles,
  type ClientTls,
} from '../api/index.js';
import { wrongCertificateFix } from './client-certificate.js';
import {
  bilingual,
  checkResult,
  DeadlineError,
  formatDuration,
  joinBilingual,
  messageOf,
  withDeadline,
  worstStatus,
  type Bilingual,
  type CheckResult,
  type CheckDetails,
} from './check.js';
import { capabilityFindings, probeCapabilities, type DeclaredCapabilities } from './provider-capabilities.js';

/** The real payments API; undefined: training mode. */
export interface PaymentsApiTarget {
  readonly baseUrl: string;
  readonly token: string;
  readonly marketplaceId: string;
  readonly sellerId: string;
  /** How the key is sent (default bearer). */
  readonly authScheme?: AuthScheme;
  /** The client certificate the calls present (the client-certificate check reads it too). */
  readonly certificate?: ClientCertificateFiles;
  /** What the settings say the provider offers (api.capabilities; absent: nothing). */
  readonly capabilities?: Partial<DeclaredCapabilities>;
}

/** The doctor's target from the agent's API options; undefined in training mode (no API named). */
export function doctorTarget(api: {
  readonly api?: string;
  readonly token?: string;
  readonly marketplace?: string;
  readonly seller?: string;
  readonly authScheme?: AuthScheme;
  readonly certificate?: ClientCertificateFiles;
  readonly capabilities?: Partial<DeclaredCapabilities>;
}): PaymentsApiTarget | undefined {
  if (api.api === undefined || api.token === undefined || api.marketplace === undefined || api.seller === undefined)
    return undefined;
  return {
    baseUrl: api.api,
    token: api.token,
    marketplaceId: api.marketplace,
    sellerId: api.seller,
    ...(api.authScheme === undefined ? {} : { authScheme: api.authScheme }),
    ...(api.certificate === undefined ? {} : { certificate: api.certificate }),
    ...(api.capabilities === undefined ? {} : { capabilities: api.capabilities }),
  };
}

export interface PaymentsApiCheckOptions {
  readonly api: PaymentsApiTarget | undefined;
  readonly timeoutMs: number;
  /** Why the API the settings name cannot be used (no token stored, say): the check fails with it instead of saying training mode. */
  readonly unusable?: string;
  /**
   * Also try whether the provider honours Idempotency-Key and the reference_id filter: creates and
   * cancels test transactions, so only on request (`--probe-capabilities`), for a sandbox or homologation API.
   */
  readonly probeCapabilities?: boolean;
}

/**
 * The certificate the calls present when its serial number cannot be the marketplace id's (the id
 * is a hex number the serial differs from): a 401/403 is then the certificate's doing, not the token's.
 */
function wrongCertificate(tls: ClientTls | undefined, marketplaceId: string): CertificateInfo | undefined {
  if (tls === undefined || (tls.cert === undefined && tls.pfx === undefined)) return undefined;
  if (!/^[0-9a-f]+$/i.test(marketplaceId)) return undefined;
  const info = certificateInfo(tls);
  return serialMatchesMarketplace(info, marketplaceId) ? undefined : info;
}

/** What each kind of failure says and what to do about it. */
function diagnose(
  error: unknown,
  api: PaymentsApiTarget,
  timeoutMs: number,
  wrong: CertificateInfo | undefined,
): { summary: Bilingual; fix: Bilingual; kind: string } {
  const url = api.baseUrl;
  const curl = `\`curl -sS -o /dev/null -w '%{http_code}\\n' ${url}\``;
  const network = bilingual(
    `Check the address (--api ${url}), this computer's internet connection and any firewall or proxy in between: ${curl} must print a status code.`,
    `Verifique o endereço (--api ${url}), a conexão deste computador com a internet e qualquer firewall ou proxy no caminho: ${curl} precisa mostrar um código de status.`,
  );
  if (error instanceof DeadlineError || error instanceof TimeoutError) {
    const limit = formatDuration(timeoutMs);
    return {
      kind: 'timeout',
      summary: bilingual(
        `The payments API at ${url} did not answer within ${limit.en}`,
        `A API de pagamentos em ${url} não respondeu em ${limit.pt}`,
      ),
      fix: network,
    };
  }
  if (error instanceof ConnectionError) {
    return {
      kind: 'network',
      summary: bilingual(
        `The payments API at ${url} cannot be reached: ${error.message}`,
        `Não foi possível alcançar a API de pagamentos em ${url}: ${error.message}`,
      ),
      fix: network,
    };
  }
  if (wrong !== undefined && (error instanceof AuthenticationError || error instanceof PermissionError)) {
    const status = error instanceof AuthenticationError ? 401 : 403;
    const said = error.detail === '' ? '' : `: ${error.detail}`;
    const fix = wrongCertificateFix(api.marketplaceId);
    return {
      kind: 'certificate',
      summary: bilingual(
        `The payments API at ${url} refused the call (${status}${said}) because of the client certificate, not the token: serial ${wrong.serialNumber} ≠ marketplace ${api.marketplaceId}`,
        `A API de pagamentos em ${url} recusou a chamada (${status}${said}) por causa do certificado do cliente, não do token: série ${wrong.serialNumber} ≠ marketplace ${api.marketplaceId}`,
      ),
      fix: bilingual(
        `${fix.en} Only if the provider still refuses with the right certificate is the token (--token) to blame.`,
        `${fix.pt} Só se o provedor continuar recusando com o certificado certo a culpa é do token (--token).`,
      ),
    };
  }
  const certificate = api.certificate?.cert !== undefined || api.certificate?.pfx !== undefined;
  const scheme = api.authScheme ?? 'bearer';
  if (error instanceof AuthenticationError) {
    const said = error.detail === error.message ? '' : `: ${error.detail}`;
    return {
      kind: 'credentials',
      summary: bilingual(
        `The payments API at ${url} refused the credentials (401${said})`,
        `A API de pagamentos em ${url} recusou as credenciais (401${said})`,
      ),
      fix: bilingual(
        `Get a valid API key from the payments provider's dashboard and pass it with --token; it is sent as ${scheme === 'basic' ? 'HTTP Basic' : 'a Bearer token'} — a provider that takes the other scheme needs --auth-scheme ${scheme === 'basic' ? 'bearer' : 'basic'}.${certificate ? ' The provider may also refuse the client certificate: see the client-certificate check.' : ' A provider that requires a client certificate (mutual TLS) needs --cert/--key or --pfx.'}`,
        `Obtenha uma chave de API válida no painel do provedor de pagamentos e informe-a com --token; ela é enviada como ${scheme === 'basic' ? 'HTTP Basic' : 'token Bearer'} — um provedor que use o outro esquema precisa de --auth-scheme ${scheme === 'basic' ? 'bearer' : 'basic'}.${certificate ? ' O provedor também pode recusar o certificado do cliente: veja a verificação client-certificate.' : ' Um provedor que exige certificado do cliente (TLS mútuo) precisa de --cert/--key ou --pfx.'}`,
      ),
    };
  }
  if (error instanceof NotEnabledError) {
    return {
      kind: 'not-enabled',
      summary: bilingual(
        `The payments API at ${url} answered 501: ${error.detail} — the feature is not enabled for marketplace ${api.marketplaceId}`,
        `A API de pagamentos em ${url} respondeu 501: ${error.detail} — o recurso não está habilitado para o marketplace ${api.marketplaceId}`,
      ),
      fix: bilingual(
        'Ask the payments provider to enable PINPAD payments for this marketplace (in homologation they are off until asked for).',
        'Peça ao provedor de pagamentos para habilitar pagamentos com PINPAD neste marketplace (na homologação ficam desligados até serem pedidos).',
      ),
    };
  }
  if (error instanceof PermissionError) {
    return {
      kind: 'credentials',
      summary: bilingual(
        `The payments API at ${url} refused access to marketplace ${api.marketplaceId} (403)`,
        `A API de pagamentos em ${url} recusou o acesso ao marketplace ${api.marketplaceId} (403)`,
      ),
      fix: bilingual(
        `Use a token issued for marketplace ${api.marketplaceId} (--token), or the marketplace that token belongs to (--marketplace).`,
        `Use um token emitido para o marketplace ${api.marketplaceId} (--token) ou o marketplace ao qual esse token pertence (--marketplace).`,
      ),
    };
  }
  if (error instanceof NotFoundError) {
    return {
      kind: 'ids',
      summary: bilingual(
        `The payments API at ${url} does not know marketplace ${api.marketplaceId} or seller ${api.sellerId} (404)`,
        `A API de pagamentos em ${url} não conhece o marketplace ${api.marketplaceId} ou o vendedor ${api.sellerId} (404)`,
      ),
      fix: bilingual(
        "Check --marketplace and --seller against the payments provider's dashboard (the token must belong to that marketplace).",
        'Confira --marketplace e --seller no painel do provedor de pagamentos (o token precisa ser desse marketplace).',
      ),
    };
  }
  if (error instanceof InvalidRequestError) {
    return {
      kind: 'ids',
      summary: bilingual(
        `The seller id "${api.sellerId}" is not valid: ${error.message}`,
        `O id de vendedor "${api.sellerId}" não é válido: ${error.message}`,
      ),
      fix: bilingual(
        "Check --seller against the payments provider's dashboard.",
        'Confira --seller no painel do provedor de pagamentos.',
      ),
    };
  }
  if (error instanceof ServerError || error instanceof RateLimitError) {
    const status = error.status ?? '5xx';
    return {
      kind: 'service',
      summary: bilingual(
        `The payments API at ${url} is failing (HTTP ${status}): ${error.message}`,
        `A API de pagamentos em ${url} está com falha (HTTP ${status}): ${error.message}`,
      ),
      fix: bilingual(
        "The service itself is in trouble: try again in a few minutes, and call the payments provider's support if it lasts.",
        'O problema está no próprio serviço: tente de novo em alguns minutos e, se continuar, ligue para o suporte do provedor de pagamentos.',
      ),
    };
  }
  if (error instanceof InvalidResponseError) {
    return {
      kind: 'not-the-api',
      summary: bilingual(
        `${url} answered, but not as the payments API does: ${error.message}`,
        `${url} respondeu, mas não como a API de pagamentos responde: ${error.message}`,
      ),
      fix: bilingual(
        `Check that --api ${url} is the payments API's base URL (without /v1), not a web page or a proxy's login.`,
        `Confira se --api ${url} é o endereço base da API de pagamentos (sem /v1), e não uma página da web ou o login de um proxy.`,
      ),
    };
  }
  return {
    kind: 'other',
    summary: bilingual(
      `The payments API at ${url} answered with an error: ${messageOf(error)}`,
      `A API de pagamentos em ${url} respondeu com um erro: ${messageOf(error)}`,
    ),
    fix: network,
  };
}

/** Replaces the token wherever an error text might have picked it up (it should not, but this is printed). */
function scrubText(text: string, token: string): string {
  return token.length >= 4 ? text.split(token).join('[token]') : text;
}

function scrub(text: Bilingual, token: string): Bilingual {
  return bilingual(scrubText(text.en, token), scrubText(text.pt, token));
}

export async function checkPaymentsApi(options: PaymentsApiCheckOptions): Promise<CheckResult> {
  const { api, timeoutMs } = options;
  if (api === undefined && options.unusable !== undefined) {
    return checkResult({
      id: 'payments-api',
      status: 'fail',
      summary: bilingual(
        `The settings name a payments API, but it cannot be used: ${options.unusable}`,
        `As configurações indicam um serviço de pagamentos, mas ele não pode ser usado: ${options.unusable}`,
      ),
      details: { mode: 'unusable', reason: options.unusable },
      fix: bilingual(
        'Enter the API token (and the certificate password, for a .pfx) in the Pinbridge window, Settings; headless, set PINBRIDGE_API_TOKEN (and PINBRIDGE_CERT_PASSPHRASE).',
        'Digite o token do serviço (e a senha do certificado, para um .pfx) na janela do Pinbridge, em Configurações; sem janela, defina PINBRIDGE_API_TOKEN (e PINBRIDGE_CERT_PASSPHRASE).',
      ),
    });
  }
  if (api === undefined) {
    return checkResult({
      id: 'payments-api',
      status: 'skip',
      summary: bilingual(
        'Training mode (no --api): the embedded sandbox answers the payment calls, there is no API to reach',
        'Modo de treinamento (sem --api): o sandbox embutido responde às chamadas de pagamento, não há API para alcançar',
      ),
      details: { mode: 'training' },
    });
  }
  const details: CheckDetails = {
    mode: 'live',
    url: api.baseUrl,
    marketplace_id: api.marketplaceId,
    seller_id: api.sellerId,
  };
  let client: PaymentsClient;
  let wrong: CertificateInfo | undefined;
  let tls: ReturnType<typeof loadClientTls> | undefined;
  try {
    new URL(api.baseUrl);
    tls = api.certificate === undefined ? undefined : loadClientTls(api.certificate);
    wrong = wrongCertificate(tls, api.marketplaceId);
    client = new PaymentsClient({
      baseUrl: api.baseUrl.replace(/\/+$/, ''),
      token: api.token,
      marketplaceId: api.marketplaceId,
      timeoutMs,
      maxRetries: 0,
      authFailureCooldownMs: 0,
      ...(api.authScheme === undefined ? {} : { authScheme: api.authScheme }),
      ...(tls === undefined ? {} : { tls }),
    });
  } catch (error) {
    if (error instanceof ClientCertificateError) {
      return checkResult({
        id: 'payments-api',
        status: 'skip',
        summary: bilingual(
          'Not tried: the client certificate cannot be used (see the client-certificate check)',
          'Não testada: o certificado do cliente não pode ser usado (veja a verificação client-certificate)',
        ),
        details: { ...details, problem: 'certificate' },
      });
    }
    return checkResult({
      id: 'payments-api',
      status: 'fail',
      summary: scrub(
        bilingual(
          `The payments API options are not usable: ${messageOf(error)}`,
          `As opções da API de pagamentos não podem ser usadas: ${messageOf(error)}`,
        ),
        api.token,
      ),
      details,
      fix: bilingual(
        'Give the base URL with its scheme (--api https://api.example.com) and a marketplace id (--marketplace).',
        'Informe o endereço base com o protocolo (--api https://api.example.com) e um id de marketplace (--marketplace).',
      ),
    });
  }
  const started = performance.now();
  try {
    const page = await withDeadline(
      client.bankAccounts.list(api.sellerId, { limit: 1 }),
      timeoutMs,
      `Reading from the payments API at ${api.baseUrl}`,
    );
    const accepted = bilingual(
      `The payments API at ${api.baseUrl} accepted the token (marketplace ${api.marketplaceId}, seller ${api.sellerId})`,
      `A API de pagamentos em ${api.baseUrl} aceitou o token (marketplace ${api.marketplaceId}, vendedor ${api.sellerId})`,
    );
    const read = { ...details, ms: Math.round(performance.now() - started), bank_accounts_seen: page.items.length };
    if (options.probeCapabilities !== true) {
      return checkResult({ id: 'payments-api', status: 'ok', summary: accepted, details: read });
    }
    const probe = await probeCapabilities({
      baseUrl: api.baseUrl.replace(/\/+$/, ''),
      token: api.token,
      marketplaceId: api.marketplaceId,
      sellerId: api.sellerId,
      timeoutMs,
      ...(api.authScheme === undefined ? {} : { authScheme: api.authScheme }),
      ...(tls === undefined ? {} : { tls }),
    });
    const findings = capabilityFindings(probe, {
      idempotencyKey: api.capabilities?.idempotencyKey ?? false,
      findByReference: api.capabilities?.findByReference ?? false,
    });
    return checkResult({
      id: 'payments-api',
      status: worstStatus(['ok', findings.status]),
      summary: scrub(joinBilingual([accepted, findings.summary], '; '), api.token),
      details: { ...read, ...findings.details },
      fix: findings.fix === undefined ? undefined : scrub(findings.fix, api.token),
    });
  } catch (error) {
    const { summary, fix, kind } = diagnose(error, api, timeoutMs, wrong);
    return checkResult({
      id: 'payments-api',
      status: 'fail',
      summary: scrub(summary, api.token),
      details: {
        ...details,
        problem: kind,
        http_status: error instanceof PaymentsApiError ? (error.status ?? null) : null,
        error: scrubText(messageOf(error), api.token),
      },
      fix,
    });
  }
}
