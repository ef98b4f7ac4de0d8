/**
 * The document comes over HTTPS only, from a server whose certificate the public CAs or the
 * section's own CA vouch for; anything else is a FetchFailed the follower logs and retries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fetchDocument } from '../../../main/remote-settings/fetch.js';
import { startSettingsServer, type SettingsServer } from '../../helpers/remote-settings.js';

let server: SettingsServer;
beforeAll(async () => {
  server = await startSettingsServer();
});
afterAll(() => server.close());

describe('fetching the document', () => {
  it('reads it from a server the given CA vouches for', async () => {
    server.serve('{"payload":"","signature":""}');
    const caPem = readFileSync(server.caFile, 'utf8');
    expect(await fetchDocument(`${server.url}/rede/loja.json`, { caPem })).toBe('{"payload":"","signature":""}');
    expect(server.requests.at(-1)).toBe('/rede/loja.json');
  });

  it('refuses a server no trusted CA vouches for', async () => {
    await expect(fetchDocument(`${server.url}/x.json`, {})).rejects.toThrow(/certificate/i);
  });

  it('refuses plain http and an answer other than 200', async () => {
    await expect(fetchDocument('http://127.0.0.1:1/x.json', {})).rejects.toThrow(/not https/);
    server.serve(404);
    const caPem = readFileSync(server.caFile, 'utf8');
    await expect(fetchDocument(`${server.url}/x.json`, { caPem })).rejects.toThrow(/HTTP 404/);
  });
});
