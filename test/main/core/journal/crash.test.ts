/**
 * Nothing lost: a child process journals payments as fast as it can and is killed with SIGKILL
 * mid-stream; every state it reported as committed must be on disk when the journal is reopened.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../../main/core/journal/journal.js';
import { centavos } from '../../../../main/core/money.js';
import type { PaymentState } from '../../../../main/core/states.js';

const WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const HAPPY_PATH: readonly PaymentState[] = [
  'intent',
  'created',
  'card_read',
  'authorizing',
  'approved',
  'completing',
  'awaiting_confirmation',
  'confirmed',
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-journal-crash-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until it has reported `lines` commits, then kills it with SIGKILL. */
async function writeUntilKilled(path: string, lines: number): Promise<Array<[string, PaymentState]>> {
  // The child runs the TypeScript source through tsx, so the test needs no build.
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const reported: Array<[string, PaymentState]> = [];
  for await (const line of createInterface({ input: child.stdout })) {
    const [id, state] = line.split(' ') as [string, PaymentState];
    reported.push([id, state]);
    if (reported.length === lines) {
      child.kill('SIGKILL');
      break;
    }
  }
  const signal = await exited;
  if (signal !== 'SIGKILL') throw new Error(`the writer ended before it was killed (${String(signal)}): ${stderr}`);
  return reported;
}

function check(journal: Journal, reported: ReadonlyArray<[string, PaymentState]>): void {
  const last = new Map<string, PaymentState>();
  for (const [id, state] of reported) last.set(id, state);
  const inFlight = reported.at(-1)![0];
  for (const [id, state] of last) {
    const record = journal.get(id);
    expect(record, `payment ${id}`).toBeDefined();
    const at = HAPPY_PATH.indexOf(record!.state);
    const printed = HAPPY_PATH.indexOf(state);
    // Only the payment in flight may be ahead of its last printed line: the writer keeps
    // committing until the signal lands (commits between synced states take microseconds).
    if (id === inFlight) expect(at).toBeGreaterThanOrEqual(printed);
    else expect(record!.state).toBe(state);
    expect(journal.events(id).map((e) => e.to)).toEqual(HAPPY_PATH.slice(0, at + 1));
  }
  const unfinished = journal.unfinished().map((r) => r.id);
  expect(unfinished.filter((id) => last.has(id) && id !== inFlight)).toEqual([]);
}

describe('journal after kill -9', () => {
  it('holds every payment a killed writer reported, in the state it last reported (the one in flight maybe further), kill after kill', async () => {
    const path = join(dir, 'journal.db');
    let total = 0;
    // Two kills at different points on the same file: the second writer starts on a recovered file.
    for (const lines of [97, 300]) {
      const reported = await writeUntilKilled(path, lines);
      total += new Set(reported.map(([id]) => id)).size;
      const journal = Journal.open(path);
      try {
        check(journal, reported);
        expect(journal.list().total).toBeGreaterThanOrEqual(total);
      } finally {
        journal.close();
      }
    }

    // The file is whole: it takes writes again.
    const journal = Journal.open(path);
    try {
      const record = journal.createIntent({
        referenceId: 'after-crash',
        source: 'pos',
        terminal: 'PP-CRASH',
        amount: centavos(1),
        paymentType: 'debit',
        installments: null,
        description: 'after the crash',
        notification: null,
        paramsHash: 'd'.repeat(64),
        confirmation: 'auto',
      });
      expect(journal.transition(record.id, 'cancelled').state).toBe('cancelled');
    } finally {
      journal.close();
    }
  });
});
