/**
 * GTK — get tracks (Abecs TLV, non-blocking; abecs.md §3.12, S220 §3.3.12, §5.4.2, §6.3.4.2,
 * §6.5.12): once after a CEX or GCX that read a card, the PAN and full tracks the PINPAD kept,
 * encrypted for the acquirer's host ("end-to-end"). The host never sees them in clear.
 *
 * - SPE_TRACKS "PTTT": PAN, track 1, track 2, track 3 wanted ('1').
 * - SPE_MTHDDAT: "10"/"11" MK/WK TDES ECB/CBC, "50"/"51" DUKPT TDES (DAT#3) ECB/CBC, "90"/"91"
 *   TDES under a random key KRAND the PINPAD makes for this GTK alone; SPE_KEYIDX the key slot
 *   (every method but "9x"); SPE_WKENC the working key for MK/WK; SPE_PBKMOD (B256) and
 *   SPE_PBKEXP (B..3) the host's RSA-2048 public key for "9x"; SPE_IVCBC for CBC; SPE_OPNDIG the
 *   leading digits left in clear (0, 2, 4, 6, 8). Without SPE_MTHDDAT the data comes back in clear.
 * - PP_ENCPAN / PP_TRACK2 / PP_TRACK3: digits nibble-packed ('=' as D), F-filled to a multiple
 *   of 8 bytes, then encrypted; PP_TRACK1: ASCII, 00-filled. In DUKPT ECB mode all fields are
 *   encrypted under one key, so every KSN field carries the same value (§6.3.4.2). With "9x",
 *   PP_ENCKRAND (B256) is KRAND encrypted under the public key as a PKCS #1 v1.5 type 2 block
 *   (00 02, non-zero random bytes, 00, the key: S220 §5.2.1, §5.4.2).
 *
 * A swipe with no readable track answers ST_OK with no card fields. ST_INVCALL when no card was
 * read or GTK was already used; ST_ERRKEY for an empty key slot.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { ParamReader, ParamWriter } from '../card-params.js';
import { PP, SPE } from '../ids.js';

export type GtkMethod = 'mkwkEcb' | 'mkwkCbc' | 'dukptEcb' | 'dukptCbc' | 'randomEcb' | 'randomCbc';

const METHOD_CODES: Readonly<Record<GtkMethod, string>> = {
  mkwkEcb: '10',
  mkwkCbc: '11',
  dukptEcb: '50',
  dukptCbc: '51',
  randomEcb: '90',
  randomCbc: '91',
};
const METHOD_BY_CODE = new Map(Object.entries(METHOD_CODES).map(([method, code]) => [code, method as GtkMethod]));

/** SPE_PBKMOD is B256: an RSA-2048 modulus (S220 §3.1.3.1). */
export const GTK_MODULUS_BYTES = 256;
/** PP_ENCKRAND is B256: one RSA-2048 block. */
export const GTK_ENCRYPTED_KEY_BYTES = 256;

export interface GtkTracks {
  readonly pan?: boolean;
  readonly track1?: boolean;
  readonly track2?: boolean;
  readonly track3?: boolean;
}

/** SPE_IVCBC and SPE_OPNDIG, which every method takes. */
interface GtkBlockOptions {
  /** SPE_IVCBC: 8 bytes (CBC methods). */
  readonly iv?: Buffer;
  /** SPE_OPNDIG: leading digits left in clear (0, 2, 4, 6, 8). */
  readonly openDigits?: number;
}

/** The host's RSA public key for the random-key methods. */
export interface GtkPublicKey {
  /** SPE_PBKMOD: the modulus, 256 bytes (RSA-2048). */
  readonly modulus: Buffer;
  /** SPE_PBKEXP: the public exponent, 1 to 3 bytes (01 00 01 for 65537). */
  readonly exponent: Buffer;
}

export type GtkEncryption =
  | (GtkBlockOptions & {
      readonly method: 'dukptEcb' | 'dukptCbc';
      /** SPE_KEYIDX: the DUKPT data key slot, 0–99. */
      readonly keyIndex: number;
    })
  | (GtkBlockOptions & {
      readonly method: 'mkwkEcb' | 'mkwkCbc';
      /** SPE_KEYIDX: the data master key slot, 0–99. */
      readonly keyIndex: number;
      /** SPE_WKENC: the working key under the MK, 8 or 16 bytes. */
      readonly workingKey: Buffer;
    })
  | (GtkBlockOptions & {
      readonly method: 'randomEcb' | 'randomCbc';
      /** SPE_PBKMOD / SPE_PBKEXP: the key KRAND is sent under (no SPE_KEYIDX). */
      readonly publicKey: GtkPublicKey;
    });

