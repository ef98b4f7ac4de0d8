/**
 * `pinbridge journal list|show|export` as support uses it, run in-process through the CLI's
 * `main()` (the same program the bin runs) against real journal files in a temp directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatBrl, localTime } from '../../../main/cli/commands/journal.js';
import { runMain } from '../../helpers/cli.js';
import { defaultJournalPath } from '../../../main/paths.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { startOfDay } from '../../../main/locale/store-time.js';
import type { JournalEvent, NewPayment, PaymentRecord } from '../../../main/core/journal/record.js';
import { centavos } from '../../../main/core/money.js';

const pinbridge = (...args: string[]): ReturnType<typeof runMain> => runMain(args);

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-journal-cli-'));
  path = join(dir, 'journal.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function newPayment(referenceId: string, overrides: Partial<NewPayment> = {}): NewPayment {
  return {
    referenceId,
    source: 'pos',
    terminal: 'PP-0001',
    amount: centavos(123_456),
    paymentType: 'credit',
    installments: null,
    description: 'Venda balcão',
    notification: null,
    paramsHash: 'a'.repeat(64),
    confirmation: 'auto',
    ...overrides,
  };
}

interface Fixture {
  readonly sold: PaymentRecord;
  readonly declined: PaymentRecord;
  readonly pending: PaymentRecord;
}

/** Three payments an hour apart from `start`: a confirmed sale in 3x, a decline, one still in flight. */
function fixture(start: Date = new Date('2026-03-10T12:00:00.000Z')): Fixture {
  let at = start.getTime();
  const journal = Journal.open(path, { now: () => new Date(at++) });
  try {
    let sold = journal.createIntent(newPayment('sale-1', { installments: 3 }));
    sold = journal.transition(sold.id, 'created', { transactionId: '1'.repeat(32) });
    sold = journal.transition(
      sold.id,
      'card_read',
      { card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' } },
      'card read',
    );
    sold = journal.transition(sold.id, 'authorizing');
    sold = journal.transition(sold.id, 'approved', {
      authorization: { authorizationCode: 'A1B2C3', nsu: '000123', responseCode: '00', responseMessage: 'approved' },
    });
    sold = journal.transition(sold.id, 'completing');
    sold = journal.transition(sold.id, 'awaiting_confirmation');
    sold = journal.transition(sold.id, 'confirmed', {}, 'confirmed by policy');
    at += 3_600_000;
    let declined = journal.createIntent(
      newPayment('sale-2', {
        paymentType: 'debit',
        amount: centavos(990),
        terminal: 'PP-0002',
        description: 'Café, "expresso"',
      }),
    );
    declined = journal.transition(declined.id, 'created', { transactionId: '2'.repeat(32) });
    declined = journal.transition(declined.id, 'card_read', {
      card: { brand: 'elo', maskedPan: '636368******1234', entryMode: 'contactless_chip' },
    });
    declined = journal.transition(declined.id, 'authorizing');
    declined = journal.transition(declined.id, 'declined', {
      problem: { code: 'CARD_DECLINED', message: 'the issuer declined', cashierMessage: 'Cartão recusado' },
    });
    at += 3_600_000;
    const pending = journal.createIntent(newPayment('sale-3', { amount: centavos(5), description: '=HYPERLINK("x")' }));
    return { sold, declined, pending };
  } finally {
    journal.close();
  }
}

describe('pinbridge journal list', () => {
  it('prints a table newest first: local time, reference, state, amount in reais, type, masked card, transaction id', async () => {
    const { sold } = fixture();
    const result = await pinbridge('journal', 'list', '--journal', path);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+REFERENCE\s+STATE\s+AMOUNT\s+TYPE\s+CARD\s+TRANSACTION$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/)[1])).toEqual(['sale-3', 'sale-2', 'sale-1']);
    expect(lines[3]).toContain(localTime(sold.createdAt));
    expect(lines[3]).toMatch(/sale-1\s+confirmed\s+R\$ 1\.234,56\s+credit 3x\s+visa 411111\*{6}1111\s+1{32}$/);
    expect(lines[2]).toMatch(/sale-2\s+declined\s+R\$ 9,90\s+debit\s+elo 636368\*{6}1234\s+2{32}$/);
    expect(lines[1]).toMatch(/sale-3\s+intent\s+R\$ 0,05\s+credit\s+-\s+-$/);
  });

  it('prints {"items", "total"} with --json', async () => {
    const { sold, declined, pending } = fixture();
    const result = await pinbridge('journal', 'list', '--journal', path, '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ items: [pending, declined, sold], total: 3 });
  });

  it('filters by --state (several words or comma-separated) and --terminal, and says how many there are past --limit', async () => {
    fixture();
    const references = async (...args: string[]): Promise<string[]> => {
      const result = await pinbridge('journal', 'list', '--journal', path, '--json', ...args);
      return (JSON.parse(result.stdout) as { items: PaymentRecord[] }).items.map((r) => r.referenceId);
    };
    expect(await references('--state', 'confirmed', 'declined')).toEqual(['sale-2', 'sale-1']);
    expect(await references('--state', 'intent,confirmed')).toEqual(['sale-3', 'sale-1']);
    expect(await references('--terminal', 'PP-0002')).toEqual(['sale-2']);
    expect(await references('--limit', '1')).toEqual(['sale-3']);
    const human = await pinbridge('journal', 'list', '--journal', path, '--limit', '2');
    expect(human.stdout).toMatch(/2 of 3 payments/);
  });

  it("shows only today's payments with --today: since midnight on the store's clock (receipts.time_zone), not the computer's", async () => {
    // The computer runs on UTC (the specs' TZ); the store is in Rio Branco (UTC−5). Whatever the
    // hour the spec runs at, the two midnights are 5 hours apart and one of these is misplaced by the other.
    const midnight = startOfDay(new Date(), 'America/Rio_Branco');
    const at = (time: Date): Journal => Journal.open(path, { now: () => time });
    for (const [reference, time] of [
      ['two-days-ago', new Date(midnight.getTime() - 2 * 86_400_000)],
      ['last-minute-of-yesterday', new Date(midnight.getTime() - 60_000)],
      ['first-minute-of-today', new Date(midnight.getTime() + 1)],
      ['now', new Date()],
    ] as const) {
      const journal = at(time);
      journal.createIntent(newPayment(reference));
      journal.close();
    }
    const settings = join(dir, 'settings.json');
    writeFileSync(
      settings,
      JSON.stringify({
        receipts: { merchant: { name: 'LOJA DO ACRE LTDA', cnpj: '11222333000181' }, time_zone: 'America/Rio_Branco' },
      }),
    );
    const result = await pinbridge('journal', 'list', '--journal', path, '--today', '--settings', settings, '--json');
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as { items: PaymentRecord[] }).items.map((r) => r.referenceId)).toEqual([
      'now',
      'first-minute-of-today',
    ]);
    expect(
      (await pinbridge('journal', 'list', '--journal', path, '--today', '--from', '2026-03-10', '--settings', settings))
        .code,
    ).toBe(2);
  });

  it('finds a past sale by --amount, --nsu, --authorization, --card-last4 and a --from/--to range', async () => {
    fixture();
    const references = async (...args: string[]): Promise<string[]> => {
      const result = await pinbridge('journal', 'list', '--journal', path, '--json', ...args);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { items: PaymentRecord[] }).items.map((r) => r.referenceId);
    };
    expect(await references('--amount', '990')).toEqual(['sale-2']);
    expect(await references('--amount', '991')).toEqual([]);
    expect(await references('--nsu', '000123')).toEqual(['sale-1']);
    expect(await references('--nsu', '123')).toEqual([]);
    expect(await references('--authorization', 'a1b2c3')).toEqual(['sale-1']);
    expect(await references('--card-last4', '1234')).toEqual(['sale-2']);
    expect(await references('--card-last4', '1111', '--amount', '123456')).toEqual(['sale-1']);
    expect(await references('--from', '2026-03-10T12:30:00Z', '--to', '2026-03-10T13:30:00Z')).toEqual(['sale-2']);
    expect((await pinbridge('journal', 'list', '--journal', path, '--amount', '12,34')).stderr).toMatch(
      /"12,34" is not a positive whole number/,
    );
  });

  it('exits 2 for search filters a sale cannot have, naming the rule', async () => {
    fixture();
    for (const [args, said] of [
      [['--card-last4', '12a4'], /"12a4" is not the last 4 digits of a card \(exactly 4 digits\)/],
      [['--card-last4', '12345'], /exactly 4 digits/],
      [['--nsu', '12 34'], /"12 34" is not an NSU/],
      [['--authorization', 'AB-12'], /"AB-12" is not an authorization code/],
      [['--amount', '0'], /"0" is not a positive whole number/],
      [['--from', 'yesterday'], /"yesterday" is not a date or time/],
    ] as const) {
      const result = await pinbridge('journal', 'list', '--journal', path, ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(said);
    }
  });

  it('says so when there are no payments', async () => {
    Journal.open(path).close();
    expect((await pinbridge('journal', 'list', '--journal', path)).stdout).toBe('No payments.\n');
  });

  it('exits 2 for a state that does not exist or a limit over 1000', async () => {
    fixture();
    const state = await pinbridge('journal', 'list', '--journal', path, '--state', 'paid', '--json');
    expect(state.code).toBe(2);
    expect(state.stderr).toMatch(/"paid" is not a payment state/);
    expect(JSON.parse(state.stdout)).toMatchObject({ error: { code: 'USAGE' } });
    expect((await pinbridge('journal', 'list', '--journal', path, '--limit', '5000')).code).toBe(2);
  });

  it('lists the other payments when one row is damaged, naming the damaged one on stderr', async () => {
    const { declined } = fixture();
    const db = new Database(path);
    db.prepare('UPDATE payments SET problem_json = ? WHERE id = ?').run('{not json', declined.id);
    db.close();
    const result = await pinbridge('journal', 'list', '--journal', path, '--json');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { items: PaymentRecord[] }).items.map((r) => r.referenceId)).toEqual([
      'sale-3',
      'sale-1',
    ]);
    expect(result.stderr).toContain(declined.id);
  });
});

