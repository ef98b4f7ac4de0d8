/**
 * The cost of each stage of a request (the benchmark's breakdown, test/bench/pos.bench.ts): laps
 * timed per request, and on the real server only while PosServer.timeStages is on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES, StageClock } from '../../../../main/pos/server/stage-clock.js';
import { posRig, type PosRig, type RpcClient } from '../pos-rig.js';

describe('StageClock', () => {
  it('times each lap of a request from the one before, and gives each stage its median, mean and p99 in µs', () => {
    let now = 0;
    const clock = new StageClock(() => now);
    for (const parseMs of [0.001, 0.002, 0.006]) {
      const laps = clock.start();
      now += parseMs;
      laps.lap('parse');
      now += 0.01;
      laps.lap('send');
    }
    const costs = clock.costs();
    expect(costs.parse).toEqual({ requests: 3, medianUs: 2, meanUs: 3, p99Us: 6 });
    expect(costs.send).toMatchObject({ requests: 3, medianUs: 10, meanUs: 10 });
    // A stage no request reached is left out rather than shown as free.
    expect(Object.keys(costs)).toEqual(['parse', 'send']);
  });

  it('keeps two requests apart when one waits for its handler while the other runs', () => {
    let now = 0;
    const clock = new StageClock(() => now);
    const slow = clock.start();
    now += 0.001;
    slow.lap('parse');
    const quick = clock.start();
    now += 0.002;
    quick.lap('parse');
    now += 0.1;
    slow.lap('handler');
    expect(clock.costs().parse).toMatchObject({ requests: 2, medianUs: 1 });
    expect(clock.costs().handler).toMatchObject({ requests: 1, medianUs: 102 });
  });
});

describe('PosServer.timeStages', () => {
  let pos: PosRig;
  let client: RpcClient;
  beforeAll(async () => {
    pos = await posRig();
    client = await pos.paired('Stages');
  });
  afterAll(async () => {
    await client.close();
    await pos.close();
  });

  it('times every stage of the requests answered while it is on, and none after', async () => {
    await client.call('pinpad.list'); // answered before the clock: not counted
    const timing = pos.server.timeStages();
    await client.call('pinpad.status', { terminal: pos.pinpads[0]!.serial });
    await client.call('pinpad.list');
    timing.stop();
    await client.call('pinpad.list');
    const costs = timing.clock.costs();
    expect(Object.keys(costs)).toEqual([...STAGES]);
    for (const stage of STAGES) expect(costs[stage]!.requests, stage).toBe(2);
  });

  it('times a refused request up to its refusal, then its answer being written and sent', async () => {
    const timing = pos.server.timeStages();
    expect((await client.failure('payment.teleport')).data.code).toBe('METHOD_NOT_FOUND');
    timing.stop();
    expect(Object.keys(timing.clock.costs())).toEqual(['parse', 'envelope', 'rateLimit', 'serialise', 'log', 'send']);
  });
});
