/**
 * Sandbox throughput with keep-alive: `GET buyer` and `POST pinpad transaction` requests/s,
 * beside a bare `node:http` hello-world measured the same way in the same run (the ratio is the
 * number that means something on a noisy machine; goal ≥ 0.35 for GET). Each server runs in its
 * own child process so the load generator does not share its event loop.
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { round, startChild, stopChild } from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/pinbridge.js', import.meta.url));

const HELLO_WORLD = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"hello":"world"}');
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port })));
`;

interface Load {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** Requests per second: the median of `rounds` runs of `seconds` each. */
async function requestsPerSecond(load: Load, rounds: number, seconds: number): Promise<number> {
  const perRound: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const result = await autocannon({
      url: load.url,
      method: load.method ?? 'GET',
      headers: load.headers ?? {},
      ...(load.body === undefined ? {} : { body: load.body }),
      connections: 10,
      duration: seconds,
    });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${load.method ?? 'GET'} ${load.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
    perRound.push(result.requests.average);
  }
  perRound.sort((a, b) => a - b);
  return perRound[Math.floor(perRound.length / 2)]!;
}

export interface SandboxThroughput {
  readonly helloWorldRps: number;
  readonly getBuyerRps: number;
  readonly postPinpadTransactionRps: number;
  readonly getBuyerRatio: number;
  readonly postPinpadTransactionRatio: number;
  readonly goalGetRatio: number;
}

export async function benchSandboxThroughput(rounds = 3, seconds = 3): Promise<SandboxThroughput> {
  const hello = await startChild(['-e', HELLO_WORLD]);
  const sandbox = await startChild([BIN, 'sandbox', '--port', '0']);
  try {
    const { url, marketplace_id: mid, seller_id: seller, token } = sandbox.ready;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v1/marketplaces/${mid}/buyers`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        first_name: 'Bench',
        last_name: 'Mark',
        taxpayer_id: '71428793860',
        email: 'bench@example.com',
      }),
    });
    if (created.status !== 201) throw new Error(`could not create the bench buyer: HTTP ${created.status}`);
    const buyer = (await created.json()) as { id: string };

    const helloWorldRps = await requestsPerSecond({ url: hello.ready.url! }, rounds, seconds);
    const getBuyerRps = await requestsPerSecond(
      { url: `${url}/v1/marketplaces/${mid}/buyers/${buyer.id}`, headers: auth },
      rounds,
      seconds,
    );
    const postPinpadTransactionRps = await requestsPerSecond(
      {
        url: `${url}/v1/marketplaces/${mid}/transactions`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          payment_locale: 'pinpad',
          payment_type: 'credit',
          on_behalf_of: seller,
          description: 'Bench sale',
          notification: 'Pinbridge bench',
          currency: 'BRL',
          amount: 1990,
          terminal: 'BENCH0001',
        }),
      },
      rounds,
      seconds,
    );
    return {
      helloWorldRps: Math.round(helloWorldRps),
      getBuyerRps: Math.round(getBuyerRps),
      postPinpadTransactionRps: Math.round(postPinpadTransactionRps),
      getBuyerRatio: round(getBuyerRps / helloWorldRps, 2),
      postPinpadTransactionRatio: round(postPinpadTransactionRps / helloWorldRps, 2),
      goalGetRatio: 0.35,
    };
  } finally {
    await stopChild(sandbox);
    await stopChild(hello);
  }
}