describe('pinbridge journal show', () => {
  it('finds a payment by reference and prints its fields and its history', async () => {
    const { sold } = fixture();
    const result = await pinbridge('journal', 'show', 'sale-1', '--journal', path);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Payment\s+[0-9a-f]{32}$/m);
    expect(result.stdout).toMatch(/^State\s+confirmed$/m);
    expect(result.stdout).toMatch(/^Amount\s+R\$ 1\.234,56$/m);
    expect(result.stdout).toMatch(/^Card\s+visa 411111\*{6}1111 \(chip\)$/m);
    expect(result.stdout).toMatch(/^Authorization\s+A1B2C3 NSU 000123 \(00 approved\)$/m);
    const history = result.stdout.split('History:\n')[1]!.trimEnd().split('\n');
    expect(history).toHaveLength(8);
    expect(history[0]).toMatch(new RegExp(`^\\s+1  ${localTime(sold.createdAt, true)}  intent  payment intent$`));
    expect(history[2]).toMatch(/3 {2}.* {2}created → card_read {2}card read$/);
    expect(history[7]).toMatch(/8 {2}.* {2}awaiting_confirmation → confirmed {2}confirmed by policy$/);
  });

  it('finds a payment by its journal id and prints {"payment", "events"} with --json', async () => {
    const { declined } = fixture();
    const result = await pinbridge('journal', 'show', declined.id, '--journal', path, '--json');
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.stdout) as { payment: PaymentRecord; events: JournalEvent[] };
    expect(shown.payment).toEqual(declined);
    expect(shown.events.map((e) => e.to)).toEqual(['intent', 'created', 'card_read', 'authorizing', 'declined']);
  });

  it('exits 2 when no payment has that reference or id', async () => {
    fixture();
    const result = await pinbridge('journal', 'show', 'sale-404', '--journal', path);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no payment with reference or id "sale-404"/);
  });
});

