import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants, existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createPtyPair, type PtyPair } from '../../../drivers/simulator/socat.js';
import { PrinterError } from '../../../drivers/printers/errors.js';
import { statusRequestBytes } from '../../../drivers/printers/status.js';
import {
  createTransport,
  formatPrinterAddress,
  openTransport,
  parsePrinterAddress,
  type PrinterTransport,
} from '../../../drivers/printers/transport.js';
import { AnswerReader } from '../../../drivers/printers/transports/answers.js';
import { CommandTransport } from '../../../drivers/printers/transports/command.js';
import { DeviceFileTransport } from '../../../drivers/printers/transports/device.js';
import { SerialPrinterTransport } from '../../../drivers/printers/transports/serial.js';
import { TcpPrinterTransport } from '../../../drivers/printers/transports/tcp.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';
import { thrown } from '../../helpers/thrown.js';
import { CLOSED_PORT } from '../../helpers/closed-port.js';

const run = promisify(execFile);
const cleanups: (() => Promise<unknown> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track<T extends PrinterTransport>(transport: T): T {
  cleanups.push(() => transport.close());
  return transport;
}

async function simulator(): Promise<PrinterSimulator> {
  const sim = await PrinterSimulator.listen();
  cleanups.push(() => sim.close());
  return sim;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pinbridge-printer-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function nextEvent(transport: PrinterTransport, event: 'connected' | 'disconnected'): Promise<unknown> {
  return new Promise((resolve) => transport.once(event, (...args: unknown[]) => resolve(args[0])));
}

const EVERY_BYTE = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('parsePrinterAddress', () => {
  it.each([
    ['tcp://192.168.0.50:9100', { kind: 'tcp', host: '192.168.0.50', port: 9100 }],
    ['tcp://printer.local', { kind: 'tcp', host: 'printer.local', port: 9100 }],
    ['TCP://elgin-i9:9101/', { kind: 'tcp', host: 'elgin-i9', port: 9101 }],
    ['tcp://[fe80::1]:9100', { kind: 'tcp', host: 'fe80::1', port: 9100 }],
    ['  tcp://10.0.0.7:9100  ', { kind: 'tcp', host: '10.0.0.7', port: 9100 }],
    ['serial:///dev/ttyUSB0?baud=9600', { kind: 'serial', path: '/dev/ttyUSB0', baudRate: 9600 }],
    ['serial:///dev/ttyUSB0', { kind: 'serial', path: '/dev/ttyUSB0', baudRate: 9600 }],
    ['serial:///dev/ttyS0?baud=115200', { kind: 'serial', path: '/dev/ttyS0', baudRate: 115200 }],
    [
      'serial:/dev/serial/by-id/usb-Elgin_i9-if00',
      { kind: 'serial', path: '/dev/serial/by-id/usb-Elgin_i9-if00', baudRate: 9600 },
    ],
    ['serial:COM3', { kind: 'serial', path: 'COM3', baudRate: 9600 }],
    ['serial://com12?baud=19200', { kind: 'serial', path: 'COM12', baudRate: 19200 }],
    ['serial:\\\\.\\COM12', { kind: 'serial', path: '\\\\.\\COM12', baudRate: 9600 }],
    ['file:///dev/usb/lp0', { kind: 'file', path: '/dev/usb/lp0' }],
    ['file:///var/spool/receipts/', { kind: 'folder', path: '/var/spool/receipts' }],
    ['file://localhost/dev/usb/lp0', { kind: 'file', path: '/dev/usb/lp0' }],
    [
      'file:///var/spool/pinbridge/fila%20caixa%201.bin',
      { kind: 'file', path: '/var/spool/pinbridge/fila caixa 1.bin' },
    ],
    ['file:///C:/spool/recibo.prn', { kind: 'file', path: 'C:/spool/recibo.prn' }],
    ['lp://EPSON_TM_T20', { kind: 'system', printer: 'EPSON_TM_T20' }],
    ['lp://Caixa-1.Térreo', { kind: 'system', printer: 'Caixa-1.Térreo' }],
    ['lp://', { kind: 'system', printer: null }],
  ])('reads %s', (text, expected) => {
    expect(parsePrinterAddress(text)).toEqual(expected);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['EPSON_TM_T20', 'no scheme'],
    ['/dev/usb/lp0', 'no scheme'],
    ['http://printer:9100', 'http'],
    ['tcp://', 'host'],
    ['tcp://printer:0', 'port'],
    ['tcp://printer:70000', 'port'],
    ['tcp://printer:abc', 'host'],
    ['tcp://[zz::]:9100', 'IPv6'],
    ['tcp://two words:9100', 'host'],
    ['serial:', 'port'],
    ['serial:///dev/', 'directory'],
    ['serial:ttyUSB0', 'serial port'],
    ['serial:///dev/ttyUSB0?baud=96000', 'baud'],
    ['serial:///dev/ttyUSB0?baud=abc', 'baud'],
    ['serial:///dev/ttyUSB0?speed=9600', 'speed'],
    ['file:relative/path', 'absolute'],
    ['file://fileserver/share/printer', 'absolute'],
    ['file:///', 'root'],
    ['file:///tmp/x%zz', '%-escape'],
    ['file:///tmp/job?x=1', 'query'],
    ['lp:EPSON', 'lp://'],
    ['lp://two words', 'printer name'],
    ['lp://a/b', 'printer name'],
    ['lp://-oraw', '"-"'],
    [`lp://${'x'.repeat(128)}`, '127'],
  ])('refuses %j with INVALID_ADDRESS and a sentence (%s)', (text, mentions) => {
    const error = thrown(() => parsePrinterAddress(text));
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'INVALID_ADDRESS' });
    const message = (error as PrinterError).message;
    expect(message).toContain(mentions);
    expect(message).toContain('tcp://host:port');
    expect(message).toMatch(/\.$/);
  });

  it('refuses a value that is not text without crashing', () => {
    expect(thrown(() => parsePrinterAddress(42 as unknown as string))).toMatchObject({ code: 'INVALID_ADDRESS' });
  });

  it.each([
    'tcp://192.168.0.50:9100',
    'tcp://[::1]:9100',
    'serial:///dev/ttyUSB0?baud=19200',
    'serial:COM3?baud=9600',
    'file:///var/spool/fila caixa#1.bin',
    'file:///C:/spool/recibo.prn',
    'lp://EPSON_TM_T20',
    'lp://',
  ])('formats %s back into an address that parses the same', (text) => {
    const parsed = parsePrinterAddress(text.replace(' ', '%20').replace('#', '%23'));
    expect(parsePrinterAddress(formatPrinterAddress(parsed))).toEqual(parsed);
  });
});

