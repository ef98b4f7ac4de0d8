/**
 * Reconnection delays: doubling from the minimum to the maximum, jittered within the upper half
 * of each nominal delay, back to the minimum after a success.
 */
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../client/backoff.js';

describe('Backoff', () => {
  it('doubles from minDelayMs up to maxDelayMs (random 1: the nominal delay)', () => {
    const backoff = new Backoff({ minDelayMs: 100, maxDelayMs: 1_000 }, () => 1);
    expect(Array.from({ length: 7 }, () => backoff.next())).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000]);
  });

  it('jitters within the upper half of the nominal delay (random 0: half of it)', () => {
    const backoff = new Backoff({ minDelayMs: 100, maxDelayMs: 1_000 }, () => 0);
    expect(Array.from({ length: 5 }, () => backoff.next())).toEqual([50, 100, 200, 400, 500]);
  });

  it('starts again from the minimum after reset', () => {
    const backoff = new Backoff({ minDelayMs: 100, maxDelayMs: 1_000 }, () => 1);
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });

  it('stays finite through a very long outage', () => {
    const backoff = new Backoff({ minDelayMs: 500, maxDelayMs: 10_000 }, () => 1);
    for (let attempt = 0; attempt < 5_000; attempt += 1) backoff.next();
    expect(backoff.next()).toBe(10_000);
  });

  it('defaults: 0.5 s, up to 10 s', () => {
    const backoff = new Backoff({}, () => 1);
    expect(backoff.next()).toBe(500);
    for (let attempt = 0; attempt < 10; attempt += 1) backoff.next();
    expect(backoff.next()).toBe(10_000);
  });
});
