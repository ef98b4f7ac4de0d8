/**
 * A real, small file system for disk-full specs: a tmpfs of its own (mount needs root, which the
 * tests and CI run as), filled to the last byte with a filler file and freed again — so SQLite,
 * the journal and everything else on it meet a real ENOSPC, not a simulated one.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  /** The mount point. */
  readonly dir: string;
  /** Writes a filler file until the disk refuses another byte (or until only `leaveBytes` are free). */
  fill(leaveBytes?: number): void;
  /** Removes the filler: the space is back. */
  free(): void;
  readonly freeBytes: number;
  unmount(): void;
}

export function mountSmallDisk(sizeBytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why =
      error instanceof Error && 'stderr' in error ? String((error as { stderr: unknown }).stderr) : String(error);
    throw new Error(
      `these specs mount a small tmpfs and need root with CAP_SYS_ADMIN (as the tests and CI run): ${why.trim()}`,
      { cause: error },
    );
  }
  let fillers = 0;
  return {
    dir,
    fill(leaveBytes = 0) {
      const fd = openSync(join(dir, `filler-${++fillers}`), 'w');
      try {
        if (leaveBytes > 0) {
          const fs = statfsSync(dir);
          writeSync(fd, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - leaveBytes), 0x5a));
          return;
        }
        // Big writes first, then ever smaller ones, down to a single byte: nothing is left.
        for (let chunk = 1024 * 1024; chunk >= 1; chunk = Math.floor(chunk / 2)) {
          const buffer = Buffer.alloc(chunk, 0x5a);
          for (;;) {
            try {
              writeSync(fd, buffer);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      for (let n = 1; n <= fillers; n++) rmSync(join(dir, `filler-${n}`), { force: true });
    },
    get freeBytes() {
      const fs = statfsSync(dir);
      return fs.bavail * fs.bsize;
    },
    unmount() {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