describe('createTransport', () => {
  it('builds the transport each address names, not yet open', () => {
    const tcp = createTransport('tcp://127.0.0.1');
    expect(tcp).toBeInstanceOf(TcpPrinterTransport);
    expect(tcp.address).toBe('tcp://127.0.0.1:9100');
    expect(tcp.isOpen).toBe(false);
    expect(createTransport('serial:///dev/ttyUSB0')).toBeInstanceOf(SerialPrinterTransport);
    expect(createTransport('serial:///dev/ttyUSB0').address).toBe('serial:///dev/ttyUSB0?baud=9600');
    expect(createTransport('file:///dev/usb/lp0')).toBeInstanceOf(DeviceFileTransport);
    expect(createTransport('lp://X')).toBeInstanceOf(CommandTransport);
  });

  it('gives status requests only to the transports that can carry them', () => {
    expect(typeof createTransport('tcp://127.0.0.1').request).toBe('function');
    expect(typeof createTransport('serial:COM3').request).toBe('function');
    expect('request' in createTransport('file:///dev/usb/lp0')).toBe(false);
    expect('request' in createTransport('lp://X')).toBe(false);
  });

  it('prints to the system printer with lp in raw mode on Linux and macOS', () => {
    const named = createTransport('lp://EPSON_TM_T20', { system: { platform: 'linux' } }) as CommandTransport;
    expect(named.argv).toEqual(['lp', '-d', 'EPSON_TM_T20', '-o', 'raw']);
    const fallback = createTransport('lp://', { system: { platform: 'darwin' } }) as CommandTransport;
    expect(fallback.argv).toEqual(['lp', '-o', 'raw']);
  });

  it('needs a configured command on Windows', () => {
    expect(thrown(() => createTransport('lp://X', { system: { platform: 'win32' } }))).toMatchObject({
      code: 'COMMAND_FAILED',
    });
  });

  it('fills {printer} into a configured command, and refuses it when the address names no printer', () => {
    const command = ['print-raw', '--queue={printer}', '-'];
    expect((createTransport('lp://Caixa1', { system: { command } }) as CommandTransport).argv).toEqual([
      'print-raw',
      '--queue=Caixa1',
      '-',
    ]);
    expect(thrown(() => createTransport('lp://', { system: { command } }))).toMatchObject({ code: 'INVALID_ADDRESS' });
    expect(thrown(() => createTransport('lp://X', { system: { command: [] } }))).toMatchObject({
      code: 'COMMAND_FAILED',
    });
  });
});

