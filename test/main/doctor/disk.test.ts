/**
 * The disk check (issue 33) on a real small disk (a tmpfs): room for a sale on the disk of the
 * agent's files, and — from the window — what the running agent sees: its disk refusing writes,
 * its log file not being written ("logs are not being written to disk: ENOSPC…" and the newest
 * lines it kept in memory). In English and Portuguese alike.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDisk, RECENT_LINES_SHOWN, type RunningDiskReport } from '../../../main/doctor/disk.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';

const MiB = 1024 * 1024;
let disk: SmallDisk | undefined;
afterEach(() => {
  disk?.unmount();
  disk = undefined;
});

const healthy: RunningDiskReport['disk'] = { state: 'ok', salesRefused: false, code: null, sources: [] };

describe('the disk check', () => {
  it('is ok with room for sales, and says the log file is being written when the agent says so', () => {
    disk = mountSmallDisk(64 * MiB);
    const dataDir = join(disk.dir, '.pinbridge');
    const result = checkDisk({
      dataDir,
      saleFloorBytes: 8 * MiB,
      running: { disk: healthy, logs: { path: join(dataDir, 'logs', 'pinbridge.log'), notWritten: null, recent: [] } },
    });
    expect(result).toMatchObject({ id: 'disk', status: 'ok', details: { data_dir: dataDir, not_written: null } });
    expect(result.summary).toMatch(/^6\d MiB free on the disk of .*; the log file is being written$/);
    expect(result.pt.summary).toMatch(/^6\d MiB livres no disco de .*; o arquivo de registros está sendo gravado$/);
  });

  it('warns when little room is left, and fails below the floor where sales are refused (DISK_FULL), with the fix', () => {
    disk = mountSmallDisk(64 * MiB);
    disk.fill(20 * MiB);
    const low = checkDisk({ dataDir: disk.dir, saleFloorBytes: 8 * MiB });
    expect(low.status).toBe('warn');
    expect(low.summary).toContain('below 8 MiB new sales are refused (DISK_FULL)');
    disk.fill();
    const full = checkDisk({ dataDir: disk.dir, saleFloorBytes: 8 * MiB });
    expect(full).toMatchObject({ status: 'fail', details: { free_bytes: 0 } });
    expect(full.summary).toBe(
      `The disk is full (0 MiB free on the disk of ${disk.dir}): new sales are refused (DISK_FULL) below 8 MiB`,
    );
    expect(full.pt.summary).toBe(
      `O disco está cheio (0 MiB livres no disco de ${disk.dir}): novas vendas são recusadas (DISK_FULL) abaixo de 8 MiB`,
    );
    expect(full.fix).toContain('Pinbridge resumes by itself, no restart needed');
    expect(full.pt.fix).toContain('o Pinbridge volta sozinho, sem reiniciar');
  });

  it('fails saying the logs are not being written, why and since when, with the newest lines from memory', () => {
    disk = mountSmallDisk(64 * MiB);
    const recent = Array.from({ length: 50 }, (_, n) => JSON.stringify({ level: 30, msg: `line ${n}` }));
    const result = checkDisk({
      dataDir: disk.dir,
      running: {
        disk: { state: 'full', salesRefused: true, code: 'ENOSPC', sources: ['logs', 'journal'] },
        logs: {
          path: join(disk.dir, 'logs', 'pinbridge.log'),
          notWritten: { code: 'ENOSPC', since: '2026-05-02T13:00:00.000Z', unwritten: 812 },
          recent,
        },
      },
    });
    expect(result.status).toBe('fail');
    expect(result.summary).toMatch(
      /^Logs are not being written to disk: ENOSPC since 2026-05-02T13:00:00.000Z \(812 lines in memory only; /,
    );
    expect(result.pt.summary).toMatch(
      /^Os registros não estão sendo gravados no disco: ENOSPC desde 2026-05-02T13:00:00.000Z /,
    );
    expect(result.details.recent_lines).toEqual(recent.slice(-RECENT_LINES_SHOWN));
    expect(result.details.agent).toEqual({
      state: 'full',
      sales_refused: true,
      code: 'ENOSPC',
      sources: ['logs', 'journal'],
    });
  });
});
