/**
 * No uncaught exception path remains for the agent's writers (issue 33). Each file the agent
 * writes — the journal, the log, the audit trail, the print journal and its queue, the receipts
 * folder, the POS clients file, the EMV tables cache, the settings, the window's key, the stored
 * API token, the simulated PINPAD's counters — is driven here on a real full disk (a small tmpfs:
 * the tests run as root, so permissions would not stop a write), and each one:
 * - reports a clear error to its caller, or a degraded state, in the words the agent acts on;
 * - lets no exception escape and no promise reject unheard (this process's `uncaughtException`
 *   and `unhandledRejection` are watched, on top of vitest's own detection);
 * - leaves nothing half-written behind;
 * - writes again, without being made anew, once there is room.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FolderTransport } from '../../../drivers/printers/transports/folder.js';
import { fileCounterStore } from '../../../drivers/simulator/index.js';
import { loadOperatorKey } from '../../../main/agent/operator-key.js';
import { headlessTokenStore, TokenStoreError } from '../../../main/agent/token-store.js';
import { AuditLog } from '../../../main/audit-log.js';
import { Journal, JournalError } from '../../../main/core/journal/journal.js';
import { createLogger, logFileOf } from '../../../main/log.js';
import { ProviderTables } from '../../../main/pinpad/provider-tables.js';
import { ClientStore } from '../../../main/pos/clients/client-store.js';
import { toPosError } from '../../../main/pos/server/errors.js';
import { PrintJournal } from '../../../main/receipts/print-jobs.js';
import { PrintQueue } from '../../../main/receipts/print-queue.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { saveSettings } from '../../../main/settings/settings-file.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';
import { thrown } from '../../helpers/thrown.js';
import { testIntegrityKey } from '../../helpers/integrity-key.js';
import { centavos } from '../../../main/core/money.js';

const MiB = 1024 * 1024;
let disk: SmallDisk;
const escaped: unknown[] = [];
const onEscape = (error: unknown): void => void escaped.push(error);

beforeEach(() => {
  disk = mountSmallDisk(4 * MiB);
  escaped.length = 0;
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
});
afterEach(async () => {
  // Whatever ran in the background (timers, promises) has had its turn.
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
  disk.unmount();
  expect(escaped, 'an exception escaped or a rejection went unheard').toEqual([]);
});

/** The files in a folder of the disk, but the test's own fillers. */
const filesIn = (dir: string): string[] => readdirSync(dir).filter((name) => !name.startsWith('filler-'));

