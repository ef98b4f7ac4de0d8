/**
 * Re-sealing a replayed session's card data (replay.ts, `PinpadSimulatorOptions.resealCard`). A
 * trace file never holds card data: its PAN and tracks are masked and its sealed data — GTK's
 * tracks, GOX's and GPN's PIN blocks, their KSNs — are zeros, so a host that replays a sale gets
 * an authorization the provider refuses. With a test card chosen, the replay answers those
 * commands with that card's data sealed for real, under the keys the host's command names and the
 * published test keys (DUKPT from the ANSI test BDK, MK/WK from the test master keys, GTK's random
 * key under the host's RSA key), so support can run the store's whole sale against the sandbox:
 *
 * - GCX: the recorded answer with the card's PAN (masked as SPE_PANMASK asks), incomplete
 *   tracks, expiry, PAN sequence number, country and name in place of the recorded ones;
 * - GTK: the card's PAN and tracks, sealed as the GTK command asks (track-sealing.ts);
 * - GOX: the recorded decision and EMV data, with the card's PIN (its own, else 1234) sealed under
 *   the PIN key GOX names where the recording captured an online PIN;
 * - GPN: the card's PIN for the PAN the host sent (or the card's).
 *
 * Only answers the recording gave with ST_OK change; everything else is replayed as recorded.
 * The recorded EMV data (amount, AID, cryptogram type) stays the recorded sale's.
 *
 * A card read recorded with `pinbridge pinpad trace --sale` ends before the chip's second GENERATE
 * AC (nothing was authorized then): when the recording has no FCX, the replay answers the host's
 * FCX as a card accepting the host's decision would (`finishChip`), so the replayed sale ends.
 */
import { maskPanWith, truncatedTrack1, truncatedTrack2, type SimCard } from './cards.js';
import { encryptPin } from './interaction.js';
import type { DeviceState } from './state.js';
import { gtkAnswer } from './track-sealing.js';
import { LENIENT } from './wire/command.js';
import { FCX, GCX, GOX } from './wire/commands/card.js';
import { GPN, GTK } from './wire/commands/security.js';
import { PP } from './wire/ids.js';
import type { CommandPacket, ResponsePacket } from './wire/packet.js';
import { decodeTlvBlocks, encodeTlvBlocks, type TlvItem } from './wire/tlv.js';

/** The PIN the customer types for `card`: its own, else the sandbox's issuer PIN of every test card. */
const pinOf = (card: SimCard): string => card.pin ?? '1234';

function replaceItems(response: ResponsePacket, replace: (item: TlvItem) => TlvItem | undefined): ResponsePacket {
  const items = decodeTlvBlocks(response.blocks)
    .map(replace)
    .filter((item): item is TlvItem => item !== undefined);
  return { ...response, blocks: encodeTlvBlocks(items) };
}

const text = (id: number, value: string): TlvItem => ({ id, value: Buffer.from(value, 'latin1') });

function resealGcx(card: SimCard, cmd: CommandPacket, response: ResponsePacket): ResponsePacket {
  const mask = GCX.decode(cmd, LENIENT).panMask;
  const pan = maskPanWith(card.pan, mask);
  return replaceItems(response, (item) => {
    switch (item.id) {
      case PP.PAN:
        return text(item.id, pan);
      case PP.TRK1INC:
        return text(item.id, truncatedTrack1(card).replace(card.pan, pan));
      case PP.TRK2INC:
        return text(item.id, truncatedTrack2(card).replace(card.pan, pan));
      case PP.TRK3INC:
        return undefined;
      case PP.CARDEXP:
        return text(item.id, card.expiry);
      case PP.PANSEQNO:
        return text(item.id, card.panSequenceNumber ?? '00');
      case PP.ISSCNTRY:
        return text(item.id, card.issuerCountry ?? '076');
      case PP.CHNAME:
        return text(item.id, card.cardholderName);
      default:
        return item;
    }
  });
}

function resealGox(card: SimCard, cmd: CommandPacket, response: ResponsePacket, device: DeviceState): ResponsePacket {
  const req = GOX.decode(cmd, LENIENT);
  const items = decodeTlvBlocks(response.blocks);
  // Only a recorded online PIN is sealed again; the obsolete DES methods have no key here.
  if (!items.some((item) => item.id === PP.PINBLK) || (req.pinMethod !== 'dukpt' && req.pinMethod !== 'mkwk'))
    return response;
  const pin = encryptPin(
    device,
    { method: req.pinMethod, index: req.keyIndex, ...(req.workingKey ? { workingKey: req.workingKey } : {}) },
    pinOf(card),
    card.pan,
  );
  const sealed = items
    .filter((item) => item.id !== PP.KSN)
    .map((item) => (item.id === PP.PINBLK ? { id: item.id, value: Buffer.from(pin.pinBlock, 'hex') } : item));
  if (req.pinMethod === 'dukpt') sealed.push({ id: PP.KSN, value: Buffer.from(pin.ksn, 'hex') });
  return { ...response, blocks: encodeTlvBlocks(sealed) };
}

function resealGpn(card: SimCard, cmd: CommandPacket, response: ResponsePacket, device: DeviceState): ResponsePacket {
  const req = GPN.decode(cmd, LENIENT);
  if (req.method !== 'dukpt' && req.method !== 'mkwk') return response;
  const pin = encryptPin(
    device,
    { method: req.method, index: req.keyIndex, workingKey: req.workingKey },
    pinOf(card),
    req.pan ?? card.pan,
  );
  return {
    ...response,
    ...GPN.encode({ pinBlock: Buffer.from(pin.pinBlock, 'hex'), ksn: Buffer.from(pin.ksn, 'hex') }),
  };
}

/**
 * The recorded `response` to `cmd` with `card`'s data sealed in it for real (see above); other
 * commands, and answers other than ST_OK, come back unchanged. Sealing uses `device`'s keys and
 * DUKPT counters. Throws StatusReply when the key the command names is missing.
 */
export function resealAnswer(
  card: SimCard,
  cmd: CommandPacket,
  response: ResponsePacket,
  device: DeviceState,
): ResponsePacket {
  if (response.status !== 0 || response.id !== cmd.id) return response;
  switch (cmd.id) {
    case 'GCX':
      return resealGcx(card, cmd, response);
    case 'GTK':
      return { ...response, ...GTK.encode(gtkAnswer(device, card, GTK.decode(cmd, LENIENT), () => {})) };
    case 'GOX':
      return resealGox(card, cmd, response, device);
    case 'GPN':
      return resealGpn(card, cmd, response, device);
    default:
      return response;
  }
}

/**
 * FCX when the recording has none (S220 §6.9.4): PP_FCXRES "000" when the host approved, "100"
 * otherwise; PP_EMVDATA empty when SPE_TAGLIST came ("mesmo que nenhum objeto seja encontrado").
 */
export function finishChip(cmd: CommandPacket): ResponsePacket {
  const req = FCX.decode(cmd, LENIENT);
  return {
    id: 'FCX',
    ...FCX.encode({
      decision: req.outcome === 'approved' ? 'approved' : 'declined',
      ...(req.tagList === undefined ? {} : { emvData: Buffer.alloc(0) }),
    }),
  };
}
