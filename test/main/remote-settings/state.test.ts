/**
 * What the agent keeps of remote settings survives a restart, is written atomically, and a disk
 * that refuses the write never ends the agent: the state goes on in memory, and a trial that could
 * not be kept is not offered.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/log.js';
import { RemoteStateStore } from '../../../main/remote-settings/state.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';

const doc = (version: number) => ({
  version,
  url: 'https://rede/x.json',
  envelope: `{"v":${version}}`,
  fetched_at: 'now',
});
const dir = (): string => mkdtempSync(join(artifactsDir(), 'remote-state-'));

describe('the remote settings state', () => {
  it('moves a trial to current when confirmed, and survives a new process', () => {
    const path = join(dir(), 'state', 'state.json');
    const store = new RemoteStateStore(path);
    expect(store.offer(doc(1))).toBe(true);
    expect(store.attempt()).toMatchObject({ version: 1, attempts: 1 });
    store.confirm(1);
    expect(new RemoteStateStore(path).state).toMatchObject({ current: { version: 1 }, trial: null });
  });

  it('refuses a trial for good, keeping its version and the refusal', () => {
    const store = new RemoteStateStore(join(dir(), 'state.json'));
    store.offer(doc(2));
    store.refuse('NOT_READY', 'did not start', 2, new Date('2026-11-29T10:00:00Z'));
    expect(store.state).toMatchObject({
      trial: null,
      refused_versions: [2],
      refusals: [{ code: 'NOT_READY', message: 'did not start', version: 2, at: '2026-11-29T10:00:00.000Z' }],
    });
  });

  it('marks a version for good only for what it did here, and counts a refusal seen again once', () => {
    const store = new RemoteStateStore(join(dir(), 'state.json'));
    // Another store's version 4 served here by mistake does not spoil this checkout's own version 4.
    store.refuse('WRONG_SCOPE', 'the document is for store loja-8', 4);
    store.refuse('INVALID_SETTINGS', 'confirmation: must be one of auto, pos', 5);
    expect(store.state.refused_versions).toEqual([5]);
    for (const minute of [0, 15, 30])
      store.refuse('TAMPERED', 'the signature does not verify', null, new Date(Date.UTC(2026, 10, 29, 10, minute)));
    expect(store.state.refusals.map((r) => r.code)).toEqual(['WRONG_SCOPE', 'INVALID_SETTINGS', 'TAMPERED']);
    expect(store.state.refusals.at(-1)?.at).toBe('2026-11-29T10:30:00.000Z');
  });

  it('starts empty, and says so, from a file that is not JSON', () => {
    const path = join(dir(), 'state.json');
    writeFileSync(path, '{half');
    const logFile = join(dir(), 'log');
    const store = new RemoteStateStore(path, createLogger({ level: 'info', file: logFile }));
    expect(store.state.current).toBeNull();
    expect(readFileSync(logFile, 'utf8')).toContain('not valid JSON');
  });

  it('goes on in memory when the write fails, and does not offer a trial it could not keep', () => {
    // A file where its folder should be: every write fails (ENOTDIR), as on a read-only or full disk, even as root.
    const blocker = join(dir(), 'blocker');
    writeFileSync(blocker, '');
    const store = new RemoteStateStore(join(blocker, 'state.json'));
    expect(store.offer(doc(3))).toBe(false);
    expect(store.state.trial).toBeNull();
    store.recordCheck({ at: 'now', url: 'u', outcome: 'unreachable', message: 'x' });
    expect(store.state.last_check?.outcome).toBe('unreachable');
  });
});
