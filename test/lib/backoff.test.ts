import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../lib/backoff.js';

const never = (): number => {
  throw new Error('no jitter: the random source is not asked');
};

describe('backoffDelay', () => {
  it('doubles from the base, one attempt after the other, up to the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) =>
      backoffDelay(attempt, { baseMs: 1_000, capMs: 60_000 }, never),
    );
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  });

  it('grows by the factor given, and without a cap has no ceiling', () => {
    expect(backoffDelay(3, { baseMs: 500, factor: 3 })).toBe(4_500);
    expect(backoffDelay(31, { baseMs: 1 })).toBe(2 ** 30);
  });

  it('with full jitter draws anywhere below the delay', () => {
    const backoff = { baseMs: 250, capMs: 4_000, jitter: { kind: 'full' } } as const;
    expect(backoffDelay(3, backoff, () => 0)).toBe(0);
    expect(backoffDelay(3, backoff, () => 0.5)).toBe(500);
    expect(backoffDelay(10, backoff, () => 0.5)).toBe(2_000);
  });

  it('with a spread lands within delay × (1 ± ratio), never below zero', () => {
    const backoff = { baseMs: 1_000, jitter: { kind: 'spread', ratio: 0.2 } } as const;
    expect(backoffDelay(1, backoff, () => 0)).toBe(800);
    expect(backoffDelay(1, backoff, () => 0.5)).toBe(1_000);
    expect(backoffDelay(1, backoff, () => 1)).toBe(1_200);
    expect(backoffDelay(1, { baseMs: 1_000, jitter: { kind: 'spread', ratio: 2 } }, () => 0)).toBe(0);
  });

  it('with an added share is never earlier than the delay', () => {
    const backoff = { baseMs: 1_000, jitter: { kind: 'added', ratio: 0.1 } } as const;
    expect(backoffDelay(2, backoff, () => 0)).toBe(2_000);
    expect(backoffDelay(2, backoff, () => 1)).toBe(2_200);
  });
});
