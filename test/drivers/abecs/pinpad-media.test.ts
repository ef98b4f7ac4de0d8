/**
 * The Pinpad's multimedia API against the simulated PPC-930 (a 240 × 320 colour graphic display,
 * PNG and JPG) over an in-memory link and over a pseudo terminal made by socat: what the PINPAD
 * reports it can show, a real PNG loaded (MLI, MLR packets, MLE), listed, shown — the simulator's
 * display holding exactly the bytes loaded — and deleted; a load interrupted between packets or
 * refused for want of memory leaves no file behind; bad requests never reach the wire.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { AbecsStatusError } from '../../../drivers/abecs/status.js';
import { DriverError, InvalidArgumentError } from '../../../drivers/errors.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  startPtySimulator,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import { encodePng, patternPng } from '../../helpers/png.js';

const HOST_TIMINGS = { ackTimeoutMs: 1500, silenceMs: 40, eotTimeoutMs: 1000, interByteTimeoutMs: 1500 };
const DEVICE_LINK = { timings: { silenceMs: 40, interByteTimeoutMs: 1500 } };

type Medium = 'memory' | 'pty';

interface Rig {
  readonly pinpad: Pinpad;
  readonly sim: PinpadSimulator;
  /** The ids of the commands the host wrote, in order. */
  readonly sent: string[];
  /** Called with each command's id as the host writes it. */
  onSend: ((id: string) => void) | undefined;
  readonly close: () => Promise<void>;
}

const rigs: Rig[] = [];
afterEach(async () => {
  while (rigs.length > 0) await rigs.pop()!.close();
});

async function open(medium: Medium, options: PinpadSimulatorOptions = {}): Promise<Rig> {
  const sim = new PinpadSimulator({ profile: 'ppc930', timeScale: 0.01, link: DEVICE_LINK, ...options });
  let pinpad: Pinpad;
  let stop: () => Promise<void>;
  if (medium === 'memory') {
    const served = await startMemorySimulator(sim);
    pinpad = new Pinpad(served.link.host, { timings: HOST_TIMINGS });
    stop = () => served.close();
  } else {
    const pty = await startPtySimulator(sim);
    pinpad = new Pinpad(new SerialTransport(pty.path), { timings: HOST_TIMINGS });
    stop = () => pty.close();
  }
  const sent: string[] = [];
  const write = pinpad.transport.write.bind(pinpad.transport);
  vi.spyOn(pinpad.transport, 'write').mockImplementation((bytes: Uint8Array) => {
    // A command frame starts with SYN and its 3-letter id (ASCII, never escaped).
    if (bytes[0] === 0x16 && bytes.length > 4) {
      const id = Buffer.from(bytes.subarray(1, 4)).toString('latin1');
      sent.push(id);
      rig.onSend?.(id);
    }
    return write(bytes);
  });
  const rig: Rig = {
    pinpad,
    sim,
    sent,
    onSend: undefined,
    close: async () => {
      await pinpad.close(null).catch(() => {});
      await stop();
    },
  };
  rigs.push(rig);
  await pinpad.open();
  return rig;
}

/** A QR-like image of 232 × 232 pixels: several MLR packets. */
const QR = patternPng(232, 232, 1);

describe.each<Medium>(['memory', 'pty'])('PINPAD images over %s', (medium) => {
  it('reads what the graphic display shows: 240 wide, 320 high, colour, PNG and JPG (GIX)', async () => {
    const { pinpad } = await open(medium);
    expect(await pinpad.mediaSupport()).toEqual({ width: 240, height: 320, color: true, formats: ['png', 'jpg'] });
  });

  it('loads a real PNG, lists it, shows it: the PINPAD holds and displays exactly the bytes loaded', async () => {
    const { pinpad, sim, sent } = await open(medium);
    expect(QR.length).toBeGreaterThan(2 * 995);
    sent.length = 0;
    await pinpad.loadMedia('pix1', 'png', QR);
    expect(sent).toEqual(['MLI', ...Array.from({ length: Math.ceil(QR.length / 1990) }, () => 'MLR'), 'MLE']);
    expect(await pinpad.listMedia()).toEqual(['PIX1']);
    await pinpad.displayImage('PIX1');
    expect(sim.display.image).toMatchObject({ name: 'PIX1', format: 'png', width: 232, height: 232 });
    expect(sim.display.image!.bytes.equals(QR)).toBe(true);
    await pinpad.display('PIX RECEBIDO');
    expect(sim.display.image).toBeUndefined();
    expect(sim.display.lines[0]).toBe('PIX RECEBIDO');
  });

  it('stops a load between packets when its signal aborts, and leaves no file of that name', async () => {
    const rig = await open(medium);
    const { pinpad, sim, sent } = rig;
    // An older image under the name: a load meant to replace it must not leave it to be shown.
    await pinpad.loadMedia(
      'PIX1',
      'png',
      encodePng(16, 16, () => [0, 0, 0]),
    );
    const controller = new AbortController();
    sent.length = 0;
    // A card sale wants the PINPAD as the first packet of the file goes out.
    rig.onSend = (id) => {
      if (id === 'MLR') controller.abort();
    };
    const load = pinpad.loadMedia('PIX1', 'png', QR, { signal: controller.signal });
    const error = await load.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DriverError);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    expect((error as Error).message).toMatch(/PIX1 .* interrupted after 1990 of \d+ bytes/);
    expect(sent).toEqual(['MLI', 'MLR', 'MLE', 'DMF']);
    rig.onSend = undefined;
    expect(await pinpad.listMedia()).toEqual([]);
    expect(sim.mediaMemoryUsed).toBe(0);
    // And the PINPAD is free for what comes next.
    await pinpad.display('INSIRA O CARTAO');
    expect(sim.display.lines[0]).toBe('INSIRA O CARTAO');
  });
});