describe('AnswerReader', () => {
  const timeout = (): PrinterError => new PrinterError('TIMEOUT', 'no answer.');

  it('answers with the next bytes after the request, not the ones that came before it', async () => {
    const reader = new AnswerReader();
    reader.feed(Uint8Array.of(0x99, 0x98));
    reader.discard();
    const answer = reader.expect(1, 10_000, timeout);
    reader.feed(Uint8Array.of(0x12, 0x16));
    expect([...(await answer)]).toEqual([0x12]);
  });

  it('waits for as many bytes as asked, across chunks', async () => {
    const reader = new AnswerReader();
    const answer = reader.expect(3, 10_000, timeout);
    reader.feed(Uint8Array.of(1));
    reader.feed(Uint8Array.of(2, 3, 4));
    expect([...(await answer)]).toEqual([1, 2, 3]);
  });

  it('rejects with the timeout error, or with the error it is failed with', async () => {
    const reader = new AnswerReader();
    await expect(reader.expect(1, 10, timeout)).rejects.toMatchObject({ code: 'TIMEOUT' });
    const pending = reader.expect(1, 10_000, timeout);
    reader.fail(new PrinterError('DISCONNECTED', 'gone.'));
    await expect(pending).rejects.toMatchObject({ code: 'DISCONNECTED' });
  });

  it('skips the bytes its filter refuses', async () => {
    const reader = new AnswerReader((byte) => byte !== 0x13 && byte !== 0x11);
    const answer = reader.expect(1, 10_000, timeout);
    reader.feed(Uint8Array.of(0x13, 0x11, 0x1e));
    expect([...(await answer)]).toEqual([0x1e]);
  });
});

