/**
 * The connections that have not logged in yet (no hello, no pairing completed, not the window):
 * how long each may stay, and who makes room when too many are open.
 *
 * - Each is closed a fixed time after it connected (4008 IDLE), whatever it sends: calling
 *   agent.info does not keep a connection. Only a pending pairing request keeps it longer, until
 *   that request ends — and each connection and each program has one request at a time
 *   (client-store.ts), so that cannot hold many connections either.
 * - A newcomer is never turned away for want of room. When `max` are open, the program holding the
 *   most of them (its connections grouped by process: Session.group) gives its oldest one up
 *   (4009). A POS reconnecting with its token therefore gets in and says hello, however many
 *   connections another program holds: it would have to hold more waiting connections than that
 *   program to be the one closed.
 */
import type { Session } from './session.js';

/** The group a waiting session counts in: its program's once known, else its own. */
const groupOf = (session: Session): string => session.group?.key ?? `session:${session.id}`;

/**
 * The sessions to close so that `newcomer` fits among `waiting` (which includes it) with at most
 * `max` open, one at a time: from the largest group, a connection whose pairing request waits for
 * its code last, the oldest first. Never the newcomer.
 */
export function makeRoom(newcomer: Session, waiting: readonly Session[], max: number, now = Date.now()): Session[] {
  const left = waiting.filter((session) => session !== newcomer);
  const victims: Session[] = [];
  while (left.length + 1 > max && left.length > 0) {
    const sizes = new Map<string, number>();
    for (const session of left) sizes.set(groupOf(session), (sizes.get(groupOf(session)) ?? 0) + 1);
    const rank = (session: Session): [number, number, number] => [
      -sizes.get(groupOf(session))!,
      session.pairingUntil > now ? 1 : 0,
      session.connectedAt,
    ];
    let victim = left[0]!;
    for (const session of left) {
      const [a, b] = [rank(session), rank(victim)];
      if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) victim = session;
    }
    victims.push(victim);
    left.splice(left.indexOf(victim), 1);
  }
  return victims;
}

/** Whether a waiting session's time is up: `lifetimeMs` after it connected, or when its pairing request ends if later. */
export function timeIsUp(session: Session, lifetimeMs: number, now = performance.now(), wall = Date.now()): boolean {
  if (session.pairingUntil > wall) return false;
  return now - session.connectedAt >= lifetimeMs;
}
