/**
 * `pinbridge pay`: one payment from the terminal, run in-process through the CLI's `main()`
 * with the simulated PINPAD (`--port sim`) and the embedded sandbox, the journal in a temp HOME.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/cli.js';
import { Journal } from '../../../main/core/journal/journal.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-pay-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

type Result = Awaited<ReturnType<typeof runMain>>;

const pinbridge = (...args: string[]): Promise<Result> => runMain(args, { HOME: home, PINBRIDGE_LOG_LEVEL: 'silent' });

const json = (result: Result): Record<string, unknown> => JSON.parse(result.stdout.trim()) as Record<string, unknown>;

describe('pinbridge pay', () => {
  it('runs an approved payment and prints the result keys as JSON (exit 0)', async () => {
    const result = await pinbridge(
      'pay',
      '--port',
      'sim',
      '--amount',
      '1990',
      '--type',
      'credit',
      '--installments',
      '2',
      '--reference',
      'pdv-1',
      '--json',
    );
    expect(result.code).toBe(0);
    const out = json(result);
    expect(Object.keys(out).sort()).toEqual(
      [
        'amount',
        'authorization_code',
        'card',
        'installments',
        'nsu',
        'reference_id',
        'status',
        'transaction_id',
      ].sort(),
    );
    expect(out).toMatchObject({
      status: 'approved',
      reference_id: 'pdv-1',
      amount: 1990,
      installments: 2,
      card: { brand: 'visa', masked_pan: '411111******1111', entry_mode: 'chip' },
    });
    // Training mode keeps its journal beside the embedded sandbox's data.
    const journalPath = join(home, '.pinbridge', 'training', 'journal.db');
    expect(existsSync(journalPath)).toBe(true);
    const journal = Journal.open(journalPath);
    expect(journal.findByReference('pdv-1')?.state).toBe('confirmed');
    journal.close();
  });

  it('returns the same payment for the same reference run again, without charging twice', async () => {
    const first = json(
      await pinbridge(
        'pay',
        '--port',
        'sim',
        '--amount',
        '2500',
        '--type',
        'debit',
        '--card',
        'visaDebit',
        '--reference',
        'pdv-2',
        '--json',
      ),
    );
    const second = json(
      await pinbridge(
        'pay',
        '--port',
        'sim',
        '--amount',
        '2500',
        '--type',
        'debit',
        '--card',
        'visaDebit',
        '--reference',
        'pdv-2',
        '--json',
      ),
    );
    expect(second).toEqual(first);
    const conflict = await pinbridge(
      'pay',
      '--port',
      'sim',
      '--amount',
      '2600',
      '--type',
      'debit',
      '--reference',
      'pdv-2',
      '--json',
    );
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(/pdv-2/);
  });

  it('exits 1 with the reason when the payment ends without a sale', async () => {
    const declined = await pinbridge(
      'pay',
      '--port',
      'sim',
      '--amount',
      '10051',
      '--type',
      'credit',
      '--installments',
      '1',
      '--json',
    );
    expect(declined.code).toBe(1);
    expect(json(declined)).toMatchObject({ status: 'declined', problem: { code: 'CARD_DECLINED' } });
    const refused = await pinbridge(
      'pay',
      '--port',
      'sim',
      '--amount',
      '5000',
      '--type',
      'credit',
      '--installments',
      '1',
      '--card',
      'visaRefuseAfterOnline',
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/DECLINED/);
    expect(refused.stderr).toMatch(/Autorizando/);
  });

  it('follows the PINPAD like a customer: swipes after a chip failure (fallback, 801) and taps a magstripe-only contactless card (911)', async () => {
    for (const [card, pan] of [
      ['visaChipFallback', '444433******1111'],
      ['visaMuteChip', '401200******0026'],
      ['mastercardChipError', '545454******5454'],
    ] as const) {
      const result = await pinbridge(
        'pay',
        '--port',
        'sim',
        '--amount',
        '1990',
        '--type',
        'credit',
        '--card',
        card,
        '--json',
      );
      expect(result.code).toBe(0);
      expect(json(result)).toMatchObject({
        status: 'approved',
        card: { masked_pan: pan, entry_mode: 'magstripe_fallback' },
      });
    }
    const tapped = await pinbridge(
      'pay',
      '--port',
      'sim',
      '--amount',
      '1990',
      '--type',
      'credit',
      '--card',
      'mastercardContactlessMagstripe',
      '--json',
    );
    expect(tapped.code).toBe(0);
    expect(json(tapped)).toMatchObject({
      status: 'approved',
      card: { brand: 'mastercard', masked_pan: '222300******3222', entry_mode: 'contactless_magstripe' },
    });
  });

  it('refuses bad input with exit code 2 and one sentence', async () => {
    for (const args of [
      ['--amount', '0', '--type', 'credit'],
      ['--amount', '100', '--type', 'pix'],
      ['--amount', '100', '--type', 'debit', '--installments', '2'],
      ['--amount', '100', '--type', 'credit', '--notification', 'x'.repeat(33)],
      ['--amount', '100', '--type', 'credit', '--api', 'http://127.0.0.1:1'],
      ['--amount', '100', '--type', 'credit', '--card', 'nope'],
    ]) {
      const result = await pinbridge('pay', '--port', 'sim', ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^pinbridge: /);
    }
  });

  it('takes its payment settings from ~/.pinbridge/settings.json, or from --settings', async () => {
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(
      join(home, '.pinbridge', 'settings.json'),
      JSON.stringify({ confirmation: 'pos', timeouts: { api_ms: 10_000 } }),
    );
    const waiting = await pinbridge(
      'pay',
      '--port',
      'sim',
      '--amount',
      '1990',
      '--type',
      'credit',
      '--installments',
      '1',
      '--reference',
      'pdv-s1',
      '--json',
    );
    expect(waiting.code).toBe(0);
    const journal = Journal.open(join(home, '.pinbridge', 'training', 'journal.db'));
    // The pos policy: the approval waits for the POS instead of being confirmed at once.
    expect(journal.findByReference('pdv-s1')?.state).toBe('awaiting_confirmation');
    journal.close();

    const bad = join(home, 'bad-settings.json');
    writeFileSync(bad, JSON.stringify({ timeouts: { card_ms: 'soon' } }));
    const refused = await pinbridge('pay', '--port', 'sim', '--amount', '1990', '--type', 'credit', '--settings', bad);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^pinbridge: Invalid settings in .*bad-settings\.json: timeouts\.card_ms: /);
    writeFileSync(bad, '{ not json');
    expect(
      (await pinbridge('pay', '--port', 'sim', '--amount', '1990', '--type', 'credit', '--settings', bad)).stderr,
    ).toMatch(/not valid JSON/);
    expect(
      (
        await pinbridge(
          'pay',
          '--port',
          'sim',
          '--amount',
          '1990',
          '--type',
          'credit',
          '--settings',
          join(home, 'none.json'),
        )
      ).stderr,
    ).toMatch(/does not exist/);
  });
});
