/**
 * `pinbridge pinpad trace`, `pinbridge simulator --replay` and the `sim:replay:<file>` address,
 * run in-process through `main()`: a session recorded from a simulated PINPAD on a pty (with a
 * card read), identified and read again from the file, and the errors for bad input.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTraceFile } from '../../../drivers/abecs/trace/format.js';
import { PinpadSimulator, TEST_CARDS, startPtySimulator, type PtySimulator } from '../../../drivers/simulator/index.js';
import { simulatorProfileOf, simulatorReplayFileOf } from '../../../main/pinpad/connection.js';
import { artifactsDir, scanText } from '../../helpers/card-data-scan.js';
import { runMain } from '../../helpers/cli.js';

let pty: PtySimulator;
let dir: string;

beforeAll(async () => {
  dir = join(artifactsDir(), `cli-trace-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const sim = new PinpadSimulator({
    profile: 'strict',
    autoCustomer: { delayMs: 5, card: 'visaCredit' },
    timeScale: 0.05,
  });
  pty = await startPtySimulator(sim);
});

afterAll(async () => {
  await pty.close();
});

describe('pinbridge pinpad trace', () => {
  it(
    'records the identification and a card read from a PINPAD on a serial port, masked',
    { timeout: 30_000 },
    async () => {
      const file = join(dir, 'sale.jsonl');
      const result = await runMain(['pinpad', 'trace', '--port', pty.path, '--out', file, '--sale', '1000', '--json']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout) as {
        file: string;
        packets: number;
        sale: Record<string, unknown>;
        pinpad: Record<string, unknown>;
      };
      expect(output).toMatchObject({
        file,
        pinpad: { model: 'PBSIM-220', serial_number: 'SIM0000000000220' },
        sale: { amount: 1000, ok: true, entry_mode: 'chip', brand: 'visa' },
      });
      const trace = await readTraceFile(file);
      expect(output.packets).toBe(trace.events.filter((e) => e.kind === 'packet').length);
      expect(trace.header).toMatchObject({ address: pty.path, pinpad: { manufacturer: 'PINBRIDGE SIM' } });
      const commands = trace.events.filter((e) => e.dir === 'host' && e.kind === 'packet').map((e) => e.id);
      expect(commands).toEqual(['OPN', 'GIX', 'DSP', 'GCX', 'GTK', 'GOX', 'RMC', 'CLO']);
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(Buffer.from(TEST_CARDS.visaCredit.pan).toString('hex'));
      expect(text).not.toContain(Buffer.from(TEST_CARDS.visaCredit.cardholderName).toString('hex'));
      expect(scanText(text, [], file)).toEqual([]);

      // The human line says where and how many.
      const human = await runMain([
        'pinpad',
        'trace',
        '--port',
        `sim:replay:${file}`,
        '--out',
        join(dir, 'again.jsonl'),
        '--sale',
        '1000',
      ]);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(
        /^Recorded \d+ packets to .*again\.jsonl; card read for R\$ 10,00: visa chip \(nothing was authorized\)\.\n$/,
      );
    },
  );

  it('identifies the recorded PINPAD from the file with --port sim:replay:<file>', { timeout: 20_000 }, async () => {
    const file = join(dir, 'info.jsonl');
    expect((await runMain(['pinpad', 'trace', '--port', 'sim:ppc930', '--out', file])).code).toBe(0);
    const info = await runMain(['pinpad', 'info', '--port', `sim:replay:${file}`, '--json']);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ manufacturer: 'GERTEC', model: 'PPC-930', spec_version: '2.12' });
    expect(simulatorReplayFileOf(` sim:replay:${file}`)).toBe(file);
    expect(simulatorProfileOf(`SIM:REPLAY:${file}`)).toBe('replay');
    expect(simulatorReplayFileOf('sim:strict')).toBeUndefined();
  });

  it('exits 2 with a clear sentence for bad arguments', async () => {
    const sale = await runMain(['pinpad', 'trace', '--port', 'sim', '--out', join(dir, 'x.jsonl'), '--sale', '10,00']);
    expect(sale.code).toBe(2);
    expect(sale.stderr).toMatch(/"10,00" is not an amount in centavos/);
    const out = await runMain(['pinpad', 'trace', '--port', 'sim', '--out', join(dir, 'missing', 'x.jsonl')]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      /cannot write the trace to .*x\.jsonl: the folder .*missing does not exist or is not writable/,
    );
    const debit = await runMain(['pinpad', 'trace', '--port', 'sim', '--out', join(dir, 'x.jsonl'), '--debit']);
    expect(debit.code).toBe(2);
    expect((await runMain(['pinpad', 'trace', '--port', 'sim'])).code).toBe(2);
  });

  it('says in its help that nothing is authorized', async () => {
    const help = await runMain(['pinpad', 'trace', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Nothing is authorized or\s+charged/);
    expect(help.stdout).toContain('--sale <centavos>');
  });
});

describe('a replayed sale, re-sealed with a test card (simulator --reseal)', () => {
  it(
    'is refused by the provider as recorded (zeroed card data) and authorized once re-sealed',
    { timeout: 60_000 },
    async () => {
      const file = join(dir, 'reseal.jsonl');
      expect((await runMain(['pinpad', 'trace', '--port', pty.path, '--out', file, '--sale', '1990'])).code).toBe(0);
      const trace = await readTraceFile(file);
      const home = join(dir, `home-${Date.now()}`);
      mkdirSync(home, { recursive: true });
      const pay = async (resealCard?: string): Promise<Record<string, unknown>> => {
        const replay = await startPtySimulator(
          new PinpadSimulator({ replay: trace, timeScale: 0.01, ...(resealCard ? { resealCard } : {}) }),
        );
        try {
          const args = ['pay', '--port', replay.path, '--amount', '1990', '--type', 'credit', '--installments', '1'];
          const result = await runMain([...args, '--json'], { HOME: home, PINBRIDGE_LOG_LEVEL: 'silent' });
          return JSON.parse(result.stdout) as Record<string, unknown>;
        } finally {
          await replay.close();
        }
      };
      expect(await pay()).toMatchObject({
        status: 'failed',
        problem: {
          code: 'API_REJECTED',
          message: expect.stringMatching(/encrypted_card_data does not open/) as string,
        },
      });
      expect(await pay('visaCredit')).toMatchObject({
        status: 'approved',
        card: { brand: 'visa', masked_pan: '411111******1111', entry_mode: 'chip' },
      });
    },
  );

  it('is refused with exit 2 without --replay or for an unknown card', async () => {
    const alone = await runMain(['simulator', '--pty', '--reseal', 'visaCredit']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--reseal re-seals a replayed session: add --replay <file>/);
    const unknown = await runMain(['simulator', '--pty', '--replay', join(dir, 'x.jsonl'), '--reseal', 'amex']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/there is no test card named "amex"/);
    expect((await runMain(['simulator', '--help'])).stdout).toContain('--reseal <card>');
  });
});

describe('a trace that does not parse', () => {
  it('is refused with exit 2 by sim:replay:<file> and by simulator --replay', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"format":"pinbridge-abecs-trace","version":1,"address":"x","started":"2025-01-01T00:00:00Z"}\nnot json\n',
    );
    const info = await runMain(['pinpad', 'info', '--port', `sim:replay:${bad}`, '--json']);
    expect(info.code).toBe(2);
    expect(JSON.parse(info.stdout)).toMatchObject({
      error: { code: 'INVALID_TRACE', message: expect.stringMatching(/line 2, is not JSON/) as string },
    });
    const sim = await runMain(['simulator', '--pty', '--replay', bad]);
    expect(sim.code).toBe(2);
    expect(sim.stderr).toMatch(/The trace .*bad\.jsonl, line 2, is not JSON/);
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, '{"hello":"world"}\n');
    expect((await runMain(['simulator', '--pty', '--replay', other])).stderr).toMatch(
      /is not a Pinbridge ABECS trace header/,
    );
    const missing = await runMain(['pinpad', 'info', '--port', `sim:replay:${join(dir, 'nope.jsonl')}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/there is no such file/);
  });

  it('is listed in simulator --help', async () => {
    const help = await runMain(['simulator', '--help']);
    expect(help.stdout).toContain('--replay <file>');
  });
});