describe('pinbridge journal export', () => {
  it('writes one JSON line per payment, oldest first, each with its history', async () => {
    const { sold, declined, pending } = fixture();
    const result = await pinbridge('journal', 'export', '--journal', path);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as PaymentRecord & { events: JournalEvent[] });
    expect(lines.map(({ events: _events, ...record }) => record)).toEqual([sold, declined, pending]);
    expect(lines.map((line) => line.events.length)).toEqual([8, 5, 1]);
  });

  it('keeps to the --from / --to range of creation times', async () => {
    fixture();
    const result = await pinbridge(
      'journal',
      'export',
      '--journal',
      path,
      '--from',
      '2026-03-10T12:30:00Z',
      '--to',
      '2026-03-10T13:30:00Z',
    );
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as PaymentRecord).referenceId),
    ).toEqual(['sale-2']);
  });

  it('writes CSV with a header, quoting commas and quotes, and defusing spreadsheet formulas', async () => {
    const { sold } = fixture();
    const result = await pinbridge('journal', 'export', '--journal', path, '--format', 'csv');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\r\n');
    expect(lines[0]).toBe(
      'id,referenceId,createdAt,updatedAt,finishedAt,state,amount,paymentType,installments,terminal,source,confirmation,transactionId,' +
        'cardBrand,maskedPan,entryMode,authorizationCode,nsu,responseCode,problemCode,problemMessage,customerTaxId,description',
    );
    expect(lines[1]).toBe(
      `${sold.id},sale-1,${sold.createdAt},${sold.updatedAt},${sold.finishedAt},confirmed,123456,credit,3,PP-0001,pos,auto,${'1'.repeat(32)},` +
        'visa,411111******1111,chip,A1B2C3,000123,00,,,,Venda balcão',
    );
    expect(lines[2]).toMatch(/,"Café, ""expresso"""$/);
    expect(lines[3]).toMatch(/,"'=HYPERLINK\(""x""\)"$/);
    expect(lines[4]).toBe('');
  });

  it('writes to --out and says how many payments it wrote', async () => {
    fixture();
    const out = join(dir, 'export.jsonl');
    const result = await pinbridge('journal', 'export', '--journal', path, '--out', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`3 payments written to ${out}\n`);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(3);
  });

  it('exits 2 for an unknown --format or a time it cannot read', async () => {
    fixture();
    expect((await pinbridge('journal', 'export', '--journal', path, '--format', 'xml')).code).toBe(2);
    const time = await pinbridge('journal', 'export', '--journal', path, '--from', 'yesterday-ish');
    expect(time.code).toBe(2);
    expect(time.stderr).toMatch(/"yesterday-ish" is not a date or time/);
  });
});