export interface GtkRequest {
  readonly tracks: GtkTracks;
  /** Absent: the data in clear (no SPE_MTHDDAT). */
  readonly encryption?: GtkEncryption;
}

/** What came back; each field is packed (and encrypted when asked) as described above. */
export interface GtkResult {
  readonly pan?: Buffer;
  readonly track1?: Buffer;
  readonly track2?: Buffer;
  readonly track3?: Buffer;
  /** DUKPT KSNs (10 bytes) of each field; equal in ECB mode. */
  readonly ksns?: {
    readonly pan?: Buffer;
    readonly track1?: Buffer;
    readonly track2?: Buffer;
    readonly track3?: Buffer;
  };
  /** PP_ENCKRAND: the random key of a "9x" method under the host's public key (256 bytes). */
  readonly encryptedKey?: Buffer;
}

const FIELDS = [
  ['pan', PP.ENCPAN, PP.ENCPANKSN, 'PP_ENCPAN', 16],
  ['track1', PP.TRACK1, PP.TRK1KSN, 'PP_TRACK1', 88],
  ['track2', PP.TRACK2, PP.TRK2KSN, 'PP_TRACK2', 28],
  ['track3', PP.TRACK3, PP.TRK3KSN, 'PP_TRACK3', 60],
] as const;

function flag(value: boolean | undefined): string {
  return value === true ? '1' : '0';
}

