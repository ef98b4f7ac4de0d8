/**
 * The connections that have not logged in yet (no hello, no pairing completed, not the window):
 * how long each may stay, and who gives way when too many are open.
 *
 * - Each is closed a fixed time after it connected (4008 IDLE), whatever it sends: calling
 *   agent.info does not keep a connection. Only a pending pairing request keeps it longer, until
 *   that request ends — and each connection and each program has one request at a time
 *   (client-store.ts), so that cannot hold many connections either.
 * - Room is decided by program (Session.group: the process behind the connection). When `max` are
 *   open, a newcomer's program is looked up before anything it sent is read: if that program
 *   already holds the most waiting connections, the newcomer is closed (4009) — a squatter only
 *   ever competes with itself; otherwise the program holding the most gives up its oldest
 *   connection (4009) and the newcomer stays. A POS reconnecting with its token therefore gets in
 *   and says hello however many connections another program holds.
 */
import type { PeerGroup } from './session.js';

/** What the decision reads of a connection (a Session). */
export interface WaitingConnection {
  readonly id: string;
  /** Its program's group, once looked up. */
  readonly group: PeerGroup | undefined;
  /** When it connected (ms, performance.now). */
  readonly connectedAt: number;
  /** Until when its pairing request waits for its code (ms since epoch; 0: none). */
  readonly pairingUntil: number;
}

/** The group a waiting connection counts in: its program's once known, else its own. */
const groupOf = (session: WaitingConnection): string => session.group?.key ?? `session:${session.id}`;

export type RoomDecision<S> = { readonly admit: true; readonly evict: readonly S[] } | { readonly admit: false };

/**
 * Whether `newcomer` gets a place among `waiting` (the connections already admitted, not it) with
 * at most `max` open, and whom it displaces: from the largest group other than its own, a
 * connection whose pairing request waits for its code last, the oldest first.
 */
export function roomFor<S extends WaitingConnection>(
  newcomer: S,
  waiting: readonly S[],
  max: number,
  now = Date.now(),
): RoomDecision<S> {
  const others = waiting.filter((session) => session !== newcomer);
  if (others.length < max) return { admit: true, evict: [] };
  const sizes = new Map<string, number>();
  for (const session of [...others, newcomer]) sizes.set(groupOf(session), (sizes.get(groupOf(session)) ?? 0) + 1);
  const own = groupOf(newcomer);
  const largestOther = Math.max(0, ...[...sizes].filter(([key]) => key !== own).map(([, size]) => size));
  // Its own program holds the most already: it waits for one of them to go.
  if (sizes.get(own)! > largestOther) return { admit: false };
  const left = others.filter((session) => groupOf(session) !== own);
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
  return { admit: true, evict };
}

/** Whether a waiting session's time is up: `lifetimeMs` after it connected, or when its pairing request ends if later. */
export function timeIsUp(
  session: WaitingConnection,
  lifetimeMs: number,
  now = performance.now(),
  wall = Date.now(),
): boolean {
  if (session.pairingUntil > wall) return false;
  return now - session.connectedAt >= lifetimeMs;
}
