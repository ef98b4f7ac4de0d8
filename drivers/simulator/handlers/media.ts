/**
 * Handlers of the multimedia commands (S220 §3.4, §6.6; abecs.md §3.18) on a graphic profile:
 * loading (MLI/MLR/MLE) into the media memory (media-store.ts), listing (LMF), deleting (DMF) and
 * showing (DSI) a file. The session answers ERR010 for them on a text-only profile.
 */
import { defineHandler, ST, StatusReply, type CommandHandler } from '../handler.js';
import { imageSize } from '../image-size.js';
import type { MediaStore, StoredMedia } from '../media-store.js';
import type { DeviceState, DisplayedImage } from '../state.js';
import { DMF, DSI, LMF, MLE, MLI, MLR, type MediaFormat } from '../wire/commands/media.js';

/** PP_MFSUP's positions (S220 §3.1.3.2): PNG, JPG, GIF. */
const MFSUP_ORDER: readonly MediaFormat[] = ['png', 'jpg', 'gif'];

function storeOf(device: DeviceState): MediaStore {
  // Unreachable on a text-only profile (the session answers ERR010); kept as ST_INVCALL.
  if (!device.media) throw new StatusReply(ST.INVCALL);
  return device.media;
}

/**
 * The file as the display would show it, or undefined when this PINPAD cannot (ST_MFERRFMT,
 * S220 §6.6.6): a type its PP_MFSUP does not list (or a RUF type), bytes that are not a file of
 * that type, or an image larger than the graphic display (PP_DSPGRSZ lines × columns).
 */
export function displayableImage(device: DeviceState, file: StoredMedia): DisplayedImage | undefined {
  const graphic = device.profile.graphic;
  const format = file.format;
  if (!graphic || format === undefined || graphic.mediaSupport[MFSUP_ORDER.indexOf(format)] !== '1') return undefined;
  const size = imageSize(format, file.bytes);
  const lines = Number(graphic.size.slice(0, 4));
  const columns = Number(graphic.size.slice(4, 8));
  if (!size || size.height > lines || size.width > columns) return undefined;
  return { name: file.name, format, bytes: file.bytes, width: size.width, height: size.height };
}

/**
 * MLI (§6.6.1): starts a load, dropping any unfinished one. The type is not judged here, even one
 * this PINPAD does not show: "esta crítica somente será feita no momento do uso" (DSI).
 */
const mli = defineHandler(MLI, (req, { device }) => {
  storeOf(device).begin(req);
  return {};
});

/** MLR (§6.6.2): ST_INVCALL without an MLI, ST_INTERR when the memory is full. */
const mlr = defineHandler(MLR, (req, { device }) => {
  const status = storeOf(device).append(req.data);
  if (status !== ST.OK) throw new StatusReply(status);
  return {};
});

/** MLE (§6.6.3): ST_MFERR when size or CRC differ from SPE_MFINFO, ST_INTERR without room. */
const mle = defineHandler(MLE, (_req, { device }) => {
  const status = storeOf(device).finish();
  if (status !== ST.OK) throw new StatusReply(status);
  return {};
});

const lmf = defineHandler(LMF, (_req, { device }) => ({ names: storeOf(device).names() }));

const dmf = defineHandler(DMF, (req, { device }) => {
  storeOf(device).delete(req.names);
  return {};
});

/** DSI (§6.6.6): the image replaces the whole display, centred by whoever draws it. */
const dsi = defineHandler(DSI, (req, { device }) => {
  const file = storeOf(device).get(req.name);
  if (!file) throw new StatusReply(ST.MFNFOUND);
  const image = displayableImage(device, file);
  if (!image) throw new StatusReply(ST.MFERRFMT);
  device.showImage(image);
  return {};
});

export const MEDIA_HANDLERS: readonly CommandHandler[] = [mli, mlr, mle, lmf, dmf, dsi];
