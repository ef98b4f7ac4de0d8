/**
 * Fetches the document over HTTPS only, trusting the public CAs and, when the section names one,
 * its own CA file; a bounded body and time, and no redirect followed (a chain serves the document
 * where the url says). What comes back is checked by check.ts: nothing here trusts it.
 */
import { nodeHttps, nodeTls } from '../../lib/net-builtins.js';
import { MAX_DOCUMENT_BYTES } from './document.js';

export const FETCH_TIMEOUT_MS = 30_000;

export class FetchFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchFailed';
  }
}

export type FetchDocument = (url: string, options: { readonly caPem?: string }) => Promise<string>;

export const fetchDocument: FetchDocument = (url, options) =>
  new Promise<string>((resolve, reject) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      reject(new FetchFailed(`${url} is not a URL`));
      return;
    }
    if (parsed.protocol !== 'https:') {
      reject(new FetchFailed(`${url} is not https://`));
      return;
    }
    const req = nodeHttps().request(
      parsed,
      {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'pinbridge-remote-settings' },
        timeout: FETCH_TIMEOUT_MS,
        ...(options.caPem === undefined ? {} : { ca: [...nodeTls().rootCertificates, options.caPem] }),
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new FetchFailed(`${parsed.origin}${parsed.pathname} answered HTTP ${res.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_DOCUMENT_BYTES) {
            req.destroy(new FetchFailed(`the document is larger than ${MAX_DOCUMENT_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', (error) => reject(new FetchFailed(error.message)));
      },
    );
    req.on('timeout', () => req.destroy(new FetchFailed(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) =>
      reject(error instanceof FetchFailed ? error : new FetchFailed(`${parsed.host}: ${error.message}`)),
    );
    req.end();
  });