describe('a missing journal', () => {
  it.each([['list'], ['show', 'sale-1'], ['export']])(
    'is a clear error (exit 2) for "journal %s", and no file is created',
    async (...words) => {
      const missing = join(dir, 'nowhere', 'journal.db');
      const result = await pinbridge('journal', ...words, '--journal', missing);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `pinbridge: there is no journal at ${missing}; name the file with --journal <path> (or --training for training mode's)\n`,
      );
      expect(existsSync(join(dir, 'nowhere'))).toBe(false);
    },
  );

  it('is looked for at ~/.pinbridge/journal.db by default, and not created there either', async () => {
    const home = process.env.HOME;
    process.env.HOME = dir;
    try {
      expect(defaultJournalPath()).toBe(join(dir, '.pinbridge', 'journal.db'));
      const result = await pinbridge('journal', 'list');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(join(dir, '.pinbridge', 'journal.db'));
      expect(existsSync(join(dir, '.pinbridge'))).toBe(false);
    } finally {
      if (home === undefined) delete process.env.HOME;
      else process.env.HOME = home;
    }
  });

  it("reads training mode's journal (~/.pinbridge/training/journal.db) with --training", async () => {
    const training = join(dir, '.pinbridge', 'training', 'journal.db');
    mkdirSync(dirname(training), { recursive: true });
    const journal = Journal.open(training);
    journal.createIntent(newPayment('practice-1'));
    journal.close();
    const result = await runMain(['journal', 'list', '--training', '--json'], { HOME: dir });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { items: PaymentRecord[] }).items.map((p) => p.referenceId)).toEqual([
      'practice-1',
    ]);
    const both = await runMain(['journal', 'list', '--training', '--journal', path], { HOME: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exclude each other/);
  });
});

describe('money and times for people', () => {
  it('writes centavos as reais with a comma and thousands dots', () => {
    expect(formatBrl(5)).toBe('R$ 0,05');
    expect(formatBrl(990)).toBe('R$ 9,90');
    expect(formatBrl(123_456)).toBe('R$ 1.234,56');
    expect(formatBrl(100_000_000)).toBe('R$ 1.000.000,00');
  });

  it('writes ISO times as the local wall clock', () => {
    const at = new Date(2026, 2, 10, 9, 5, 7);
    expect(localTime(at.toISOString())).toBe('2026-03-10 09:05:07');
    expect(localTime(new Date(at.getTime() + 42).toISOString(), true)).toBe('2026-03-10 09:05:07.042');
  });
});

describe('pinbridge journal --help', () => {
  it.each([['list'], ['show'], ['export']])('documents "journal %s" and its --journal option', async (word) => {
    const result = await pinbridge('journal', word, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: pinbridge journal/);
    expect(result.stdout).toContain('--journal <path>');
  });
});