export const gtkCommand: CommandCodec<GtkRequest, GtkResult> = {
  id: 'GTK',
  blocking: false,

  encodeRequest(req: GtkRequest): CommandEnvelope {
    const { tracks, encryption } = req;
    const w = new ParamWriter().digits(
      SPE.TRACKS,
      'SPE_TRACKS',
      `${flag(tracks.pan)}${flag(tracks.track1)}${flag(tracks.track2)}${flag(tracks.track3)}`,
      4,
      4,
    );
    if (encryption !== undefined) {
      const code = METHOD_CODES[encryption.method];
      if (code === undefined)
        throw new InvalidArgumentError(`GTK encryption method must be one of ${Object.keys(METHOD_CODES).join(', ')}.`);
      w.digits(SPE.MTHDDAT, 'SPE_MTHDDAT', code, 2, 2);
      switch (encryption.method) {
        case 'dukptEcb':
        case 'dukptCbc':
          w.n(SPE.KEYIDX, 'SPE_KEYIDX', encryption.keyIndex, 2);
          break;
        case 'mkwkEcb':
        case 'mkwkCbc':
          w.n(SPE.KEYIDX, 'SPE_KEYIDX', encryption.keyIndex, 2);
          if ((encryption.workingKey as Buffer | undefined) === undefined)
            throw new InvalidArgumentError('GTK with a MK/WK method needs the working key.');
          w.bytes(SPE.WKENC, 'SPE_WKENC', encryption.workingKey, 8, 16);
          break;
        default: {
          const publicKey = encryption.publicKey as GtkPublicKey | undefined;
          if (publicKey === undefined)
            throw new InvalidArgumentError("GTK with a random-key method needs the host's RSA public key.");
          w.bytes(SPE.PBKMOD, 'SPE_PBKMOD', publicKey.modulus, GTK_MODULUS_BYTES, GTK_MODULUS_BYTES);
          w.bytes(SPE.PBKEXP, 'SPE_PBKEXP', publicKey.exponent, 1, 3);
        }
      }
      const { iv, openDigits } = encryption;
      if (iv !== undefined) w.bytes(SPE.IVCBC, 'SPE_IVCBC', iv, 8, 8);
      if (openDigits !== undefined) {
        if (![0, 2, 4, 6, 8].includes(openDigits))
          throw new InvalidArgumentError('SPE_OPNDIG must be 0, 2, 4, 6 or 8.');
        w.n(SPE.OPNDIG, 'SPE_OPNDIG', openDigits, 1);
      }
    }
    return { id: 'GTK', blocks: w.blocks() };
  },

  decodeRequest(cmd: CommandEnvelope): GtkRequest {
    const p = new ParamReader(cmd.blocks, 'GTK command', 'MALFORMED_COMMAND');
    // Any SPE_TRACKS length is accepted; a missing or unknown character is "0" (S220 §6.5.12).
    const wanted = p.bytes(SPE.TRACKS, 'SPE_TRACKS', 0, 995)?.toString('latin1') ?? '';
    const tracks: GtkTracks = {
      pan: wanted[0] === '1',
      track1: wanted[1] === '1',
      track2: wanted[2] === '1',
      track3: wanted[3] === '1',
    };
    const code = p.digits(SPE.MTHDDAT, 'SPE_MTHDDAT', 2, 2);
    if (code === undefined) return { tracks };
    const method = METHOD_BY_CODE.get(code);
    if (method === undefined) throw p.error(`SPE_MTHDDAT "${code}" is not a method this PINPAD offers`);
    const iv = p.bytes(SPE.IVCBC, 'SPE_IVCBC', 8, 8);
    const openDigits = p.number(SPE.OPNDIG, 'SPE_OPNDIG', 1);
    if (openDigits !== undefined && openDigits % 2 !== 0) throw p.error('SPE_OPNDIG must be even');
    const blockOptions: GtkBlockOptions = {
      ...(iv !== undefined ? { iv } : {}),
      ...(openDigits !== undefined ? { openDigits } : {}),
    };
    if (method === 'randomEcb' || method === 'randomCbc') {
      // "9x" takes no key slot (S220 §3.3.12: SPE_KEYIDX is mandatory for every other method).
      const modulus = p.required(p.bytes(SPE.PBKMOD, 'SPE_PBKMOD', GTK_MODULUS_BYTES, GTK_MODULUS_BYTES), 'SPE_PBKMOD');
      const exponent = p.required(p.bytes(SPE.PBKEXP, 'SPE_PBKEXP', 1, 3), 'SPE_PBKEXP');
      return { tracks, encryption: { method, publicKey: { modulus, exponent }, ...blockOptions } };
    }
    const keyIndex = p.required(p.number(SPE.KEYIDX, 'SPE_KEYIDX', 2), 'SPE_KEYIDX');
    if (method === 'mkwkEcb' || method === 'mkwkCbc') {
      const workingKey = p.required(p.bytes(SPE.WKENC, 'SPE_WKENC', 8, 16), 'SPE_WKENC');
      return { tracks, encryption: { method, keyIndex, workingKey, ...blockOptions } };
    }
    return { tracks, encryption: { method, keyIndex, ...blockOptions } };
  },

  encodeResponse(res: GtkResult): ResponseEnvelope {
    const w = new ParamWriter();
    for (const [key, id, ksnId, name, max] of FIELDS) {
      const value = res[key];
      if (value === undefined) continue;
      w.bytes(id, name, value, 1, max);
      const ksn = res.ksns?.[key];
      if (ksn !== undefined) w.bytes(ksnId, `${name} KSN`, ksn, 10, 10);
    }
    if (res.encryptedKey !== undefined)
      w.bytes(PP.ENCKRAND, 'PP_ENCKRAND', res.encryptedKey, GTK_ENCRYPTED_KEY_BYTES, GTK_ENCRYPTED_KEY_BYTES);
    return { id: 'GTK', status: 0, blocks: w.blocks() };
  },

  decodeResponse(rsp: ResponseEnvelope): GtkResult {
    const p = new ParamReader(rsp.blocks, 'GTK response', 'MALFORMED_RESPONSE');
    const result: { -readonly [K in keyof GtkResult]: GtkResult[K] } = {};
    const ksns: Record<string, Buffer> = {};
    for (const [key, id, ksnId, name, max] of FIELDS) {
      const value = p.bytes(id, name, 1, max);
      if (value !== undefined) result[key] = value;
      const ksn = p.bytes(ksnId, `${name} KSN`, 10, 10);
      if (ksn !== undefined) ksns[key] = ksn;
    }
    const encryptedKey = p.bytes(PP.ENCKRAND, 'PP_ENCKRAND', GTK_ENCRYPTED_KEY_BYTES, GTK_ENCRYPTED_KEY_BYTES);
    if (encryptedKey !== undefined) result.encryptedKey = encryptedKey;
    return Object.keys(ksns).length > 0 ? { ...result, ksns } : result;
  },
};

/**
 * Digits packed two per byte as GTK sends PAN and tracks 2/3 (S220 §5.4.2.2): '=' (the track 2
 * separator) as D, F-filled to a whole byte and then to a multiple of `block` bytes.
 */
export function packDigits(text: string, block = 8): Buffer {
  if (!/^[0-9=]*$/.test(text)) throw new InvalidArgumentError('Only digits and "=" can be packed.');
  let nibbles = text.replaceAll('=', 'D');
  const bytes = Math.max(block, Math.ceil(nibbles.length / 2 / block) * block);
  nibbles = nibbles.padEnd(bytes * 2, 'F');
  return Buffer.from(nibbles, 'hex');
}

/** The digits of a packed field ('=' for D), without the F filler. */
export function unpackDigits(packed: Buffer): string {
  return packed.toString('hex').toUpperCase().replace(/F+$/, '').replaceAll('D', '=');
}
