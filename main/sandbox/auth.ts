/**
 * Authentication. Every /v1 and /v2 route needs the marketplace's key unless its config says
 * `auth: false`; a missing, unknown or expired key is 401 with `type: "unauthorized"` (in the route
 * family's error shape: B for bank accounts, A with the type beside its fields elsewhere). A
 * key belongs to one marketplace: a path naming another marketplace answers 404 "Marketplace
 * not found", so one marketplace cannot even learn that another exists.
 *
 * The key arrives as the contract says, `Authorization: Bearer <key>` (GoPag), or — when the
 * sandbox is set to accept it — as the Zoop API underneath takes it, HTTP Basic with the key as
 * the user name and an empty password.
 *
 * Served over TLS with a client CA (mutual TLS), a call must also present a client certificate
 * issued by that CA (401 otherwise) whose serial number is the marketplace id (403 otherwise),
 * as GoPag requires of its ICP-Brasil certificates. The certificate is judged first, before
 * routing, on every request — helpers, public documents and unknown paths too —, as a provider's
 * TLS front refuses a caller without one before its API says anything, not even that a route
 * does not exist. Only the serial number waits for the key, which says the marketplace.
 */
import type { TLSSocket } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.js';
import { SandboxHttpError, unauthorized } from './errors.js';

interface TokenRow {
  marketplace_id: string;
  expires_at_ms: number | null;
}

/** The key of an Authorization header in a scheme the sandbox accepts; a sentence when there is none. */
function keyOf(
  header: string | undefined,
  accepted: SandboxContext['settings']['authScheme'],
): { key: string } | { refusal: string } {
  const wanted =
    accepted === 'any'
      ? 'Bearer token or Basic credentials'
      : accepted === 'basic'
        ? 'Basic credentials'
        : 'Bearer token';
  if (header === undefined) return { refusal: `Missing Authorization header (${wanted})` };
  const bearer = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  if (bearer && accepted !== 'basic') return { key: bearer[1]! };
  const basic = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (basic && accepted !== 'bearer') {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // Zoop: the key is the user name, the password is empty.
    if (colon > 0) return { key: decoded.slice(0, colon) };
  }
  return {
    refusal:
      accepted === 'basic'
        ? 'Authorization header must be "Basic base64(<key>:)"'
        : accepted === 'any'
          ? 'Authorization header must be "Bearer <token>" or "Basic base64(<key>:)"'
          : 'Authorization header must be "Bearer <token>"',
  };
}

/** A client certificate the CA issued, under mutual TLS (401 otherwise); nothing when the sandbox is not serving it. */
function requireClientCertificate(ctx: SandboxContext, request: FastifyRequest): void {
  if (!ctx.clientCertificates) return;
  const socket = request.raw.socket as TLSSocket;
  const certificate = socket.getPeerCertificate();
  if (certificate === null || Object.keys(certificate).length === 0) {
    throw unauthorized('A client certificate is required (mutual TLS)');
  }
  if (!socket.authorized) {
    throw unauthorized(
      `Client certificate not accepted: ${String(socket.authorizationError ?? 'not issued by a trusted CA')}`,
    );
  }
}

/** Under mutual TLS, the certificate's serial number is the key's marketplace id (403 otherwise). */
function checkCertificateSerial(ctx: SandboxContext, request: FastifyRequest, marketplaceId: string): void {
  if (!ctx.clientCertificates) return;
  const certificate = (request.raw.socket as TLSSocket).getPeerCertificate();
  const serial = certificate.serialNumber.toLowerCase().replace(/^0+/, '');
  if (serial !== marketplaceId.toLowerCase().replace(/^0+/, '')) {
    throw new SandboxHttpError(
      403,
      `Client certificate serial number ${certificate.serialNumber} does not match marketplace_id ${marketplaceId}`,
    );
  }
}

export async function authenticate(ctx: SandboxContext, request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  requireClientCertificate(ctx, request);
  // Unknown routes fall through to the 404 handler; documents and helpers may opt out of the key.
  if (request.routeOptions.url === undefined || !/^\/v[12]\//.test(request.routeOptions.url)) return;
  if (request.routeOptions.config?.auth === false) return;

  const credentials = keyOf(request.headers.authorization, ctx.settings.authScheme);
  if ('refusal' in credentials) throw unauthorized(credentials.refusal);
  const row = ctx.db
    .statement('SELECT marketplace_id, expires_at_ms FROM tokens WHERE token = ?')
    .get(credentials.key) as TokenRow | undefined;
  if (!row) throw unauthorized('Invalid access token');
  if (row.expires_at_ms !== null && row.expires_at_ms <= ctx.now().getTime())
    throw unauthorized('Access token expired');
  checkCertificateSerial(ctx, request, row.marketplace_id);

  const params = request.params as { marketplace_id?: string } | undefined;
  const named = params?.marketplace_id;
  if (named !== undefined && named !== row.marketplace_id) {
    throw new SandboxHttpError(404, `Marketplace not found: ${named}`);
  }
  request.marketplaceId = row.marketplace_id;
  await Promise.resolve();
}