describe("the agent's writers on a full disk", () => {
  it('the journal: refuses the write (DISK_FULL, the POS hears DISK_FULL), says no sale fits, and writes once there is room', () => {
    const journal = Journal.open(join(disk.dir, 'journal.db'), { reserveBytes: 0, minFreeBytes: MiB });
    try {
      disk.fill();
      const intent = (): unknown =>
        journal.createIntent({
          referenceId: `r-${randomUUID()}`,
          source: 'pos',
          terminal: 'PP-1',
          amount: centavos(100),
          paymentType: 'credit',
          installments: null,
          description: 'x'.repeat(4000),
          notification: null,
          paramsHash: 'a'.repeat(64),
          confirmation: 'auto',
        });
      // The write-ahead log's last page may take a row or two: the disk refuses the next ones.
      let error: unknown;
      for (let n = 0; n < 50 && error === undefined; n++) error = thrown(intent);
      expect(error).toBeInstanceOf(JournalError);
      expect((error as JournalError).code).toBe('DISK_FULL');
      expect(toPosError(error)?.code).toBe('DISK_FULL');
      expect(journal.room().enough).toBe(false);
      disk.free();
      expect(journal.room().enough).toBe(true);
      expect(() => intent()).not.toThrow();
    } finally {
      journal.close();
    }
  });

  it('the log: never throws — made on a full disk or writing on one — keeps the lines in memory, and writes them once there is room', () => {
    disk.fill();
    const file = join(disk.dir, 'logs', 'pinbridge.log');
    const logger = createLogger({ level: 'info', file });
    for (let n = 0; n < 200; n++) expect(() => logger.info({ n, pad: 'y'.repeat(200) }, 'a line')).not.toThrow();
    const health = logFileOf(logger)!;
    expect(health.failure?.code).toBe('ENOSPC');
    expect(health.unwritten().length).toBeGreaterThan(0);
    disk.free();
    expect(health.retryNow()).toBe(true);
    expect(health.failure).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toContain('"n":199');
  });

  it('the audit trail: never throws; the lines wait in memory and are written, marked late, once there is room', () => {
    disk.fill();
    const audit = new AuditLog(join(disk.dir, 'logs', 'audit.log'));
    expect(() => audit.record({ kind: 'disk.full', code: 'ENOSPC' })).not.toThrow();
    expect(audit.failure).toBe('ENOSPC');
    disk.free();
    audit.record({ kind: 'disk.recovered', lasted_s: 1 });
    audit.close();
    expect(audit.failure).toBeUndefined();
    const lines = readFileSync(audit.path, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as { kind: string; late?: boolean })).toMatchObject([
      { kind: 'disk.full', late: true },
      { kind: 'disk.recovered' },
    ]);
  });

  it('the print journal and its queue: opened on a full disk, hold the job in memory (not printed, saying why), journal and print it once there is room', async () => {
    disk.fill();
    const journal = PrintJournal.open(join(disk.dir, 'print-jobs.db'));
    const printed: string[] = [];
    const queue = new PrintQueue({
      journal,
      printer: () => ({
        print: (document) => {
          printed.push(document.title);
          return Promise.resolve();
        },
      }),
      retryBaseMs: 10,
      retryMaxMs: 50,
    });
    try {
      expect(journal.held).toBe(true);
      const job = queue.submit('default', 'payment:r1:sale:customer', { title: 'via do cliente', blocks: [] });
      expect(job).toMatchObject({ state: 'queued', lastError: { code: 'DISK_FULL' } });
      expect(queue.journalFailure).toMatchObject({ code: 'DISK_FULL', heldJobs: 1 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(printed).toEqual([]);
      disk.free();
      await vi.waitFor(() => expect(printed).toEqual(['via do cliente']), { timeout: 5_000 });
      expect(journal.held).toBe(false);
      expect(journal.get(job.id)?.state).toBe('printed');
    } finally {
      await queue.close();
      journal.close();
    }
  });

  it('the receipts folder: the print fails with IO_ERROR (the queue tries again), leaving no half receipt', async () => {
    const folder = join(disk.dir, 'receipts');
    const transport = new FolderTransport(folder);
    await transport.open();
    disk.fill();
    const error = await transport.write(Buffer.alloc(256 * 1024, 0x25)).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'IO_ERROR' });
    expect(filesIn(folder)).toEqual([]);
    disk.free();
    await transport.write(Buffer.from('%PDF-1.4 receipt'));
    expect(filesIn(folder)).toHaveLength(1);
  });

  it('the POS clients file: opened on a full disk, a paired POS still logs in; a pairing is refused as DISK_FULL; it writes once there is room', () => {
    const path = join(disk.dir, 'clients.db');
    const before = ClientStore.open(path);
    const { pairing, code } = before.requestPairing({ name: 'Caixa 1', origin: null });
    const { token } = before.completePairing({ pairingId: pairing.id, code, origin: null });
    before.close();
    disk.fill();
    const store = ClientStore.open(path);
    try {
      expect(store.authenticate(token, null).name).toBe('Caixa 1');
      const refused = thrown(() => store.requestPairing({ name: 'Caixa 2', origin: null }));
      expect(toPosError(refused)).toMatchObject({
        code: 'DISK_FULL',
        cashierMessage: 'Disco do computador cheio: nada foi gravado. Libere espaço e tente de novo.',
      });
      disk.free();
      expect(store.requestPairing({ name: 'Caixa 2', origin: null }).pairing.name).toBe('Caixa 2');
    } finally {
      store.close();
    }
  });

  it('the EMV tables cache: the tables are used all the same, and asked again at the next start', async () => {
    const cacheFile = join(disk.dir, 'emv-tables', 'SIM1.json');
    disk.fill();
    const tables = new ProviderTables({
      channel: {
        emvTables: () => Promise.resolve({ version: TEST_EMV_TABLES.version, changed: true, tables: TEST_EMV_TABLES }),
      },
      serial: 'SIM1',
      cacheFile,
      integrity: testIntegrityKey(),
    });
    const current = await tables.current();
    expect(current).toMatchObject({ version: TEST_EMV_TABLES.version });
    expect(existsSync(cacheFile)).toBe(false);
    if (existsSync(join(disk.dir, 'emv-tables'))) expect(filesIn(join(disk.dir, 'emv-tables'))).toEqual([]);
  });

  it('the settings: the save fails with the disk’s error (the window says DISK_FULL), the file as it was, nothing half-written beside it', () => {
    const path = join(disk.dir, 'settings.json');
    writeFileSync(path, '{}\n');
    disk.fill();
    const error = thrown(() =>
      saveSettings(path, { receipts: { merchant: { name: 'LOJA '.repeat(19), cnpj: '11222333000181' } } }),
    );
    expect(error).toMatchObject({ code: 'ENOSPC' });
    expect(toPosError(error)?.code).toBe('DISK_FULL');
    expect(readFileSync(path, 'utf8')).toBe('{}\n');
    expect(filesIn(disk.dir)).toEqual(['settings.json']);
  });

  it("the window's key: a new one that cannot be saved is used for this run, and no half key is left", () => {
    disk.fill();
    const path = join(disk.dir, 'operator.key');
    const unsaved: Error[] = [];
    const key = loadOperatorKey(path, (error) => unsaved.push(error));
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(unsaved.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['ENOSPC']);
    expect(existsSync(path)).toBe(false);
  });

  it('the stored API token: UNWRITABLE (the window says DISK_FULL), the token kept before untouched', () => {
    const path = join(disk.dir, 'api-token');
    const store = headlessTokenStore(path, {});
    store.write('token-antes');
    disk.fill();
    const error = thrown(() => store.write('t'.repeat(64 * 1024)));
    expect(error).toBeInstanceOf(TokenStoreError);
    expect((error as TokenStoreError).code).toBe('UNWRITABLE');
    expect(toPosError(error)?.code).toBe('DISK_FULL');
    expect(store.read()).toBe('token-antes');
    expect(filesIn(disk.dir)).toEqual(['api-token']);
  });

  it("the simulated PINPAD's counters: go on in memory, the failure said once", () => {
    const path = join(disk.dir, 'simulator', 'ksn-counters.json');
    mkdirSync(join(disk.dir, 'simulator'));
    disk.fill();
    const failures: Error[] = [];
    const counters = fileCounterStore(path, (error) => failures.push(error));
    for (let n = 1; n <= 5; n++) expect(() => counters.used('FFFF9876543210E00000', n)).not.toThrow();
    expect(counters.last('FFFF9876543210E00000')).toBe(5);
    expect(failures).toHaveLength(1);
  });
});
