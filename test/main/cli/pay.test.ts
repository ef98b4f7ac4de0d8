/**
 * `pinbridge pay`: one payment from the terminal, run in-process through the CLI's `main()`
 * with the simulated PINPAD (`--port sim`), the journal in a temp HOME — on the embedded sandbox
 * (training mode, said in the output), or on the payments API a store's settings name: here a
 * sandbox started by the test the way a provider is set up (HTTP Basic as Zoop, or mutual TLS as
 * GoPag), whose own records show the sale.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/cli.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { createTestPki, readPem } from '../../helpers/test-pki.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-pay-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

type Result = Awaited<ReturnType<typeof runMain>>;

const pinbridge = (...args: string[]): Promise<Result> => runMain(args, { HOME: home, PINBRIDGE_LOG_LEVEL: 'silent' });

/** `pinbridge pay` with more environment (the token, the certificate's passphrase). */
const pinbridgeWith = (env: NodeJS.ProcessEnv, ...args: string[]): Promise<Result> =>
  runMain(args, { HOME: home, PINBRIDGE_LOG_LEVEL: 'silent', ...env });

const sale = (reference: string, amount = 1990): string[] => [
  'pay',
  '--port',
  'sim',
  '--amount',
  String(amount),
  '--type',
  'credit',
  '--installments',
  '1',
  '--reference',
  reference,
];

/** The sandbox's own record of a transaction (what the provider holds), if it has it. */
const heldBy = (sandbox: RunningSandbox, transactionId: unknown): { reference_id: string } | undefined =>
  sandbox.context.db
    .statement('SELECT reference_id FROM transactions WHERE id = ? AND marketplace_id = ?')
    .get(transactionId, sandbox.marketplaceId) as { reference_id: string } | undefined;

