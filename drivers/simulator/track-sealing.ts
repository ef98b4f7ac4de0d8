/**
 * GTK's answer for a card (S220 §3.3.12, §5.4.2, §6.3.4): the PAN and full tracks it asks for,
 * packed (PAN and track 2 a digit a nibble, track 1 a character a byte) and, when SPE_MTHDDAT
 * names a method, encrypted with the key it names (data-encryption.ts) — the first SPE_OPNDIG
 * characters left in clear, the rest filled to 8-byte blocks.
 */
import { track1Of, track2Of, type SimCard } from './cards.js';
import { dataSealer } from './data-encryption.js';
import type { DeviceState } from './state.js';
import { packDigits, type GtkRequest, type GtkResult } from './wire/commands/security.js';

type TrackName = 'pan' | 'track1' | 'track2' | 'track3';

/**
 * One field under encryption (S220 §5.4.2): the first characters left in clear as SPE_OPNDIG
 * asks (track 1: the format character and then the digits, §5.4.2.1; PAN and tracks 2/3: two
 * digits a byte, §5.4.2.2), the rest filled to a multiple of 8 bytes (00h for track 1, Fh nibbles
 * for the others) and encrypted.
 */
function sealField(name: TrackName, clear: Buffer, openDigits: number, encrypt: (data: Buffer) => Buffer): Buffer {
  const open = name === 'track1' ? (openDigits > 0 ? 1 + openDigits : 0) : openDigits / 2;
  const head = clear.subarray(0, Math.min(open, clear.length));
  const rest = clear.subarray(head.length);
  const filler = Buffer.alloc((8 - (rest.length % 8)) % 8, name === 'track1' ? 0x00 : 0xff);
  return Buffer.concat([head, encrypt(Buffer.concat([rest, filler]))]);
}

/**
 * The answer to `req` for `card`. The key is checked first (StatusReply ST_ERRKEY / ST_INVPARM
 * from data-encryption.ts); `release` then runs — the moment the tracks leave the PINPAD's memory
 * — before anything is packed.
 */
export function gtkAnswer(device: DeviceState, card: SimCard, req: GtkRequest, release: () => void): GtkResult {
  const encryption = req.encryption;
  const sealer = encryption === undefined ? undefined : dataSealer(device, encryption);
  release();
  const clear: Partial<Record<TrackName, Buffer>> = {
    ...(req.tracks.pan ? { pan: packDigits(card.pan) } : {}),
    ...(req.tracks.track1 ? { track1: Buffer.from(track1Of(card), 'latin1') } : {}),
    ...(req.tracks.track2 ? { track2: packDigits(track2Of(card)) } : {}),
  };
  if (encryption === undefined || sealer === undefined) return clear;
  const out: Partial<Record<TrackName, Buffer>> = {};
  const ksns: Partial<Record<TrackName, Buffer>> = {};
  for (const [name, value] of Object.entries(clear) as Array<[TrackName, Buffer]>) {
    out[name] = sealField(name, value, encryption.openDigits, (data) => {
      const sealed = sealer.encrypt(data);
      if (sealed.ksn) ksns[name] = sealed.ksn;
      return sealed.data;
    });
  }
  return {
    ...out,
    ...(Object.keys(ksns).length > 0 ? { ksns } : {}),
    ...(sealer.encryptedKey ? { encryptedKey: sealer.encryptedKey } : {}),
  };
}
