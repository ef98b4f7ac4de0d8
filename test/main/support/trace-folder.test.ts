/**
 * The agent's own PINPAD traces (~/.pinbridge/traces/): a connection to the simulated PINPAD with
 * a raw card read (the PAN and name in clear on the wire) and a CPF typed on the keypad is written
 * as a trace file with neither in it — not in the text, not in the packets' hex read back —; each
 * file keeps the newest events only and the folder the newest files; attempts that never reached
 * the PINPAD share one file; a folder that cannot be written costs the file only, is told once and
 * is written again once it can; the support bundle takes the newest trace by itself.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gcxCommand } from '../../../drivers/abecs/commands/gcx.js';
import { Pinpad, localDateTime } from '../../../drivers/abecs/pinpad.js';
import { parseTrace } from '../../../drivers/abecs/trace/format.js';
import { PinpadSimulator, TEST_CARDS, startMemorySimulator } from '../../../drivers/simulator/index.js';
import { scanBundleText } from '../../../main/support/bundle.js';
import { collectSupportFiles } from '../../../main/support/collect.js';
import { newestTrace, TraceFolder, tracePinpadOf, type TraceSession } from '../../../main/support/trace-folder.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';

const CARD = TEST_CARDS.visaCredit;
const CPF = '52998224725';

const servedSims: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const served of servedSims.splice(0)) await served.close();
});

/** A connection as the agent's keeper makes it: the PINPAD opened on the session's transport. */
async function connect(session: TraceSession): Promise<Pinpad> {
  const sim = new PinpadSimulator({
    profile: 'strict',
    autoCustomer: { delayMs: 5, card: 'visaCredit', cpf: CPF },
    timeScale: 0.05,
  });
  const served = await startMemorySimulator(sim);
  servedSims.push(served);
  const pinpad = new Pinpad(session.wrap(served.link.host), { timings: { silenceMs: 20 } });
  await pinpad.open();
  return pinpad;
}

/** Identification, a raw GCX (the PAN and the name in clear), a CPF typed at the keypad. */
async function sensitiveSession(session: TraceSession): Promise<{ pan: string | undefined; cpf: string }> {
  const pinpad = await connect(session);
  session.identified(tracePinpadOf(await pinpad.info()));
  const raw = await pinpad.execute(
    gcxCommand,
    { ...localDateTime(new Date()), amount: 1000, appTypes: [1], timeout: 5, tagList: ['9F26', '95'] },
    { timeoutMs: 10_000 },
  );
  const cpf = await pinpad.readCustomerData('cpf', { timeoutSeconds: 5 });
  await pinpad.close();
  return { pan: raw.pan, cpf };
}

const tempDir = (name: string): string => mkdtempSync(join(artifactsDir(), `${name}-`));
const traceFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.trace.jsonl'))
    .sort();
const hexOfPackets = (text: string): string =>
  [...text.matchAll(/"data":"([0-9a-f]+)"/g)]
    .map((match) => Buffer.from(match[1]!, 'hex').toString('latin1'))
    .join('\n');

