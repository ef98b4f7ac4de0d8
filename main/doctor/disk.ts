/**
 * The `disk` check (issue 33): room on the disk of the agent's files (~/.pinbridge: the journal,
 * the logs, the print journal, the POS clients file, the receipts) for the journal to take a new
 * sale — below its floor (the 8 MiB reserve and 32 MiB besides) the agent refuses sales with
 * DISK_FULL — and, asked from the window, what the running agent itself sees: whether its disk
 * refuses writes and whether its log file is being written ("logs are not being written to disk:
 * ENOSPC…", with the newest lines it kept in memory).
 */
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_MIN_FREE_BYTES, DEFAULT_RESERVE_BYTES } from '../core/journal/disk-reserve.js';
import { bilingual, checkResult, type CheckResult } from './check.js';

/** What a running agent knows of its disk and its log file (the window's doctor). */
export interface RunningDiskReport {
  readonly disk: {
    readonly state: 'ok' | 'full';
    readonly salesRefused: boolean;
    readonly code: string | null;
    readonly sources: readonly string[];
  };
  /** Null when the agent writes no log file. */
  readonly logs: {
    readonly path: string;
    readonly notWritten: { readonly code: string; readonly since: string; readonly unwritten: number } | null;
    /** The newest lines, card data masked (the agent masks them). */
    readonly recent: readonly string[];
  } | null;
}

export interface DiskCheckOptions {
  /** The agent's data folder (~/.pinbridge): the disk of the journal and the logs. */
  readonly dataDir: string;
  /** Free bytes below which no sale starts (default the journal's: its reserve and its floor). */
  readonly saleFloorBytes?: number;
  readonly running?: RunningDiskReport;
  /** Free bytes at a path (default statfs of it, or of its nearest existing parent). */
  readonly freeBytes?: (path: string) => number | undefined;
}

/** How many of the newest log lines go in the details. */
export const RECENT_LINES_SHOWN = 20;
const MiB = 1024 * 1024;

function statfsFree(path: string): number | undefined {
  for (let at = path; ; at = dirname(at)) {
    try {
      const fs = statfsSync(at);
      return fs.bavail * fs.bsize;
    } catch {
      if (dirname(at) === at) return undefined;
    }
  }
}

const mib = (bytes: number): string => `${Math.floor(bytes / MiB)} MiB`;

export function checkDisk(options: DiskCheckOptions): CheckResult {
  const floor = options.saleFloorBytes ?? DEFAULT_RESERVE_BYTES + DEFAULT_MIN_FREE_BYTES;
  const free = (options.freeBytes ?? statfsFree)(options.dataDir);
  const logs = options.running?.logs ?? null;
  const disk = options.running?.disk;
  const details = {
    data_dir: options.dataDir,
    free_bytes: free ?? null,
    sale_floor_bytes: floor,
    ...(disk === undefined
      ? {}
      : {
          agent: { state: disk.state, sales_refused: disk.salesRefused, code: disk.code, sources: [...disk.sources] },
        }),
    ...(logs === null
      ? {}
      : {
          log_file: logs.path,
          not_written: logs.notWritten === null ? null : { ...logs.notWritten },
          recent_lines: logs.recent.slice(-RECENT_LINES_SHOWN),
        }),
  };
  const room = free === undefined ? 'free space unknown' : `${mib(free)} free`;
  const roomPt = free === undefined ? 'espaço livre desconhecido' : `${mib(free)} livres`;
  const freeUp = bilingual(
    `Free space on the disk of ${options.dataDir} (old files, downloads, the recycle bin): Pinbridge resumes by itself, no restart needed.`,
    `Libere espaço no disco de ${options.dataDir} (arquivos antigos, downloads, a lixeira): o Pinbridge volta sozinho, sem reiniciar.`,
  );
  if (logs !== null && logs.notWritten !== null) {
    const { code, since, unwritten } = logs.notWritten;
    return checkResult({
      id: 'disk',
      status: 'fail',
      summary: bilingual(
        `Logs are not being written to disk: ${code} since ${since} (${unwritten} lines in memory only; the newest are in these details and the window's log export); ${room}`,
        `Os registros não estão sendo gravados no disco: ${code} desde ${since} (${unwritten} linhas só na memória; as mais recentes estão nestes detalhes e na exportação de registros da janela); ${roomPt}`,
      ),
      details,
      fix: freeUp,
    });
  }
  if (disk?.state === 'full' || (free !== undefined && free < floor)) {
    const refused = disk === undefined ? free !== undefined && free < floor : disk.salesRefused;
    return checkResult({
      id: 'disk',
      status: 'fail',
      summary: refused
        ? bilingual(
            `The disk is full (${room} on the disk of ${options.dataDir}): new sales are refused (DISK_FULL) below ${mib(floor)}`,
            `O disco está cheio (${roomPt} no disco de ${options.dataDir}): novas vendas são recusadas (DISK_FULL) abaixo de ${mib(floor)}`,
          )
        : bilingual(
            `The disk refuses Pinbridge's writes (${disk?.code ?? 'unknown'}; ${room}): what cannot be written waits in memory`,
            `O disco recusa as gravações do Pinbridge (${disk?.code ?? 'desconhecido'}; ${roomPt}): o que não pode ser gravado aguarda na memória`,
          ),
      details,
      fix: freeUp,
    });
  }
  if (free !== undefined && free < 4 * floor) {
    return checkResult({
      id: 'disk',
      status: 'warn',
      summary: bilingual(
        `Little room: ${room} on the disk of ${options.dataDir}; below ${mib(floor)} new sales are refused (DISK_FULL)`,
        `Pouco espaço: ${roomPt} no disco de ${options.dataDir}; abaixo de ${mib(floor)} novas vendas são recusadas (DISK_FULL)`,
      ),
      details,
      fix: freeUp,
    });
  }
  return checkResult({
    id: 'disk',
    status: 'ok',
    summary:
      logs === null
        ? bilingual(`${room} on the disk of ${options.dataDir}`, `${roomPt} no disco de ${options.dataDir}`)
        : bilingual(
            `${room} on the disk of ${options.dataDir}; the log file is being written`,
            `${roomPt} no disco de ${options.dataDir}; o arquivo de registros está sendo gravado`,
          ),
    details,
  });
}
