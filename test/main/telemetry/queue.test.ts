/**
 * The telemetry queue: batches on disk, one file each, oldest first; bounded in count and bytes,
 * the oldest dropped (and counted) to make room; what a restart finds is what was not sent; and a
 * folder that cannot be written keeps the batches in memory, says so once, and never throws.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchQueue, type BatchQueueOptions, type DropReason } from '../../../main/telemetry/queue.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(artifactsDir(), 'telemetry-queue-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Opened {
  readonly queue: BatchQueue;
  readonly warnings: string[];
  readonly infos: string[];
  readonly drops: DropReason[];
}

function open(options: Partial<BatchQueueOptions> = {}): Opened {
  const warnings: string[] = [];
  const infos: string[] = [];
  const drops: DropReason[] = [];
  const queue = new BatchQueue({
    dir: join(dir, 'queue'),
    maxBatches: 10,
    maxBytes: 1_000_000,
    logger: { warn: (_fields, message) => warnings.push(message), info: (_fields, message) => infos.push(message) },
    onDrop: (reason) => drops.push(reason),
    ...options,
  });
  return { queue, warnings, infos, drops };
}

const batch = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (body: Uint8Array | undefined): string | undefined =>
  body === undefined ? undefined : new TextDecoder().decode(body);

/** Takes every batch out in order, as the pusher sends them. */
function drain(queue: BatchQueue): string[] {
  const out: string[] = [];
  for (let next = queue.peek(); next !== undefined; next = queue.peek()) {
    out.push(text(next.body)!);
    queue.remove(next.seq);
  }
  return out;
}

describe('BatchQueue', () => {
  it('gives the batches back oldest first, one file each, and deletes a batch once sent', () => {
    const { queue } = open();
    queue.push(batch('a'));
    queue.push(batch('bb'));
    expect(queue.batches).toBe(2);
    expect(queue.bytes).toBe(3);
    expect(readdirSync(join(dir, 'queue'))).toHaveLength(2);
    expect(drain(queue)).toEqual(['a', 'bb']);
    expect(queue.batches).toBe(0);
    expect(queue.bytes).toBe(0);
    expect(readdirSync(join(dir, 'queue'))).toEqual([]);
  });

  it('drops the oldest when a new batch would pass the count bound, and counts it', () => {
    const { queue, drops } = open({ maxBatches: 3 });
    for (const name of ['1', '2', '3', '4', '5']) queue.push(batch(name));
    expect(queue.batches).toBe(3);
    expect(queue.dropped('queue_full')).toBe(2);
    expect(drops).toEqual(['queue_full', 'queue_full']);
    expect(drain(queue)).toEqual(['3', '4', '5']);
    expect(readdirSync(join(dir, 'queue'))).toEqual([]);
  });

  it('drops the oldest while the bytes bound is passed', () => {
    const { queue } = open({ maxBytes: 10 });
    queue.push(batch('aaaa'));
    queue.push(batch('bbbb'));
    queue.push(batch('cccc'));
    expect(queue.bytes).toBe(8);
    expect(queue.dropped('queue_full')).toBe(1);
    expect(drain(queue)).toEqual(['bbbb', 'cccc']);
  });

  it('finds after a restart the batches not sent, in order, and numbers new ones after them', () => {
    const first = open();
    first.queue.push(batch('old-1'));
    first.queue.push(batch('old-2'));
    first.queue.push(batch('old-3'));
    const sent = first.queue.peek()!;
    first.queue.remove(sent.seq);
    // A crash mid-write left half a batch beside its name: it is never sent.
    writeFileSync(join(dir, 'queue', '0000000000000099.batch.tmp'), 'half');

    const second = open();
    expect(second.queue.batches).toBe(2);
    expect(second.queue.bytes).toBe(10);
    second.queue.push(batch('new'));
    expect(drain(second.queue)).toEqual(['old-2', 'old-3', 'new']);
    expect(readdirSync(join(dir, 'queue'))).toEqual([]);
  });

  it('applies the bounds to what a restart finds (smaller bounds in the new settings)', () => {
    const first = open();
    for (const name of ['1', '2', '3', '4']) first.queue.push(batch(name));
    const second = open({ maxBatches: 2 });
    expect(second.queue.dropped('queue_full')).toBe(2);
    expect(drain(second.queue)).toEqual(['3', '4']);
  });

  it('drops a batch whose file went missing, as unreadable, and goes on to the next', () => {
    const { queue, drops } = open();
    queue.push(batch('gone'));
    queue.push(batch('kept'));
    rmSync(join(dir, 'queue', '0000000000000001.batch'));
    expect(text(queue.peek()?.body)).toBe('kept');
    expect(drops).toEqual(['unreadable']);
  });

  it('keeps batches in memory when its folder cannot be written, says so once, and writes files again once it can', () => {
    // The folder is a file: every write fails (as root too, unlike a read-only mode).
    writeFileSync(join(dir, 'queue'), 'not a folder');
    const { queue, warnings, infos } = open({ maxBatches: 2 });
    expect(() => {
      queue.push(batch('m1'));
      queue.push(batch('m2'));
      queue.push(batch('m3'));
    }).not.toThrow();
    expect(queue.degraded).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cannot write.*kept in memory/);
    // The same bounds apply in memory.
    expect(queue.batches).toBe(2);
    expect(queue.dropped('queue_full')).toBe(1);

    rmSync(join(dir, 'queue'));
    queue.push(batch('d1'));
    expect(queue.degraded).toBe(false);
    expect(infos).toEqual(['the telemetry queue writes to its folder again']);
    expect(readdirSync(join(dir, 'queue'))).toHaveLength(1);
    expect(drain(queue)).toEqual(['m3', 'd1']);
  });
});