describe('PINPAD images: what goes wrong', () => {
  it('a PINPAD without room answers ST_INTERR; the partial file is discarded', async () => {
    const { pinpad, sim, sent } = await open('memory', { mediaMemoryBytes: 3000 });
    sent.length = 0;
    await expect(pinpad.loadMedia('BIG', 'png', QR)).rejects.toMatchObject({ code: 'ST_INTERR', command: 'MLR' });
    expect(sent).toEqual(['MLI', 'MLR', 'MLR', 'MLE', 'DMF']);
    expect(await pinpad.listMedia()).toEqual([]);
    expect(sim.mediaMemoryUsed).toBe(0);
  });

  it('replaces a file of the same name, deletes files, and says which file is missing', async () => {
    const { pinpad, sim } = await open('memory');
    const black = encodePng(16, 16, () => [0, 0, 0]);
    const white = encodePng(16, 16, () => [255, 255, 255]);
    await pinpad.loadMedia('LOGO', 'png', black);
    await pinpad.loadMedia('logo', 'png', white);
    await pinpad.loadMedia('QR', 'png', black);
    expect((await pinpad.listMedia()).sort()).toEqual(['LOGO', 'QR']);
    expect(
      sim
        .mediaFiles()
        .find((file) => file.name === 'LOGO')
        ?.bytes.equals(white),
    ).toBe(true);
    await pinpad.deleteMedia(['QR', 'GONE']);
    expect(await pinpad.listMedia()).toEqual(['LOGO']);
    await pinpad.deleteMedia('LOGO');
    const missing = await pinpad.displayImage('LOGO').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(AbecsStatusError);
    expect(missing).toMatchObject({ code: 'ST_MFNFOUND', command: 'DSI' });
  });

  it('a GIF loads on the PPC-930 but is not shown: ST_MFERRFMT', async () => {
    const { pinpad } = await open('memory');
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([10, 0, 10, 0, 0, 0, 0, 0x3b])]);
    await pinpad.loadMedia('ANIM', 'gif', gif);
    await expect(pinpad.displayImage('ANIM')).rejects.toMatchObject({ code: 'ST_MFERRFMT' });
  });

  it('refuses a bad name, type or file before anything goes on the wire', async () => {
    const { pinpad, sent } = await open('memory');
    sent.length = 0;
    const png = encodePng(4, 4, () => [0, 0, 0]);
    const attempts: Promise<unknown>[] = [
      pinpad.loadMedia('qr.png', 'png', png),
      pinpad.loadMedia('QRCODE012', 'png', png),
      pinpad.loadMedia('QR', 'bmp' as 'png', png),
      pinpad.loadMedia('QR', 'png', new Uint8Array()),
      pinpad.loadMedia('QR', 'jpg', png),
      pinpad.displayImage(''),
      pinpad.deleteMedia([]),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toBeInstanceOf(InvalidArgumentError);
    const aborted = new AbortController();
    aborted.abort();
    await expect(pinpad.loadMedia('QR', 'png', png, { signal: aborted.signal })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(sent).toEqual([]);
  });

  it('a text-only PINPAD has no media support; it answers the media commands ERR010', async () => {
    const { pinpad } = await open('memory', { profile: 'training' });
    expect(await pinpad.mediaSupport()).toBeNull();
    await expect(pinpad.listMedia()).rejects.toMatchObject({ code: 'ST_INVCALL', command: 'LMF' });
    const legacy = await open('memory', { profile: 'legacy' });
    expect(await legacy.pinpad.mediaSupport()).toBeNull();
  });
});
