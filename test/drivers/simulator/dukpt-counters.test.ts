/**
 * The simulated PINPAD's DUKPT counters live as long as the device's memory would: a KSN is
 * never used twice — not by a second simulator of the same serial number in the process, not by
 * a simulator started again on the same counters file — because a host refuses a KSN that does
 * not advance. A counters file that cannot be written never stops a sale.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ksnCounter } from '../../../drivers/crypto/dukpt.js';
import { fileCounterStore, memoryCounterStore, SimulatedDukptKeys } from '../../../drivers/simulator/keys.js';

const counterOf = (keys: SimulatedDukptKeys, kind: 'pin' | 'data' = 'pin'): number => ksnCounter(keys.use(kind, 1).ksn);

describe('DUKPT counters of the simulated PINPAD', () => {
  it('a device with its own memory starts at 1 and advances at every use', () => {
    const keys = new SimulatedDukptKeys('SIMCOUNTERS0001', memoryCounterStore());
    expect([counterOf(keys), counterOf(keys), counterOf(keys)]).toEqual([1, 2, 3]);
    // PIN and data keys count apart.
    expect(counterOf(keys, 'data')).toBe(1);
  });

  it('a second simulator of the same serial number in the process goes on where the first stopped', () => {
    const serial = `SIMPROC${Date.now()}`;
    const first = new SimulatedDukptKeys(serial);
    counterOf(first);
    counterOf(first);
    const second = new SimulatedDukptKeys(serial);
    expect(ksnCounter(second.currentKsn('pin', 1))).toBe(3);
    expect(counterOf(second)).toBe(3);
    // Both are one device: the first does not reuse what the second used.
    expect(counterOf(first)).toBe(4);
  });

  it('a simulator started again on the same counters file never repeats a KSN', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pb-ksn-')), 'nested', 'ksn-counters.json');
    const run = (): number[] => {
      // A memory store stands for a new process: only the file carries the counters over.
      const keys = new SimulatedDukptKeys('SIMFILE0000001', fileCounterStore(path));
      return [counterOf(keys), counterOf(keys)];
    };
    const firstRun = run();
    const secondRun = run();
    expect(Math.min(...secondRun)).toBeGreaterThan(Math.max(...firstRun));
    const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
    expect(Object.values(saved)).toContain(Math.max(...secondRun));
  });

  it('starts from memory when the file holds nonsense, and keeps selling when it cannot be written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pb-ksn-ro-'));
    const path = join(dir, 'ksn-counters.json');
    writeFileSync(path, '{"not a ksn": 5, "FF01000000000000E00000": -3');
    const errors: Error[] = [];
    // A file where the counters' folder should be: no user, root included, can write there.
    const notAFolder = join(dir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    const broken = new SimulatedDukptKeys('SIMFILE0000002', fileCounterStore(path));
    expect(counterOf(broken)).toBeGreaterThanOrEqual(1);
    const unwritable = new SimulatedDukptKeys(
      'SIMFILE0000003',
      fileCounterStore(join(notAFolder, 'sub', 'ksn.json'), (error) => errors.push(error)),
    );
    const used = [counterOf(unwritable), counterOf(unwritable), counterOf(unwritable)];
    expect(used[2]! - used[0]!).toBe(2);
    // Said once, not at every use.
    expect(errors).toHaveLength(1);
  });
});