const apiSection = (sandbox: RunningSandbox, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  base_url: sandbox.url,
  marketplace_id: sandbox.marketplaceId,
  seller_id: sandbox.sellerId,
  ...extra,
});

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
        'decline_code',
        'installments',
        'issuer_response_code',
        'nsu',
        'reference_id',
        'status',
        'training',
        'transaction_id',
      ].sort(),
    );
    expect(out).toMatchObject({
      training: true,
      decline_code: null,
      issuer_response_code: '00',
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

  it('says training when it runs on the embedded sandbox, in its table and its JSON', async () => {
    const human = await pinbridge(...sale('pdv-t1'));
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^mode +TRAINING \(embedded sandbox: nothing is charged\)$/m);
    expect(json(await pinbridge(...sale('pdv-t2'), '--json'))).toMatchObject({ training: true });
  });

  it('gives a wrong PIN’s decline in codes with --json: decline_code, issuer_response_code and the problem’s code', async () => {
    // The sandbox declines an amount ending in 55 as the issuer's 55, a wrong PIN.
    const declined = await pinbridge(...sale('pdv-pin', 2055), '--json');
    expect(declined.code).toBe(1);
    expect(json(declined)).toMatchObject({
      training: true,
      status: 'declined',
      decline_code: 'incorrect_pin',
      issuer_response_code: '55',
      problem: { code: 'CARD_DECLINED', cashier_message: expect.stringMatching(/Senha inválida/) as unknown },
    });
    const human = await pinbridge(...sale('pdv-pin-2', 2055));
    expect(human.stdout).toMatch(/^problem +CARD_DECLINED$/m);
    expect(human.stdout).toMatch(/^decline +incorrect_pin$/m);
    expect(human.stdout).toMatch(/^issuer code +55$/m);
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

  describe('on the payments API the store’s settings name, without --api', () => {
    let sandbox: RunningSandbox;
    afterEach(async () => {
      await sandbox.close();
    });

    it('sells on the API of --settings with its auth scheme (Basic, as Zoop), not on the embedded sandbox', async () => {
      // A provider that takes the key only as HTTP Basic: a sale reaching it proves the settings' auth_scheme was used.
      sandbox = await startSandbox({ settings: { authScheme: 'basic' } });
      const file = join(home, 'loja.json');
      writeFileSync(file, JSON.stringify({ api: apiSection(sandbox, { auth_scheme: 'basic' }) }));
      const result = await pinbridgeWith(
        { PINBRIDGE_API_TOKEN: sandbox.token },
        ...sale('pdv-api-1'),
        '--settings',
        file,
        '--json',
      );
      expect(result.code, result.stderr).toBe(0);
      const out = json(result);
      expect(out).toMatchObject({ training: false, status: 'approved', reference_id: 'pdv-api-1' });
      expect(heldBy(sandbox, out.transaction_id)).toEqual({ reference_id: 'pdv-api-1' });
      // The live journal, not the training one beside an embedded sandbox.
      expect(existsSync(join(home, '.pinbridge', 'journal.db'))).toBe(true);
      expect(existsSync(join(home, '.pinbridge', 'training'))).toBe(false);

      const human = await pinbridgeWith(
        { PINBRIDGE_API_TOKEN: sandbox.token },
        ...sale('pdv-api-2'),
        '--settings',
        file,
      );
      expect(human.stdout).toMatch(new RegExp(`^mode +live \\(${sandbox.url}\\)$`, 'm'));
      // --training still sells on the embedded sandbox.
      const training = json(
        await pinbridgeWith(
          { PINBRIDGE_API_TOKEN: sandbox.token },
          ...sale('pdv-api-3'),
          '--settings',
          file,
          '--training',
          '--json',
        ),
      );
      expect(training).toMatchObject({ training: true, status: 'approved' });
      expect(heldBy(sandbox, training.transaction_id)).toBeUndefined();
    });

    it('takes ~/.pinbridge/settings.json’s api section with the token kept in ~/.pinbridge/api-token', async () => {
      sandbox = await startSandbox();
      mkdirSync(join(home, '.pinbridge'), { recursive: true });
      writeFileSync(join(home, '.pinbridge', 'settings.json'), JSON.stringify({ api: apiSection(sandbox) }));
      writeFileSync(join(home, '.pinbridge', 'api-token'), `${sandbox.token}\n`, { mode: 0o600 });
      const out = json(await pinbridge(...sale('pdv-home-1'), '--json'));
      expect(out).toMatchObject({ training: false, status: 'approved' });
      expect(heldBy(sandbox, out.transaction_id)).toEqual({ reference_id: 'pdv-home-1' });
    });

    it('presents the settings’ client certificate (a legacy PKCS#12 file) and trusts their CA, on a provider with mutual TLS', async () => {
      const pki = createTestPki();
      try {
        sandbox = await startSandbox({
          tls: { cert: readPem(pki.server.cert), key: readPem(pki.server.key), ca: readPem(pki.caCert) },
        });
        const store = pki.client('loja-pay', sandbox.marketplaceId);
        // Paths relative to the settings file's folder.
        const file = join(pki.dir, 'settings.json');
        writeFileSync(
          file,
          JSON.stringify({
            api: apiSection(sandbox, { client_certificate: { pfx: 'loja-pay-legacy.pfx' }, ca: 'ca.pem' }),
          }),
        );
        const env = { PINBRIDGE_API_TOKEN: sandbox.token, PINBRIDGE_CERT_PASSPHRASE: store.pfxPassphrase };
        const result = await pinbridgeWith(env, ...sale('pdv-mtls'), '--settings', file, '--json');
        expect(result.code, result.stderr).toBe(0);
        const out = json(result);
        expect(out).toMatchObject({ training: false, status: 'approved' });
        expect(heldBy(sandbox, out.transaction_id)).toEqual({ reference_id: 'pdv-mtls' });
      } finally {
        pki.remove();
      }
    });

    it('stops with exit 2 and what to do when the settings name an API but no token is stored', async () => {
      sandbox = await startSandbox();
      const file = join(home, 'loja.json');
      writeFileSync(file, JSON.stringify({ api: apiSection(sandbox) }));
      const result = await pinbridge(...sale('pdv-no-token'), '--settings', file);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/no API token is stored: .*PINBRIDGE_API_TOKEN/);
    });
  });
});
