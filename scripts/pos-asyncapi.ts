/**
 * Writes docs/pos-asyncapi.json, the AsyncAPI 3.0 reference of the POS API, from the protocol's
 * schemas (main/pos/asyncapi.ts), and client/protocol.ts, the same protocol as the plain types
 * the @pinbridge/client package ships (scripts/client-protocol.ts). Run:
 * `npx tsx scripts/pos-asyncapi.ts` (npm run docs:asyncapi) after changing a method, an event, a
 * record or an error; a test fails while either file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { posAsyncApi } from '../main/pos/asyncapi.js';
import { CLIENT_PROTOCOL_FILE, clientProtocolSource } from './client-protocol.js';

const target = fileURLToPath(new URL('../docs/pos-asyncapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(posAsyncApi(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
writeFileSync(CLIENT_PROTOCOL_FILE, clientProtocolSource());
process.stdout.write(`wrote ${CLIENT_PROTOCOL_FILE}\n`);
