/**
 * The connections that have not logged in yet (no hello, no pairing completed, not the window):
 * how long each may stay, and who gives way when too many are open.
 *
 * - Each is closed a fixed time after the agent began reading it (4008 IDLE), whatever it sends:
 *   calling agent.info does not keep a connection. Only a pending pairing request keeps it longer,
 *   until that request ends — and each connection and each program has one request at a time
 *   (client-store.ts), so that cannot hold many connections either. The time a newcomer waits
 *   for its place (below) is the agent's, not the connection's: a POS whose hello was not read yet
 *   is not idle. A newcomer never given its place is closed HELD_GRACE_MS after its time.
 * - Room is decided by program (Session.group: the process behind the connection). When `max` are
 *   open, a newcomer's program is looked up before anything it sent is read, and the program
 *   holding the most waiting connections gives up its oldest (4009) — the newcomer's own program
 *   when that is the one: a squatter only ever competes with itself. A newcomer is never turned
 *   away, and it is read (its hello first) the moment it has its place, so it is never the oldest:
 *   a POS reconnecting with its token gets in however many connections another program holds, or
 *   another page of its own browser.
 */
import type { PeerGroup } from './session.js';

/** What the decision reads of a connection (a Session). */
export interface WaitingConnection {
  readonly id: string;
  /** Its program's group, once looked up. */
  readonly group: PeerGroup | undefined;
  /** When it connected (ms, performance.now). */
  readonly connectedAt: number;
  /** Since when what it sends is read (ms, performance.now); undefined while it waits for its place. */
  readonly readingSince: number | undefined;
  /** Until when its pairing request waits for its code (ms since epoch; 0: none). */
  readonly pairingUntil: number;
}

/** The group a waiting connection counts in: its program's once known, else its own. */
const groupOf = (session: WaitingConnection): string => session.group?.key ?? `session:${session.id}`;

/**
 * Whom `newcomer` displaces so that it fits among `waiting` (the connections already admitted,
 * not it) with at most `max` open: from the largest group (its own included), a connection whose
 * pairing request waits for its code last, the oldest first.
 */
export function roomFor<S extends WaitingConnection>(
  newcomer: S,
  waiting: readonly S[],
  max: number,
  now = Date.now(),
): S[] {
  const others = waiting.filter((session) => session !== newcomer);
  if (others.length < max) return [];
  // Counted with the newcomer: a program that holds as many as another and adds one gives way first.
  const sizes = new Map<string, number>();
  for (const session of [...others, newcomer]) sizes.set(groupOf(session), (sizes.get(groupOf(session)) ?? 0) + 1);
  const left = [...others];
  const evict: S[] = [];
  while (left.length > 0 && others.length - evict.length + 1 > max) {
    const rank = (session: S): [number, number, number] => [
      -sizes.get(groupOf(session))!,
      session.pairingUntil > now ? 1 : 0,
      session.connectedAt,
    ];
    let victim = left[0]!;
    for (const session of left) {
      const [a, b] = [rank(session), rank(victim)];
      if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) victim = session;
    }
    evict.push(victim);
    left.splice(left.indexOf(victim), 1);
    sizes.set(groupOf(victim), sizes.get(groupOf(victim))! - 1);
  }
  return evict;
}

/**
 * How much longer than its lifetime a newcomer may wait for its place before it is closed anyway:
 * the wait is bounded by a few searches of the system's processes (peer/), this only in case one
 * never ends.
 */
export const HELD_GRACE_MS = 30_000;

/**
 * Whether a waiting session's time is up: `lifetimeMs` after the agent began reading it, or when
 * its pairing request ends if later; a newcomer still waiting for its place, HELD_GRACE_MS after that.
 */
export function timeIsUp(
  session: WaitingConnection,
  lifetimeMs: number,
  now = performance.now(),
  wall = Date.now(),
): boolean {
  if (session.pairingUntil > wall) return false;
  if (session.readingSince === undefined) return now - session.connectedAt >= lifetimeMs + HELD_GRACE_MS;
  return now - session.readingSince >= lifetimeMs;
}
