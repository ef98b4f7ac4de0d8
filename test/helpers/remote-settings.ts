/**
 * A chain's side of remote settings for the specs: a real Ed25519 key pair, documents signed with
 * it (and tampered ones), served over HTTPS on 127.0.0.1 with a certificate from a throwaway CA
 * (test-pki.ts), which the agent trusts through remote_settings.ca.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { DOCUMENT_FORMAT, signPayload, type Envelope, type Scope } from '../../main/remote-settings/document.js';
import { generateKeyPair, type KeyPairPem } from '../../main/remote-settings/keys.js';
import { createTestPki, type TestPki } from './test-pki.js';

export interface DocumentFields {
  readonly version: number;
  readonly scope?: Scope;
  readonly settings: Record<string, unknown>;
  readonly expires_at?: string;
  readonly format?: string;
}

/** The payload's JSON bytes (as the chain writes them) and the envelope signed over them. */
export function signedDocument(keys: KeyPairPem, fields: DocumentFields): string {
  const payload = {
    format: fields.format ?? DOCUMENT_FORMAT,
    version: fields.version,
    scope: fields.scope ?? { chain: 'rede-sul', store: 'loja-7' },
    issued_at: new Date().toISOString(),
    ...(fields.expires_at === undefined ? {} : { expires_at: fields.expires_at }),
    settings: fields.settings,
  };
  return JSON.stringify(signPayload(Buffer.from(JSON.stringify(payload)), keys.privateKey));
}

/** A signed document whose payload was changed after signing (its settings replaced), the signature kept. */
export function tamperedDocument(signed: string, settings: Record<string, unknown>): string {
  const envelope = JSON.parse(signed) as Envelope;
  const payload = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Record<string, unknown>;
  const changed = Buffer.from(JSON.stringify({ ...payload, settings })).toString('base64');
  return JSON.stringify({ payload: changed, signature: envelope.signature });
}

export interface SettingsServer {
  /** The base URL (https://127.0.0.1:PORT). */
  readonly url: string;
  /** The CA file that signed the server's certificate. */
  readonly caFile: string;
  /** What the server answers at every path (status 200), or a status code alone. */
  serve(body: string | number): void;
  /** The paths asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startSettingsServer(pki: TestPki = createTestPki('Rede Sul CA')): Promise<SettingsServer> {
  let answer: string | number = 404;
  const requests: string[] = [];
  const server: Server = createServer(
    { cert: readFileSync(pki.server.cert), key: readFileSync(pki.server.key) },
    (req, res) => {
      requests.push(req.url ?? '');
      if (typeof answer === 'number') {
        res.writeHead(answer).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caFile: pki.caCert,
    serve: (body) => {
      answer = body;
    },
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      pki.remove();
    },
  };
}

export { generateKeyPair };
