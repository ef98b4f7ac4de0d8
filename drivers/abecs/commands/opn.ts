/**
 * OPN — open (abecs.md §3.2). Classic form: no data, sent as bare `OPN` (the spec's worked frame
 * `16 4F 50 4E 17 A8 A9`); `OPN000` is accepted too. Secure form: the SPE's RSA-2048 public key
 * (`OPN_OPMODE` "0", `OPN_MODLEN` "256", modulus H512, exponent length N1 + exponent H..6);
 * the PINPAD answers `OPN_CRKSLEN` "256" + `OPN_CRKSEC` H512 (its session key under that RSA
 * key). A pre-Abecs PINPAD answers a secure OPN with a plain `OPN000`, hence `crksec` optional.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { commandBlock, okResponse, responseBlock } from './basic-support.js';

const ID = 'OPN';
/** RSA-2048: 256 bytes of modulus, 512 hex digits. */
const MODULUS_BYTES = 256;

export interface OpnPublicKey {
  /** 512 hex digits. */
  readonly modulus: string;
  /** 1–3 bytes as hex, e.g. "010001". */
  readonly exponent: string;
}

export interface OpnRequest {
  /** Present for the secure OPN that starts "Comunicação Segura". */
  readonly publicKey?: OpnPublicKey;
}

export interface OpnResult {
  /** RSA-encrypted session key (H512), present when a secure OPN was accepted. */
  readonly crksec?: string;
}

export const opnCommand: CommandCodec<OpnRequest, OpnResult> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    if (!req.publicKey) return { id: ID, blocks: [] };
    const { modulus, exponent } = req.publicKey;
    if (!/^[0-9A-Fa-f]{512}$/.test(modulus)) {
      throw new InvalidArgumentError('The OPN RSA modulus must be 512 hex digits (a 2048-bit key).');
    }
    if (!/^(?:[0-9A-Fa-f]{2}){1,3}$/.test(exponent)) {
      throw new InvalidArgumentError('The OPN RSA exponent must be 1 to 3 bytes of hex, e.g. "010001".');
    }
    const block = new FieldWriter()
      .n('OPN_OPMODE', 0, 1)
      .n('OPN_MODLEN', MODULUS_BYTES, 3)
      .h('OPN_MOD', modulus, MODULUS_BYTES * 2)
      .n('OPN_EXPLEN', exponent.length / 2, 1)
      .h('OPN_EXP', exponent)
      .toBuffer();
    return { id: ID, blocks: [block] };
  },

  decodeRequest(cmd) {
    const block = commandBlock(cmd);
    if (!block) return {};
    const r = new FieldReader(block, 'OPN command', 'MALFORMED_COMMAND');
    if (r.digits('OPN_OPMODE', 1) !== '0') throw r.error('OPN_OPMODE must be "0"');
    if (r.n('OPN_MODLEN', 3) !== MODULUS_BYTES) throw r.error(`OPN_MODLEN must be ${MODULUS_BYTES}`);
    const modulus = r.hex('OPN_MOD', MODULUS_BYTES * 2);
    const exponentBytes = r.n('OPN_EXPLEN', 1);
    if (exponentBytes < 1 || exponentBytes > 3) throw r.error('OPN_EXPLEN must be 1 to 3');
    const exponent = r.hex('OPN_EXP', exponentBytes * 2);
    r.end();
    return { publicKey: { modulus, exponent } };
  },

  encodeResponse(res) {
    if (res.crksec === undefined) return okResponse(ID);
    const block = new FieldWriter()
      .n('OPN_CRKSLEN', MODULUS_BYTES, 3)
      .h('OPN_CRKSEC', res.crksec, MODULUS_BYTES * 2)
      .toBuffer();
    return okResponse(ID, [block]);
  },

  decodeResponse(rsp) {
    const block = responseBlock(rsp);
    if (!block) return {};
    const r = new FieldReader(block, 'OPN response');
    if (r.n('OPN_CRKSLEN', 3) !== MODULUS_BYTES) throw r.error(`OPN_CRKSLEN must be ${MODULUS_BYTES}`);
    const crksec = r.hex('OPN_CRKSEC', MODULUS_BYTES * 2);
    r.end();
    return { crksec };
  },
};
