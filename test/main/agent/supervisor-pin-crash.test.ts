/**
 * The supervisor's lock survives a crash: an agent in training with no PIN stored is locked by
 * wrong PINs and killed with SIGKILL (no exit handler runs); the next agent over the same folder
 * (the same key file) finds the lock in force, even for the training PIN.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileIntegrityKey } from '../../../main/agent/integrity-key.js';
import { SupervisorPin, TRAINING_SUPERVISOR_PIN } from '../../../main/agent/supervisor-pin.js';
import { integrityKeyPath, supervisorPinPath } from '../../../main/paths.js';

const CHILD = fileURLToPath(new URL('./supervisor-pin-crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the child until it reports its lock, then kills it with SIGKILL; the lock it reported. */
async function lockThenKill(home: string): Promise<unknown> {
  // The child runs the TypeScript source through tsx, so the spec needs no build.
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, home], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  let reported: unknown;
  for await (const line of createInterface({ input: child.stdout })) {
    reported = JSON.parse(line);
    child.kill('SIGKILL');
    break;
  }
  const signal = await exited;
  if (signal !== 'SIGKILL') throw new Error(`the child ended before it was killed (${String(signal)}): ${stderr}`);
  return reported;
}

describe('the supervisor lock after kill -9', () => {
  it('holds in training with no PIN stored: the next agent refuses even the training PIN until the lock ends', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pinbridge-supervisor-crash-'));
    const reported = await lockThenKill(home);
    expect(reported).toMatchObject({ reason: 'WRONG_PINS', until: expect.any(String) as unknown });
    const next = new SupervisorPin(supervisorPinPath(home), {
      training: true,
      integrity: fileIntegrityKey(integrityKeyPath(home)),
    });
    expect(next.isStored()).toBe(false);
    expect(next.tampered()).toBe(false);
    expect(next.lock('window')).toEqual({
      reason: 'WRONG_PINS',
      until: (reported as { until: string }).until,
      retryAfterMs: expect.any(Number) as unknown,
    });
    expect(next.check(TRAINING_SUPERVISOR_PIN, 'window')).toMatchObject({ ok: false, reason: 'LOCKED' });
  });
});
