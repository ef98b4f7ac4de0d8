/**
 * A flood cannot flush the trail (issue 33, part 5). For a few seconds a program knocks on the POS
 * port thousands of times — foreign Hosts, unpairable and blocked origins, wrong operator keys,
 * junk frames — against the real server writing the agent's real log file and audit trail. The log
 * grows by a few summary lines per reason per interval, each with the count and a sample of the
 * peers, never a line per refusal; and the audit trail still holds what happened before the flood.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../main/audit-log.js';
import { createLogger } from '../../../../main/log.js';
import type { RefusalReason } from '../../../../main/pos/server/refusals.js';
import { artifactsDir } from '../../../helpers/card-data-scan.js';
import { openSocket, posRig, type PosRig } from '../pos-rig.js';

const SUMMARY_MS = 500;
/**
 * The flood is a number of rounds (30 refused connections, 100 junk frames and 5 wrong keys each),
 * not a duration: on a loaded machine a 3 s flood sent a third of the refusals while the summary
 * lines, one per reason per interval, stayed as many.
 */
const FLOOD_ROUNDS = 60;

let pos: PosRig;
let audit: AuditLog;
let logFile: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(artifactsDir(), 'refusal-flood-'));
  logFile = join(dir, 'agent.log');
  audit = new AuditLog(join(dir, 'audit.log'));
  audit.record({ kind: 'agent.started', mode: 'training', version: 'flood-spec' });
  pos = await posRig({
    noPinpad: true,
    logger: createLogger({ file: logFile, level: 'info' }),
    audit,
    refusalSummaryMs: SUMMARY_MS,
    rateLimit: { capacity: 200, refillPerSecond: 100 },
  });
});
afterAll(async () => {
  await pos.close();
  audit.close();
});

interface SummaryLine {
  readonly msg: string;
  readonly reason: RefusalReason;
  readonly count: number;
  readonly peers: string[];
}

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Resolves when the socket closed (or its upgrade was refused). */
const refusedSocket = (headers: Record<string, string>): Promise<void> =>
  openSocket(pos.server.url, headers).then(
    (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())),
    () => undefined,
  );

describe('a flood of refused connections and malformed requests', () => {
  it('adds a few summary lines to the log, with counts and peers, and leaves the audit trail whole', async () => {
    const paired = await pos.paired('Caixa 1');
    pos.clients.blockOrigin('https://blocked.example');
    const before = statSync(logFile).size;
    const sent: Partial<Record<RefusalReason, number>> = {};
    const tally = (reason: RefusalReason): void => {
      sent[reason] = (sent[reason] ?? 0) + 1;
    };

    const started = Date.now();
    const junkSender = await pos.connect();
    for (let rounds = 0; rounds < FLOOD_ROUNDS; rounds++) {
      const round: Promise<unknown>[] = [];
      for (let n = 0; n < 10; n++) {
        round.push(
          refusedSocket({ Host: `rebind-${n}.example:${pos.server.port}` }).then(() => tally('HOST_NOT_ALLOWED')),
        );
        round.push(refusedSocket({ Origin: 'null' }).then(() => tally('ORIGIN_NOT_ALLOWED')));
        round.push(refusedSocket({ Origin: 'https://blocked.example' }).then(() => tally('ORIGIN_BLOCKED')));
      }
      // Junk frames, answered PARSE_ERROR (or RATE_LIMITED once the budget is spent), on a paired
      // connection and on one that never logged in; wrong keys for the window.
      for (let n = 0; n < 50; n++) {
        paired.socket.send('{not json');
        junkSender.socket.send('[]');
      }
      round.push(
        Promise.all(Array.from({ length: 5 }, () => junkSender.request('session.operator', { key: 'not-the-key' }))),
      );
      await Promise.all(round);
    }
    // Every refusal counted since the last summary is written at the next one.
    await new Promise((resolve) => setTimeout(resolve, SUMMARY_MS * 2));
    const elapsed = Date.now() - started;

    const refusals = Object.values(sent).reduce((sum, count) => sum + count, 0);
    expect(refusals).toBeGreaterThan(500);
    const grown = statSync(logFile).size - before;
    const summaries = lines(logFile).filter(
      (line): line is Record<string, unknown> & SummaryLine => typeof line.reason === 'string' && 'count' in line,
    );
    // At most one line per reason per interval, whatever the number of refusals.
    const intervals = Math.ceil(elapsed / SUMMARY_MS) + 1;
    const reasons = new Set(summaries.map((line) => line.reason));
    expect(summaries.length).toBeLessThanOrEqual(intervals * reasons.size);
    expect(grown).toBeLessThanOrEqual(intervals * reasons.size * 1_024);
    // A line per refusal would have been at least 100 bytes each: the log took a small part of that.
    expect(grown).toBeLessThan(refusals * 25);

    // The counts add up to what was sent, and name the peers.
    const counted = (reason: RefusalReason): number =>
      summaries.filter((line) => line.reason === reason).reduce((sum, line) => sum + line.count, 0);
    for (const reason of ['HOST_NOT_ALLOWED', 'ORIGIN_NOT_ALLOWED', 'ORIGIN_BLOCKED'] as const)
      expect(counted(reason), reason).toBe(sent[reason]);
    expect(counted('MALFORMED') + counted('RATE_LIMITED')).toBeGreaterThan(1_000);
    expect(counted('OPERATOR_REFUSED')).toBeGreaterThan(0);
    const hostLine = summaries.find((line) => line.reason === 'HOST_NOT_ALLOWED')!;
    expect(hostLine.peers.length).toBeGreaterThan(0);
    expect(hostLine.peers.length).toBeLessThanOrEqual(5);
    expect(hostLine.peers[0]).toMatch(/^Host rebind-\d\.example/);
    expect(summaries.find((line) => line.reason === 'ORIGIN_BLOCKED')!.peers).toEqual(['https://blocked.example']);

    // The audit trail: what came before the flood is still there, and the flood is summed up in it.
    const trail = lines(audit.path);
    expect(trail[0]).toMatchObject({ kind: 'agent.started', version: 'flood-spec' });
    expect(trail).toContainEqual(expect.objectContaining({ kind: 'pairing.approved', name: 'Caixa 1' }));
    expect(trail.filter((line) => line.kind === 'connections.refused').length).toBeGreaterThan(0);
    expect(trail.length).toBeLessThan(200);

    // And the agent still serves.
    expect((await paired.call<{ authenticated: boolean }>('agent.info')).authenticated).toBe(true);
  }, 30_000);
});
