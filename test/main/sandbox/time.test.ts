import { describe, expect, it } from 'vitest';
import {
  dateOnly,
  historyTimestamp,
  newId,
  newTraceId,
  offsetTimestamp,
  utcTimestamp,
} from '../../../main/sandbox/time.js';

describe('sandbox ids', () => {
  it('are 32 lowercase hex characters and never repeat, across many refills of the entropy pool', () => {
    const ids = Array.from({ length: 5000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('trace ids are 6 hex characters, drawn from the same pool without disturbing ids', () => {
    const mixed = Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? newTraceId() : newId()));
    mixed.forEach((value, i) => expect(value).toMatch(i % 3 === 0 ? /^[0-9a-f]{6}$/ : /^[0-9a-f]{32}$/));
    const ids = mixed.filter((_, i) => i % 3 !== 0);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('sandbox timestamps', () => {
  const at = new Date('2026-11-21T13:05:09.123Z');

  it('writes the three formats of the contract and the service family, and a calendar date', () => {
    expect(utcTimestamp(at)).toBe('2026-11-21T13:05:09.123Z');
    expect(offsetTimestamp(at)).toBe('2026-11-21T13:05:09+00:00');
    expect(historyTimestamp(at)).toBe('2026-11-21 13:05:09');
    expect(dateOnly(at)).toBe('2026-11-21');
  });
});
