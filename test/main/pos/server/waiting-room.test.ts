/**
 * Who gives way when too many connections have not logged in (waiting-room.ts): the oldest of the
 * program holding the most — the newcomer's own program when that is the one — never the
 * newcomer; a connection waiting for its pairing code last; and when each connection's time is up.
 */
import { describe, expect, it } from 'vitest';
import { HELD_GRACE_MS, roomFor, timeIsUp, type WaitingConnection } from '../../../../main/pos/server/waiting-room.js';

let next = 0;
/** A waiting connection of program `pid` (undefined: not looked up yet), `age` ms old. */
function connection(pid: number | undefined, age: number, pairingUntil = 0): WaitingConnection {
  return {
    id: `s${next++}`,
    group: pid === undefined ? undefined : { key: `pid:${pid}`, exact: true },
    connectedAt: 100_000 - age,
    readingSince: 100_000 - age,
    pairingUntil,
  };
}

describe('making room', () => {
  it('admits anyone while there is room', () => {
    const waiting = [connection(1, 10), connection(1, 5)];
    expect(roomFor(connection(2, 0), waiting, 3)).toEqual([]);
  });

  it("gives a newcomer the oldest place of the program holding the most, whatever that program's count", () => {
    const squatter = [connection(666, 50), connection(666, 40), connection(666, 30)];
    const honest = connection(7, 0);
    expect(roomFor(honest, squatter, 3)).toEqual([squatter[0]]);
  });

  it('takes the oldest place of its own program when that one holds the most: a squatter only competes with itself', () => {
    const waiting = [connection(666, 50), connection(666, 40), connection(7, 60)];
    expect(roomFor(connection(666, 0), waiting, 3)).toEqual([waiting[0]]);
  });

  it('takes a place from another program when counts are level, and a pairing connection last', () => {
    const now = 1_000;
    const pairing = connection(5, 90, now + 60_000);
    const plain = connection(5, 10);
    const waiting = [pairing, plain, connection(6, 80)];
    // Program 5 holds the most: its connection without a pairing request goes, though younger.
    expect(roomFor(connection(9, 0), waiting, 3, now)).toEqual([plain]);
  });

  it('counts a connection not looked up yet on its own', () => {
    const unknown = [connection(undefined, 50), connection(undefined, 40)];
    const decision = roomFor(connection(undefined, 0), unknown, 2);
    expect(decision).toEqual([unknown[0]]);
  });
});

describe('time', () => {
  it('is up a fixed time after connecting, unless a pairing request still waits for its code', () => {
    const wall = 5_000;
    const fresh = connection(1, 100);
    const old = connection(1, 40_000);
    const pairing = connection(1, 40_000, wall + 1);
    expect(timeIsUp(fresh, 30_000, 100_000, wall)).toBe(false);
    expect(timeIsUp(old, 30_000, 100_000, wall)).toBe(true);
    expect(timeIsUp(pairing, 30_000, 100_000, wall)).toBe(false);
    expect(timeIsUp(pairing, 30_000, 100_000, wall + 2)).toBe(true);
  });

  it("counts from when the agent began reading it: the wait for its place is the agent's, not the connection's", () => {
    const wall = 5_000;
    // Connected 40 s ago, held 35 s while the agent looked for room (a flood), read for 5 s since.
    const late = { ...connection(1, 40_000), readingSince: 100_000 - 5_000 };
    expect(timeIsUp(late, 30_000, 100_000, wall)).toBe(false);
    expect(timeIsUp(late, 30_000, 100_000 + 25_000, wall)).toBe(true);
    // Still held: not closed for that wait, unless it outlasts its time by HELD_GRACE_MS.
    const held = { ...connection(1, 40_000), readingSince: undefined };
    expect(timeIsUp(held, 30_000, 100_000, wall)).toBe(false);
    expect(timeIsUp(held, 30_000, 100_000 - 40_000 + 30_000 + HELD_GRACE_MS, wall)).toBe(true);
  });
});
