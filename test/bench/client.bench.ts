/**
 * Payments client overhead: `client.buyers.retrieve(id)` against a raw `fetch` of the same
 * endpoint of the sandbox on loopback (all over keep-alive connections), timed in a shuffled
 * order each round so drift of the machine hits all alike. Goal: client median ≤ 1.10 × raw.
 *
 * The client sends through undici's request API, which is leaner than fetch, so it can beat a
 * raw fetch. A third line, a raw undici `request` on an agent of its own, shows what the
 * client's own work (validation, headers, attempt deadline, retry bookkeeping, parsing and
 * checking the answer) costs over the transport it uses.
 */
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { PaymentsClient } from '../../main/api/index.js';
import { round, startChild, stats, stopChild } from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/pinbridge.js', import.meta.url));

export interface ClientOverhead {
  readonly samples: number;
  readonly rawFetchMedianMs: number;
  readonly rawUndiciRequestMedianMs: number;
  readonly clientMedianMs: number;
  readonly rawFetchP99Ms: number;
  readonly clientP99Ms: number;
  /** client / raw fetch (the goal). */
  readonly ratio: number;
  /** client / raw undici request: the client's own work. */
  readonly ratioVsUndiciRequest: number;
  readonly goal: string;
}

export async function benchClientOverhead(samples = 2_000): Promise<ClientOverhead> {
  // The sandbox runs in its own process: sharing this one's event loop would add the server's
  // work between the client's own steps and blur what is being measured.
  const sandbox = await startChild([BIN, 'sandbox', '--port', '0']);
  const sandboxUrl = sandbox.ready.url!;
  try {
    const created = (await (
      await fetch(`${sandboxUrl}/v1/sandbox/marketplaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { marketplace_id: string; access_token: string };
    const client = new PaymentsClient({
      baseUrl: sandboxUrl,
      token: created.access_token,
      marketplaceId: created.marketplace_id,
    });
    const buyer = await client.buyers.create({ first_name: 'Bench', taxpayer_id: '52998224725' });

    const url = `${sandboxUrl}/v1/marketplaces/${created.marketplace_id}/buyers/${buyer.id}`;
    const headers = { authorization: `Bearer ${created.access_token}`, accept: 'application/json' };
    const raw = async (): Promise<unknown> => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`raw fetch failed: HTTP ${response.status}`);
      return response.json();
    };
    const agent = new Agent();
    const rawRequest = async (): Promise<unknown> => {
      const response = await request(url, { headers, dispatcher: agent });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`raw request failed: HTTP ${response.statusCode}`);
      return JSON.parse(text);
    };
    const viaClient = (): Promise<unknown> => client.buyers.retrieve(buyer.id);

    const contenders: Array<{ run: () => Promise<unknown>; times: number[] }> = [
      { run: raw, times: [] },
      { run: rawRequest, times: [] },
      { run: viaClient, times: [] },
    ];
    for (let i = 0; i < Math.ceil(samples / 10); i++) for (const contender of contenders) await contender.run();
    for (let i = 0; i < samples; i++) {
      // A new order every round, so none always runs on a just-warmed connection.
      const order = [...contenders].sort(() => Math.random() - 0.5);
      for (const contender of order) {
        const start = performance.now();
        await contender.run();
        contender.times.push(performance.now() - start);
      }
    }
    await agent.close();
    const [rawTimes, requestTimes, clientTimes] = contenders.map((c) => c.times) as [number[], number[], number[]];
    const rawStats = stats(rawTimes);
    const requestStats = stats(requestTimes);
    const clientStats = stats(clientTimes);
    return {
      samples,
      rawFetchMedianMs: round(rawStats.medianMs),
      rawUndiciRequestMedianMs: round(requestStats.medianMs),
      clientMedianMs: round(clientStats.medianMs),
      rawFetchP99Ms: round(rawStats.p99Ms),
      clientP99Ms: round(clientStats.p99Ms),
      ratio: round(clientStats.medianMs / rawStats.medianMs, 3),
      ratioVsUndiciRequest: round(clientStats.medianMs / requestStats.medianMs, 3),
      goal: 'ratio ≤ 1.10',
    };
  } finally {
    await stopChild(sandbox);
  }
}