describe("the agent's PINPAD traces", () => {
  it('writes a connection as a trace with no card number, name or CPF in it, the PINPAD named in the header', async () => {
    const dir = join(tempDir('traces'), 'traces');
    const folder = new TraceFolder(dir, { writeDelayMs: 10 });
    const session = folder.open('sim');
    const seen = await sensitiveSession(session);
    await session.close();
    // The wire carried them in clear.
    expect(seen).toEqual({ pan: CARD.pan, cpf: CPF });

    const files = traceFiles(dir);
    expect(files).toHaveLength(1);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    const trace = parseTrace(text);
    expect(trace.header).toMatchObject({ address: 'sim', pinpad: { serial_number: 'SIM0000000000220' } });
    expect(trace.events.filter((event) => event.kind === 'packet').map((event) => event.id)).toEqual(
      expect.arrayContaining(['OPN', 'GIX', 'GCX', 'GCD', 'CLO']),
    );
    const packets = hexOfPackets(text);
    expect(packets).toContain('411111******1111');
    for (const secret of [CARD.pan, CARD.cardholderName, CPF]) {
      expect(text).not.toContain(secret);
      expect(packets).not.toContain(secret);
    }
    expect(scanBundleText(text, `pinpad-trace/${files[0]}`)).toEqual([]);
  });

  it('writes while the connection lasts, at most one write a delay after the packets', async () => {
    const dir = join(tempDir('traces-live'), 'traces');
    const folder = new TraceFolder(dir, { writeDelayMs: 20 });
    const session = folder.open('sim');
    const pinpad = await connect(session);
    await pinpad.info();
    await expect.poll(() => traceFiles(dir).length).toBe(1);
    const before = parseTrace(readFileSync(join(dir, traceFiles(dir)[0]!), 'utf8')).events.length;
    await pinpad.display('LINHA 1');
    // flush(): what the support bundle asks for before reading the folder.
    await folder.flush();
    expect(parseTrace(readFileSync(join(dir, traceFiles(dir)[0]!), 'utf8')).events.length).toBeGreaterThan(before);
    await pinpad.close();
    await session.close();
  });

  it('keeps the newest events of a file, counting the dropped ones, and the newest files of the folder', async () => {
    const dir = join(tempDir('traces-bounded'), 'traces');
    let clock = Date.parse('2026-11-29T09:00:00Z');
    const folder = new TraceFolder(dir, {
      keep: 3,
      limit: { events: 40 },
      writeDelayMs: 10,
      now: () => new Date((clock += 1_000)),
    });
    for (let connection = 0; connection < 5; connection++) {
      const session = folder.open('sim');
      const pinpad = await connect(session);
      session.identified(tracePinpadOf(await pinpad.info()));
      for (let line = 0; line < 10; line++) await pinpad.display(`VENDA ${connection} ${line}`);
      await pinpad.close();
      await session.close();
    }
    const files = traceFiles(dir);
    expect(files).toEqual([
      'pinpad-2026-11-29T09-00-03-000Z.trace.jsonl',
      'pinpad-2026-11-29T09-00-04-000Z.trace.jsonl',
      'pinpad-2026-11-29T09-00-05-000Z.trace.jsonl',
    ]);
    const last = parseTrace(readFileSync(join(dir, files[2]!), 'utf8'));
    expect(last.events.length).toBeLessThanOrEqual(40);
    expect(last.header.events_dropped).toBeGreaterThan(0);
    // The newest survive: the last display and the close.
    expect(last.events.at(-1)).toMatchObject({ dir: 'pinpad', kind: 'packet', id: 'CLO' });
    expect(newestTrace(dir)).toBe(join(dir, files[2]!));
  });

  it('gives attempts that never reached the PINPAD one file, so they do not push the last good session out', async () => {
    const dir = join(tempDir('traces-failing'), 'traces');
    let clock = Date.parse('2026-11-29T10:00:00Z');
    const folder = new TraceFolder(dir, { keep: 2, writeDelayMs: 10, now: () => new Date((clock += 1_000)) });
    const good = folder.open('sim');
    const pinpad = await connect(good);
    good.identified(tracePinpadOf(await pinpad.info()));
    await pinpad.close();
    await good.close();
    for (let attempt = 0; attempt < 4; attempt++) {
      const failed = folder.open('sim');
      // Opened, and gone before its identification (the agent's keeper: "did not answer").
      await (await connect(failed)).close();
      await failed.close();
    }
    const files = traceFiles(dir);
    expect(files).toHaveLength(2);
    expect(files[0]).toBe('pinpad-2026-11-29T10-00-01-000Z.trace.jsonl');
    expect(parseTrace(readFileSync(join(dir, files[0]!), 'utf8')).header.pinpad).toBeDefined();
    expect(parseTrace(readFileSync(join(dir, files[1]!), 'utf8')).header.pinpad).toBeUndefined();
  });

  it('survives a folder it cannot write: told once, the PINPAD unaffected, written again once it can', async () => {
    const root = tempDir('traces-unwritable');
    const dir = join(root, 'traces');
    // A file where the folder should be: every write fails (ENOTDIR/EEXIST), as on a broken disk.
    writeFileSync(dir, 'not a folder');
    const problems: (string | null)[] = [];
    // Held while the spec swaps the file for nothing, so no write is half-way through the swap.
    let held = false;
    const folder = new TraceFolder(dir, {
      writeDelayMs: 5,
      writable: () => !held,
      problem: (error) => problems.push(error === null ? null : (error.code ?? 'EIO')),
    });
    const session = folder.open('sim');
    const pinpad = await connect(session);
    session.identified(tracePinpadOf(await pinpad.info()));
    for (let line = 0; line < 3; line++) {
      await pinpad.display(`LINHA ${line}`);
      await folder.flush();
    }
    // The PINPAD went on; the failure was told once, not at every write.
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^E[A-Z]+$/);
    // The support bundle still has the connection, from memory.
    const current = folder.current();
    expect(current?.name).toMatch(/^pinpad-.*\.trace\.jsonl$/);
    expect(parseTrace(current!.text).events.filter((event) => event.id === 'DEX' || event.id === 'DSP').length).toBe(6);

    // The disk mends: no write starts, the one under way ends, the file goes, writes go on.
    held = true;
    await folder.flush();
    rmSync(dir);
    held = false;
    await pinpad.display('DE VOLTA');
    await folder.flush();
    expect(problems).toEqual([problems[0], null]);
    const trace = parseTrace(readFileSync(join(dir, traceFiles(dir)[0]!), 'utf8'));
    // Nothing recorded while the disk failed was lost: it waited in memory.
    expect(trace.events.filter((event) => event.id === 'DEX' || event.id === 'DSP').length).toBeGreaterThanOrEqual(8);
    await pinpad.close();
    await session.close();
    expect(folder.current()).toBeUndefined();
  });

  it('writes nothing while the disk is short for the journal', async () => {
    const dir = join(tempDir('traces-short'), 'traces');
    let short = true;
    const folder = new TraceFolder(dir, { writeDelayMs: 5, writable: () => !short });
    const session = folder.open('sim');
    const pinpad = await connect(session);
    session.identified(tracePinpadOf(await pinpad.info()));
    await folder.flush();
    expect(() => readdirSync(dir)).toThrow();
    short = false;
    await folder.flush();
    expect(traceFiles(dir)).toHaveLength(1);
    await pinpad.close();
    await session.close();
  });

  it('is where the support bundle finds its trace by itself: the most recently written one', () => {
    const home = tempDir('traces-home');
    const dir = join(home, '.pinbridge', 'traces');
    mkdirSync(dir, { recursive: true });
    const header = (serial: string): string =>
      `${JSON.stringify({ format: 'pinbridge-abecs-trace', version: 1, address: 'sim', started: '2026-11-29T09:00:00.000Z', pinpad: { serial_number: serial } })}\n`;
    writeFileSync(join(dir, 'pinpad-2026-11-29T09-00-00-000Z.trace.jsonl'), header('OLDER'));
    writeFileSync(join(dir, 'pinpad-2026-11-29T08-00-00-000Z.trace.jsonl'), header('REWRITTEN-LAST'));
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(dir, 'pinpad-2026-11-29T09-00-00-000Z.trace.jsonl'), past, past);
    const files = collectSupportFiles({ home, settingsPath: join(home, 'none.json') });
    const traces = files.filter((file) => file.name.startsWith('pinpad-trace/'));
    expect(traces.map((file) => file.name)).toEqual(['pinpad-trace/pinpad-2026-11-29T08-00-00-000Z.trace.jsonl']);
    const versions = JSON.parse(files.find((file) => file.name === 'versions.json')!.text) as { pinpad: unknown };
    expect(versions.pinpad).toEqual({ serial_number: 'REWRITTEN-LAST' });

    rmSync(dir, { recursive: true });
    const without = collectSupportFiles({ home, settingsPath: join(home, 'none.json') });
    expect(without.some((file) => file.name.startsWith('pinpad-trace/'))).toBe(false);
    const notes = (JSON.parse(without.find((file) => file.name === 'versions.json')!.text) as { notes: string[] })
      .notes;
    expect(notes).toContain(`no PINPAD trace: none given and none kept in ${dir}`);
  });
});
