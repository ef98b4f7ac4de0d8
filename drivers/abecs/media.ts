/**
 * The PINPAD's multimedia (abecs.md §3.18, S220 §3.4, §6.6), optional in the spec: what a graphic
 * PINPAD says it can show (GIX), and loading a file — MLI with its size, CRC and type, the bytes
 * in MLR packets, MLE — so the Pinpad API can offer `loadMedia` as one call that a card sale can
 * interrupt between packets.
 *
 * What an interrupted or failed load leaves (S220 §6.6.1–§6.6.3): the PINPAD keeps the bytes of a
 * load in a temporary area and stores the file only at a successful MLE, so nothing half-loaded is
 * ever listed or shown; a previous file of the same name stays as it was. The temporary area holds
 * memory until an MLE (which frees it whatever its answer) or the next MLI. So after a load stops
 * short, `loadMedia` sends MLE (answered ST_MFERR: the size differs) to free it, then DMF with the
 * name: the caller asked to replace that file, and an older image under the name must not be shown
 * by mistake. That clean-up is best effort (a PINPAD gone away cannot be cleaned); it costs two
 * short non-blocking commands.
 */
import { DriverError, InvalidArgumentError } from '../errors.js';
import type { CommandCodec } from './codec.js';
import { crc16Xmodem } from './crc.js';
import type { GixResult } from './commands/gix.js';
import { dmfCommand } from './commands/dmf.js';
import {
  looksLike,
  mediaFileName,
  mlrPackets,
  MEDIA_MAX_SIZE,
  MEDIA_TYPES,
  type MediaType,
} from './commands/media-support.js';
import { mleCommand } from './commands/mle.js';
import { mliCommand } from './commands/mli.js';
import { mlrCommand } from './commands/mlr.js';

export type { MediaType } from './commands/media-support.js';

/**
 * What a graphic PINPAD reports about showing images (GIX): the graphic display's size in pixels
 * (PP_DSPGRSZ "LLLLCCCC": lines, then columns — the PPC-930's "03200240" is 240 wide × 320 high),
 * whether it is in colour (PP_CAPAB d2: "2" colour, "1" monochrome) and the formats it shows
 * (PP_MFSUP: "1" in position 1 PNG, 2 JPG, 3 GIF). The spec gives no item for the free media
 * memory (PP_TLRMEM is the EMV tables'): a full PINPAD says so by answering MLR or MLE with
 * ST_INTERR.
 */
export interface MediaSupport {
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
  readonly formats: readonly MediaType[];
}

/** The media support GIX reports; null for a PINPAD with no graphic display or no format. */
export function mediaSupportOf(gix: GixResult): MediaSupport | null {
  const graphic = gix.displayGraphic;
  const support = gix.mediaSupport;
  if (!graphic || graphic.width === 0 || graphic.height === 0 || !support) return null;
  const formats = MEDIA_TYPES.filter((type) => support[type]);
  if (formats.length === 0) return null;
  return { width: graphic.width, height: graphic.height, color: gix.capabilities?.display === 'color', formats };
}

export interface MediaLoadOptions {
  /**
   * Stops the load between two packets (a card sale takes the PINPAD back): the load is cleaned up
   * (see above) and `loadMedia` rejects with CANCELLED. A packet already sent is answered first.
   */
  readonly signal?: AbortSignal;
}

/** Runs one command on the PINPAD (the Pinpad's `execute`). */
export type RunCommand = <Req, Res>(codec: CommandCodec<Req, Res>, request: Req) => Promise<Res>;

/** What is checked before anything goes on the wire: a name, a known type, bytes of that type. */
export function checkMediaFile(name: string, type: MediaType, bytes: Uint8Array): void {
  mediaFileName(name);
  if (!MEDIA_TYPES.includes(type)) {
    throw new InvalidArgumentError(`A PINPAD media file is ${MEDIA_TYPES.join(', ')}; got ${JSON.stringify(type)}.`);
  }
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    throw new InvalidArgumentError('A PINPAD media file needs at least one byte.');
  }
  if (bytes.length > MEDIA_MAX_SIZE) {
    throw new InvalidArgumentError(`A PINPAD media file has at most ${MEDIA_MAX_SIZE} bytes; got ${bytes.length}.`);
  }
  if (!looksLike(type, bytes)) {
    throw new InvalidArgumentError(`The bytes given for ${name.toUpperCase()} are not a ${type.toUpperCase()} file.`);
  }
}

function cancelled(name: string, sent: number, total: number): DriverError {
  return new DriverError(
    'CANCELLED',
    `Loading ${name.toUpperCase()} on the PINPAD was interrupted after ${sent} of ${total} bytes; the partial file was discarded.`,
  );
}

/** MLI → MLR… → MLE, stopping between packets when `signal` aborts; see the module's comment. */
export async function loadMediaFile(
  run: RunCommand,
  name: string,
  type: MediaType,
  bytes: Uint8Array,
  options: MediaLoadOptions = {},
): Promise<void> {
  checkMediaFile(name, type, bytes);
  const { signal } = options;
  if (signal?.aborted) throw cancelled(name, 0, bytes.length);
  await run(mliCommand, { name, size: bytes.length, crc: crc16Xmodem(bytes), type });
  let sent = 0;
  let ended = false;
  try {
    for (const chunks of mlrPackets(bytes)) {
      if (signal?.aborted) throw cancelled(name, sent, bytes.length);
      await run(mlrCommand, { chunks });
      sent += chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    }
    if (signal?.aborted) throw cancelled(name, sent, bytes.length);
    ended = true;
    await run(mleCommand, {});
  } catch (error) {
    await discardLoad(run, name, !ended);
    throw error;
  }
}

/** Frees the temporary area (MLE, unless MLE already ran) and deletes the name (DMF); never throws. */
async function discardLoad(run: RunCommand, name: string, endLoad: boolean): Promise<void> {
  if (endLoad) await run(mleCommand, {}).catch(() => undefined);
  await run(dmfCommand, { names: [name] }).catch(() => undefined);
}
