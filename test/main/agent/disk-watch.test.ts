/**
 * The agent's disk as one state (issue 33), over real writers on a real small disk (a tmpfs): the
 * journal's room, the log file, the print queue. It turns full once — one `disk.full` line in the
 * audit trail however many writes fail — says which writers the disk refuses and whether sales
 * are refused, has them write again once there is room, and turns ok once — one `disk.recovered`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiskWatch, type DiskStatus } from '../../../main/agent/disk-watch.js';
import { AuditLog } from '../../../main/audit-log.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { createLogger, logFileOf } from '../../../main/log.js';
import { PrintJournal } from '../../../main/receipts/print-jobs.js';
import { PrintQueue } from '../../../main/receipts/print-queue.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';

const MiB = 1024 * 1024;
let disk: SmallDisk | undefined;
const closers: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  disk?.unmount();
  disk = undefined;
});

/** The agent's writers on one small disk, its audit trail elsewhere (to be read), watched. */
function onSmallDisk(): {
  watch: DiskWatch;
  audit: AuditLog;
  logger: ReturnType<typeof createLogger>;
  queue: PrintQueue;
  printed: string[];
  changes: DiskStatus[];
  disk: SmallDisk;
} {
  disk = mountSmallDisk(16 * MiB);
  const journal = Journal.open(join(disk.dir, 'journal.db'), { reserveBytes: 0, minFreeBytes: 2 * MiB });
  const logger = createLogger({ level: 'info', file: join(disk.dir, 'logs', 'pinbridge.log') });
  const prints = PrintJournal.open(join(disk.dir, 'print-jobs.db'));
  const printed: string[] = [];
  const queue = new PrintQueue({
    journal: prints,
    printer: () => ({
      print: (document) => {
        printed.push(document.title);
        return Promise.resolve();
      },
    }),
    retryBaseMs: 20,
    retryMaxMs: 100,
  });
  const audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'pinbridge-audit-')), 'audit.log'));
  const watch = new DiskWatch({
    journal,
    audit,
    logger,
    logFile: logFileOf(logger),
    printQueue: queue,
    okPollMs: 50,
    fullPollMs: 50,
  });
  const changes: DiskStatus[] = [];
  watch.on('change', (status) => changes.push(status));
  closers.push(
    () => journal.close(),
    () => prints.close(),
    () => queue.close(),
    () => audit.close(),
    () => watch.stop(),
  );
  watch.start();
  return { watch, audit, logger, queue, printed, changes, disk };
}

const kinds = (audit: AuditLog): string[] => audit.recent.map((line) => line.kind);

describe('the disk watch', () => {
  it('turns full once however many writes fail, names the writers and refuses sales; once there is room they write again and it turns ok once', async () => {
    const { watch, audit, logger, queue, printed, changes, disk } = onSmallDisk();
    expect(watch.status).toMatchObject({ state: 'ok', sources: [], salesRefused: false, cashierMessage: '' });

    disk.fill();
    for (let n = 0; n < 300; n++) logger.info({ n, pad: 'z'.repeat(200) }, 'while full');
    const held = queue.submit('default', 's', { title: 'via do cliente', blocks: [] });
    expect(held.lastError?.code).toBe('DISK_FULL');
    await vi.waitFor(() =>
      expect(watch.status.sources).toEqual(expect.arrayContaining(['journal', 'logs', 'print_journal'])),
    );
    expect(watch.status).toMatchObject({
      state: 'full',
      salesRefused: true,
      cashierMessage: 'Disco do computador cheio: novas vendas estão suspensas até liberar espaço.',
    });
    // Still full a while later, more writes failing: nothing new in the audit trail.
    for (let n = 0; n < 100; n++) logger.warn({ n }, 'still full');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(kinds(audit).filter((kind) => kind.startsWith('disk.'))).toEqual(['disk.full']);
    expect(audit.recent.at(-1)).toMatchObject({ kind: 'disk.full', sales_refused: true });

    disk.free();
    await vi.waitFor(() => expect(watch.status.state).toBe('ok'), { timeout: 5_000 });
    expect(kinds(audit).filter((kind) => kind.startsWith('disk.'))).toEqual(['disk.full', 'disk.recovered']);
    // The writers wrote what waited: the log its lines, the queue its job.
    await vi.waitFor(() => expect(printed).toEqual(['via do cliente']));
    const log = readFileSync(logFileOf(logger)!.path, 'utf8');
    expect(log).toContain('the log file could not be written from');
    expect(log).toContain('"msg":"still full"');
    // Each change told once: full (with the writers as they were found), then ok.
    expect(changes.at(-1)).toMatchObject({ state: 'ok' });
    expect(
      changes.filter((change, i) => i === 0 || change.state !== changes[i - 1]!.state).map((c) => c.state),
    ).toEqual(['full', 'ok']);
  });

  it('takes a disk fault from elsewhere (the process guard) as full until the journal’s disk has room; anything else is not its business', async () => {
    const { watch, changes, audit } = onSmallDisk();
    watch.report(new TypeError('a bug'));
    watch.check();
    expect(watch.status.state).toBe('ok');
    watch.report(Object.assign(new Error('EROFS: read-only file system, write'), { code: 'EROFS' }));
    await vi.waitFor(() => expect(changes.map((change) => change.state)).toEqual(['full', 'ok']));
    // Sales are not refused for it (the journal has room): said so.
    expect(changes[0]).toMatchObject({
      sources: ['other'],
      code: 'EROFS',
      salesRefused: false,
      cashierMessage:
        'O disco do computador não aceita gravação: registros e impressões aguardam na memória. As vendas continuam.',
    });
    expect(kinds(audit)).toEqual(['disk.full', 'disk.recovered']);
  });
});
