/**
 * The clients file's change marker, on real files in a temp directory: counts that move with every write
 * and never repeat between stores, "under way" while a write has begun and not ended (or its writer died),
 * and nothing to offer (so SQLite is asked) in memory or when the marker cannot be opened.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeMarker, changeMarkerPath } from '../../../../main/pos/clients/change-marker.js';

let dir: string;
let opened: ChangeMarker[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-marker-'));
  opened = [];
});
afterEach(() => {
  for (const marker of opened) marker.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(file = 'clients.db'): ChangeMarker {
  const marker = ChangeMarker.open(join(dir, file));
  expect(marker).toBeDefined();
  opened.push(marker!);
  return marker!;
}

describe('the change marker', () => {
  it('is made beside the clients file, and counts nothing there yet', () => {
    const marker = open();
    expect(statSync(changeMarkerPath(join(dir, 'clients.db'))).isFile()).toBe(true);
    expect(marker.read()).toBe(0);
  });

  it('is under way from the start of a write to its end, and then gives the write its count', () => {
    const writer = open();
    const reader = open();
    const first = writer.begin();
    expect(first).toBe(1);
    expect(reader.read()).toBeUndefined();
    writer.end(first!);
    expect(reader.read()).toBe(1);
    writer.end(writer.begin()!);
    expect(reader.read()).toBe(2);
  });

  it('never gives two writes the same count, whichever store in whichever process made them', () => {
    const one = open();
    const two = open();
    one.end(one.begin()!);
    const second = two.begin()!;
    two.end(second);
    expect(second).toBe(2);
    expect(one.read()).toBe(2);
    // Kept in 16 bytes, overwritten in place (never appended).
    expect(statSync(changeMarkerPath(join(dir, 'clients.db'))).size).toBe(16);
  });

  it('stays under way after a writer died between the start and the end of its write, until a later write ends', () => {
    const dead = open();
    dead.begin();
    const reader = open();
    expect(reader.read()).toBeUndefined();
    const later = open();
    later.end(later.begin()!);
    expect(reader.read()).toBe(2);
  });

  it('stays under way when an earlier write ends after a later one began', () => {
    const slow = open();
    const fast = open();
    const early = slow.begin()!;
    const late = fast.begin()!;
    fast.end(late);
    slow.end(early);
    expect(fast.read()).toBeUndefined();
  });

  it('offers nothing for a database in memory, or where the marker cannot be made', () => {
    expect(ChangeMarker.open(':memory:')).toBeUndefined();
    expect(ChangeMarker.open(join(dir, 'no such folder', 'clients.db'))).toBeUndefined();
    mkdirSync(changeMarkerPath(join(dir, 'taken.db')));
    expect(ChangeMarker.open(join(dir, 'taken.db'))).toBeUndefined();
  });

  it('reads a marker cut short as under way or as counting nothing, never as an earlier read', () => {
    const marker = open();
    marker.end(marker.begin()!);
    expect(marker.read()).toBe(1);
    writeFileSync(changeMarkerPath(join(dir, 'clients.db')), Buffer.alloc(4));
    expect(marker.read()).toBe(0);
  });
});
