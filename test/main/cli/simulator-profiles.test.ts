/**
 * `pinbridge simulator --profile <name>` and the `sim:<profile>` PINPAD address, run in-process
 * through `main()` (no built dist/ needed).
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from '../../../drivers/abecs/frame.js';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { TcpTransport } from '../../../drivers/transports/tcp.js';
import { simulatorProfileOf } from '../../../main/pinpad/connection.js';
import { runMain, serve, stopServers } from '../../helpers/cli.js';
import { patternPng } from '../../helpers/png.js';

afterEach(stopServers);

/** One raw command over TCP to a served simulator; the response's PKTDATA. */
async function exchange(port: number, pktdata: Buffer): Promise<Buffer> {
  const socket = connect(port, '127.0.0.1');
  const decoder = new FrameDecoder();
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        for (const item of decoder.push(chunk)) if (item.kind === 'packet') resolve(item.data);
      });
      socket.write(encodeFrame(pktdata));
    });
  } finally {
    socket.destroy();
  }
}

describe('pinbridge simulator --profile', () => {
  it('lists the profiles in --help', async () => {
    const result = await runMain(['simulator', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--profile <name>');
    for (const name of ['training', 'strict', 'ppc930', 'legacy'])
      expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('exits 2 with a clear sentence for an unknown profile', async () => {
    const result = await runMain(['simulator', '--tcp', '127.0.0.1:0', '--profile', 'ppc999']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /there is no simulator profile named "ppc999"; known: training, strict, ppc930, legacy/,
    );
  });
});

describe("pinbridge simulator's console", () => {
  it(
    'names the image a graphic PINPAD shows (its text lines are blank), and shows text again after it',
    {
      timeout: 30_000,
    },
    async () => {
      const sim = await serve(['simulator', '--tcp', '127.0.0.1:0', '--profile', 'ppc930']);
      const pinpad = new Pinpad(
        new TcpTransport({ host: '127.0.0.1', port: Number(sim.ready.port), reconnect: false }),
      );
      try {
        await pinpad.open();
        const png = patternPng(120, 120);
        await pinpad.loadMedia('QR1', 'png', png);
        await pinpad.displayImage('QR1');
        await pinpad.display('PIX RECEBIDO');
        await expect.poll(() => sim.stderr()).toMatch(/PINPAD \| PIX RECEBIDO +\|/);
        const rows = sim.stderr().split('\n');
        const image = rows.findIndex((row) => row === `PINPAD | image QR1 (PNG, 120x120, ${png.length} bytes) |`);
        expect(image).toBeGreaterThan(-1);
        expect(rows.findIndex((row) => row.startsWith('PINPAD | PIX RECEBIDO'))).toBeGreaterThan(image);
      } finally {
        await pinpad.close(null).catch(() => {});
      }
    },
  );
});

describe('pinbridge simulator --keys', () => {
  it('lists the key loadouts in --help', async () => {
    const result = await runMain(['simulator', '--help']);
    expect(result.stdout).toContain('--keys <loadout>');
    for (const name of ['dukpt', 'mkwk', 'pinOnly', 'trace'])
      expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('exits 2 with a clear sentence for an unknown loadout', async () => {
    const result = await runMain(['simulator', '--tcp', '127.0.0.1:0', '--keys', 'everything']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/there is no key loadout named "everything"; known: dukpt, mkwk, pinOnly, trace/);
  });

  it('serves a PINPAD keyed as the loadout says (GIX key maps)', { timeout: 20_000 }, async () => {
    const sim = await serve(['simulator', '--tcp', '127.0.0.1:0', '--profile', 'strict', '--keys', 'trace']);
    // GIX asking PP_MKTDESD (8033h) and PP_DKPTTDESP (8035h).
    const gix = Buffer.from([...Buffer.from('GIX008'), 0x00, 0x01, 0x00, 0x04, 0x80, 0x33, 0x80, 0x35]);
    const answer = await exchange(Number(sim.ready.port), gix);
    expect(answer.subarray(0, 6).toString('latin1')).toBe('GIX000');
    const text = answer.toString('latin1');
    expect(text).toContain('001' + '0'.repeat(97));
    expect(text).toContain('01' + '0'.repeat(98));
  });
});

describe('the sim:<profile> PINPAD address', () => {
  it('maps sim to training and sim:<profile> to that profile, and nothing else', () => {
    expect(simulatorProfileOf('sim')).toBe('training');
    expect(simulatorProfileOf(' SIM:Strict ')).toBe('strict');
    expect(simulatorProfileOf('sim:ppc930')).toBe('ppc930');
    expect(simulatorProfileOf('/dev/ttyACM0')).toBeUndefined();
    expect(() => simulatorProfileOf('sim:nope')).toThrow(expect.objectContaining({ code: 'INVALID_PORT' }) as Error);
  });

  it('identifies the strict and ppc930 simulators with pinpad info --port sim:<profile>', async () => {
    const strict = await runMain(['pinpad', 'info', '--port', 'sim:strict', '--json']);
    expect(strict.code).toBe(0);
    expect(JSON.parse(strict.stdout)).toMatchObject({ spec_version: '2.20' });
    const ppc = await runMain(['pinpad', 'info', '--port', 'sim:ppc930', '--json']);
    expect(ppc.code).toBe(0);
    expect(JSON.parse(ppc.stdout)).toMatchObject({
      manufacturer: 'GERTEC',
      model: 'PPC-930',
      memory: '192MB',
      spec_version: '2.12',
    });
  });

  it('exits 2 for sim:<unknown profile>', async () => {
    const result = await runMain(['pinpad', 'info', '--port', 'sim:nope', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'INVALID_PORT' } });
  });
});