describe('TCP transport (raw port 9100 style)', () => {
  it('delivers the exact bytes to the listener: every byte value and a large job', async () => {
    const sim = await simulator();
    const transport = track(await openTransport(sim.address));
    const large = randomBytes(512 * 1024);
    await transport.write(EVERY_BYTE);
    await transport.write(large);
    const expected = Buffer.concat([EVERY_BYTE, large]);
    expect((await sim.waitForRaw(expected.length)).equals(expected)).toBe(true);
  });

  it('carries a DLE EOT request and returns the one-byte answer', async () => {
    const sim = await simulator();
    sim.set({ paperNearEnd: true });
    const transport = track(await openTransport(sim.address));
    const answer = await transport.request!(statusRequestBytes(4), 1, 5000);
    expect([...answer]).toEqual([0x1e]);
    expect(sim.requests).toEqual([4]);
  });

  it('reports a refused connection as UNREACHABLE', async () => {
    const error = await openTransport(`tcp://127.0.0.1:${CLOSED_PORT}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'UNREACHABLE' });
    expect((error as PrinterError).message).toContain(`127.0.0.1:${CLOSED_PORT}`);
  });

  it('rejects a status request the printer never answers with TIMEOUT, and answers the next one correctly', async () => {
    const sim = await simulator();
    const transport = track(await openTransport(sim.address));
    sim.answering = false;
    await expect(transport.request!(statusRequestBytes(1), 1, 200)).rejects.toMatchObject({ code: 'TIMEOUT' });
    sim.answering = true;
    sim.set({ coverOpen: true });
    expect([...(await transport.request!(statusRequestBytes(2), 1, 5000))]).toEqual([0x16]);
  });

  it('reports a dropped connection as DISCONNECTED and reconnects on the next job', async () => {
    const sim = await simulator();
    const transport = track(await openTransport(sim.address));
    await transport.write(Uint8Array.of(1, 2, 3));
    await sim.waitForPrinted(3);

    const disconnected = nextEvent(transport, 'disconnected');
    sim.dropConnections();
    const error = await disconnected;
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'DISCONNECTED' });

    const reconnected = nextEvent(transport, 'connected');
    await transport.write(Uint8Array.of(4, 5, 6));
    await reconnected;
    expect([...(await sim.waitForPrinted(6))]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sim.connections).toBe(2);
  });

  it('fails a status request whose connection drops with DISCONNECTED, then works again', async () => {
    const sim = await simulator();
    const transport = track(await openTransport(sim.address));
    sim.dropOnNextRequest();
    await expect(transport.request!(statusRequestBytes(1), 1, 5000)).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect([...(await transport.request!(statusRequestBytes(1), 1, 5000))]).toEqual([0x12]);
  });

  it('gives up with TIMEOUT on a printer that stops reading, and closes that connection', async () => {
    const sim = await simulator();
    const transport = track(new TcpPrinterTransport({ host: '127.0.0.1', port: sim.port, writeTimeoutMs: 300 }));
    await transport.open();
    await transport.write(Uint8Array.of(0));
    await sim.waitForPrinted(1);
    sim.stopReading();
    const disconnected = nextEvent(transport, 'disconnected');
    // Far more than the loopback socket buffers hold, so the write cannot complete.
    await expect(transport.write(new Uint8Array(64 * 1024 * 1024))).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(await disconnected).toMatchObject({ code: 'TIMEOUT' });
  });

  it('refuses to write after close() with NOT_OPEN', async () => {
    const sim = await simulator();
    const transport = await openTransport(sim.address);
    await transport.close();
    await transport.close();
    await expect(transport.write(Uint8Array.of(1))).rejects.toMatchObject({ code: 'NOT_OPEN' });
    expect(sim.connections).toBe(1);
  });
});

describe('serial transport over a socat pty pair', () => {
  let pty: PtyPair;

  async function setUp(): Promise<{ sim: PrinterSimulator; transport: PrinterTransport }> {
    pty = await createPtyPair();
    cleanups.push(() => pty.close());
    const sim = await PrinterSimulator.onPty(pty.b);
    cleanups.push(() => sim.close());
    const transport = track(await openTransport(`serial://${pty.a}?baud=9600`));
    return { sim, transport };
  }

  it('sends the exact bytes at 9600 bps and reads status answers on the same line', async () => {
    const { sim, transport } = await setUp();
    const { stdout } = await run('stty', ['-F', pty.a, '-a']);
    expect(stdout).toMatch(/speed 9600 baud/);
    await transport.write(EVERY_BYTE);
    expect((await sim.waitForRaw(256)).equals(Buffer.from(EVERY_BYTE))).toBe(true);

    sim.set({ paperOut: true });
    expect([...(await transport.request!(statusRequestBytes(4), 1, 5000))]).toEqual([0x7e]);
  });

  it('skips XOFF/XON that a printer in software flow control sends before its answer', async () => {
    const { sim, transport } = await setUp();
    sim.answerPrefix = [0x13, 0x11];
    sim.set({ coverOpen: true });
    expect([...(await transport.request!(statusRequestBytes(2), 1, 5000))]).toEqual([0x16]);
  });

  it('rejects a request the printer never answers with TIMEOUT', async () => {
    const { sim, transport } = await setUp();
    sim.answering = false;
    await expect(transport.request!(statusRequestBytes(1), 1, 200)).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('reports the cable pulled (socat killed) as DISCONNECTED, and the gone port as UNREACHABLE on the next job', async () => {
    pty = await createPtyPair();
    cleanups.push(() => pty.close());
    const transport = track(await openTransport(`serial://${pty.a}`));
    const disconnected = nextEvent(transport, 'disconnected');
    await pty.close();
    // serialport does not always notice a vanished pty by itself; the first write then finds out.
    const first = await transport.write(Uint8Array.of(1)).catch((e: unknown) => e);
    expect(['DISCONNECTED', 'UNREACHABLE']).toContain((first as PrinterError).code);
    expect(await disconnected).toMatchObject({ code: 'DISCONNECTED' });
    await expect(transport.write(Uint8Array.of(1))).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });

  it('reports a port that does not exist as UNREACHABLE', async () => {
    await expect(openTransport('serial:///dev/pinbridge-no-such-printer')).rejects.toMatchObject({
      code: 'UNREACHABLE',
    });
  });
});

describe('folder transport', () => {
  it('writes each job to a file of its own, a PDF named .pdf, never a half-written file', async () => {
    const dir = await tempDir();
    const folder = join(dir, 'receipts');
    const transport = track(await openTransport(`file://${folder}/`));
    expect(transport.address).toBe(`file://${folder}/`);
    await transport.write(Uint8Array.of(0x1b, 0x40, 0x41));
    await transport.write(new TextEncoder().encode('%PDF-1.3\n%%EOF'));
    const names = (await readdir(folder)).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^\d{8}-\d{6}-\d{3}-0001\.bin$/);
    expect(names[1]).toMatch(/^\d{8}-\d{6}-\d{3}-0002\.pdf$/);
    expect(new Uint8Array(await readFile(join(folder, names[0]!)))).toEqual(Uint8Array.of(0x1b, 0x40, 0x41));
    expect(await readFile(join(folder, names[1]!), 'latin1')).toMatch(/^%PDF/);
  });

  it('reports a folder that is a file as UNREACHABLE', async () => {
    const dir = await tempDir();
    const file = join(dir, 'not-a-folder');
    await writeFile(file, 'x');
    await expect(openTransport(`file://${file}/`)).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });
});

describe('device file transport', () => {
  it('appends each job to a spool file in a temp dir', async () => {
    const dir = await tempDir();
    const path = join(dir, 'receipts.bin');
    const transport = track(await openTransport(`file://${path}`));
    await transport.write(EVERY_BYTE);
    await transport.write(Uint8Array.of(0x1b, 0x40));
    expect(new Uint8Array(await readFile(path))).toEqual(Uint8Array.from([...EVERY_BYTE, 0x1b, 0x40]));
  });

  it('writes to a character device without creating or truncating anything (/dev/null)', async () => {
    const transport = track(new DeviceFileTransport({ path: '/dev/null' }));
    await transport.open();
    await transport.write(EVERY_BYTE);
  });

  it('reports a missing device as UNREACHABLE and does not create it', async () => {
    const path = '/dev/pinbridge-no-such-printer';
    const error = await openTransport(`file://${path}`).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNREACHABLE' });
    expect((error as PrinterError).message).toContain(path);
    expect(existsSync(path)).toBe(false);
  });

  it('reports a missing folder or a directory as UNREACHABLE', async () => {
    const dir = await tempDir();
    await expect(openTransport(`file://${join(dir, 'missing', 'job.bin')}`)).rejects.toMatchObject({
      code: 'UNREACHABLE',
    });
    await mkdir(join(dir, 'folder'));
    await expect(new DeviceFileTransport({ path: join(dir, 'folder') }).open()).rejects.toMatchObject({
      code: 'UNREACHABLE',
    });
  });

  it('gives up opening a FIFO nobody reads with TIMEOUT instead of hanging', async () => {
    const dir = await tempDir();
    const fifo = join(dir, 'printer.fifo');
    await run('mkfifo', [fifo]);
    // Let the blocked open complete once the test is over, so no thread stays stuck.
    cleanups.push(async () => {
      const reader = await open(fifo, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
      await reader.close();
    });
    const transport = new DeviceFileTransport({ path: fifo, openTimeoutMs: 200 });
    await expect(transport.open()).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('refuses to write before open() with NOT_OPEN', async () => {
    const dir = await tempDir();
    const transport = new DeviceFileTransport({ path: join(dir, 'job.bin') });
    await expect(transport.write(Uint8Array.of(1))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });
});

describe('print command transport', () => {
  /** A node one-liner standing in for `lp`: writes its stdin to the file named by its first argument. */
  const SAVE_STDIN = "require('fs').writeFileSync(process.argv[1], require('fs').readFileSync(0))";
  /**
   * One standing in for `lp` that notes its arguments in the file named by its first, after reading
   * the whole job as `lp` does (one that exits without reading it fails the print: the job may be lost).
   */
  const SAVE_ARGV =
    "require('fs').readFileSync(0); require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))";

  it('passes the job on standard input to the command', async () => {
    const dir = await tempDir();
    const out = join(dir, 'job.bin');
    const transport = track(new CommandTransport({ argv: [process.execPath, '-e', SAVE_STDIN, out] }));
    await transport.open();
    const job = randomBytes(300 * 1024);
    await transport.write(job);
    expect((await readFile(out)).equals(job)).toBe(true);
  });

  it('gives the printer name from lp://NAME to a configured command', async () => {
    const dir = await tempDir();
    const out = join(dir, 'argv.json');
    const transport = track(
      await openTransport('lp://Caixa-1', {
        system: { command: [process.execPath, '-e', SAVE_ARGV, out, '-d', '{printer}'] },
      }),
    );
    await transport.write(Uint8Array.of(1));
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(['-d', 'Caixa-1']);
  });

  it('never runs the command through a shell', async () => {
    const dir = await tempDir();
    const out = join(dir, 'argv.json');
    const marker = join(dir, 'injected');
    const hostile = `$(touch ${marker}); touch ${marker}`;
    const transport = track(new CommandTransport({ argv: [process.execPath, '-e', SAVE_ARGV, out, hostile] }));
    await transport.open();
    await transport.write(Uint8Array.of(1));
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual([hostile]);
    expect(existsSync(marker)).toBe(false);
  });

  it("turns a non-zero exit into COMMAND_FAILED with the command's stderr", async () => {
    const script = "process.stderr.write('lp: The printer or class does not exist.\\n'); process.exit(3)";
    const transport = track(new CommandTransport({ argv: [process.execPath, '-e', script] }));
    await transport.open();
    const error = await transport.write(Uint8Array.of(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'COMMAND_FAILED' });
    expect((error as PrinterError).message).toContain('exit code 3');
    expect((error as PrinterError).message).toContain('lp: The printer or class does not exist.');
  });

  it('reports a command that is not installed as COMMAND_FAILED', async () => {
    const dir = await tempDir();
    const transport = track(new CommandTransport({ argv: [join(dir, 'no-such-lp'), '-o', 'raw'] }));
    await transport.open();
    const error = await transport.write(Uint8Array.of(1)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'COMMAND_FAILED' });
    expect((error as PrinterError).message).toContain('not found');
  });

  it('reports a command that exits without reading the job as COMMAND_FAILED', async () => {
    const transport = track(new CommandTransport({ argv: [process.execPath, '-e', 'process.exit(0)'] }));
    await transport.open();
    await expect(transport.write(new Uint8Array(4 * 1024 * 1024))).rejects.toMatchObject({ code: 'COMMAND_FAILED' });
  });

  it('stops a command that never finishes with TIMEOUT', async () => {
    const transport = track(
      new CommandTransport({ argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'], timeoutMs: 300 }),
    );
    await transport.open();
    await expect(transport.write(Uint8Array.of(1))).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('refuses to write before open() with NOT_OPEN', async () => {
    const transport = new CommandTransport({ argv: [process.execPath, '-e', ''] });
    await expect(transport.write(Uint8Array.of(1))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });
});
