/**
 * A bare host for the simulator's specs: it writes PKTDATA it built byte by byte (framed with the
 * link layer's SYN … ETB CRC) and reads back the PINPAD's PKTDATA — in the clear, or in secure
 * communication (S220 §5.2.2) done here with node:crypto from the spec's own description, not with
 * the simulator's code. NTM notifications are set aside in `notifications`.
 */
import { createCipheriv, createDecipheriv, generateKeyPairSync, privateDecrypt, constants } from 'node:crypto';
import { crc16Xmodem } from '../../../drivers/abecs/crc.js';
import { FrameDecoder, encodeFrame } from '../../../drivers/abecs/frame.js';
import type { MemoryTransport } from '../../../drivers/transports/memory.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';

export const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
export const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** One Abecs parameter: CMD_PARID X2, CMD_PARLEN X2, value. */
export function tlv(id: number, value: Buffer | string): Buffer {
  const data = typeof value === 'string' ? latin1(value) : value;
  const header = Buffer.alloc(4);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(data.length, 2);
  return Buffer.concat([header, data]);
}

/** An Abecs command's PKTDATA: CMD_ID + one block (N3 length) of parameters; bare with none. */
export function abecs(id: string, ...params: Buffer[]): Buffer {
  const block = Buffer.concat(params);
  return params.length === 0
    ? latin1(id)
    : Buffer.concat([latin1(id), latin1(String(block.length).padStart(3, '0')), block]);
}

/** A fixed-field command's PKTDATA: CMD_ID + one block. */
export function fixed(id: string, block: Buffer | string): Buffer {
  const data = typeof block === 'string' ? latin1(block) : block;
  return Buffer.concat([latin1(id), latin1(String(data.length).padStart(3, '0')), data]);
}

/** RSP_ID + RSP_STAT of a response, e.g. "GTK000". */
export const head = (raw: Buffer): string => raw.subarray(0, 6).toString('latin1');

/** The response data of a successful Abecs answer, by id (first occurrence). */
export function responseItems(raw: Buffer): Map<number, Buffer> {
  const items = new Map<number, Buffer>();
  let at = 6;
  while (at < raw.length) {
    const length = Number(raw.subarray(at, at + 3).toString('latin1'));
    const block = raw.subarray(at + 3, at + 3 + length);
    at += 3 + length;
    for (let i = 0; i < block.length;) {
      const id = block.readUInt16BE(i);
      const size = block.readUInt16BE(i + 2);
      if (!items.has(id)) items.set(id, Buffer.from(block.subarray(i + 4, i + 4 + size)));
      i += 4 + size;
    }
  }
  return items;
}

/** An RSA-2048 key pair as a host makes for a secure OPN or a random-key GTK. */
export function hostKeyPair(): {
  modulus: Buffer;
  exponent: Buffer;
  /** Raw RSA decryption (no padding): the PKCS #1 block as the PINPAD built it. */
  open: (cryptogram: Buffer) => Buffer;
} {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    modulus: Buffer.from(jwk.n!, 'base64url'),
    exponent: Buffer.from(jwk.e!, 'base64url'),
    open: (cryptogram) => privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, cryptogram),
  };
}

/** The key a PKCS #1 block of S220 §5.2.1 holds, after checking its layout. */
export function keyOfBlock(block: Buffer, keyLength = 16): Buffer {
  if (block[0] !== 0x00 || block[1] !== 0x02) throw new Error('the block does not start with 00 02');
  const separator = block.length - keyLength - 1;
  if (block[separator] !== 0x00) throw new Error('no 00 separator before the key');
  if (block.subarray(2, separator).includes(0x00)) throw new Error('a zero byte in the random padding');
  return Buffer.from(block.subarray(separator + 1));
}

/** Secure communication's packet (S220 §5.2.2.1): DC2 + AES-CBC(KSEC, IV 0) of DATALEN|DATACRC|CLRDATA|00-fill. */
export function sealPacket(ksec: Buffer, clear: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(clear.length, 0);
  header.writeUInt16BE(crc16Xmodem(clear), 2);
  const body = Buffer.concat([header, clear]);
  const padded = Buffer.concat([body, Buffer.alloc((16 - (body.length % 16)) % 16)]);
  const cipher = createCipheriv('aes-128-cbc', ksec, Buffer.alloc(16)).setAutoPadding(false);
  return Buffer.concat([Buffer.from([0x12]), cipher.update(padded), cipher.final()]);
}

/** The CLRDATA of an encrypted packet (S220 §5.2.2.2), after its checks. */
export function openPacket(ksec: Buffer, pktdata: Buffer): Buffer {
  if (pktdata[0] !== 0x12) throw new Error('not an encrypted packet (no DC2)');
  const decipher = createDecipheriv('aes-128-cbc', ksec, Buffer.alloc(16)).setAutoPadding(false);
  const body = Buffer.concat([decipher.update(pktdata.subarray(1)), decipher.final()]);
  const length = body.readUInt16BE(0);
  const clear = body.subarray(4, 4 + length);
  if (4 + length > body.length || crc16Xmodem(clear) !== body.readUInt16BE(2))
    throw new Error('inconsistent encrypted packet');
  return Buffer.from(clear);
}

export class RawHost {
  readonly notifications: string[] = [];
  /** KSEC once a secure OPN was answered (`openSecure`); commands are then encrypted. */
  ksec: Buffer | undefined;
  /** Whether each packet received so far came encrypted, in order (NTMs included). */
  readonly encrypted: boolean[] = [];
  readonly #packets: Buffer[] = [];
  readonly #decoder = new FrameDecoder();
  readonly #transport: MemoryTransport;

  constructor(transport: MemoryTransport) {
    this.#transport = transport;
    transport.on('data', (chunk) => {
      for (const item of this.#decoder.push(chunk)) {
        if (item.kind !== 'packet') continue;
        const secure = item.data[0] === 0x12 && this.ksec !== undefined;
        this.encrypted.push(secure);
        const data = secure ? openPacket(this.ksec!, item.data) : item.data;
        if (data.subarray(0, 3).toString('latin1') === 'NTM')
          this.notifications.push(data.subarray(9).toString('latin1'));
        else this.#packets.push(data);
      }
    });
  }

  /** Writes PKTDATA as is (framed), encrypted or not. */
  write(pktdata: Buffer): Promise<void> {
    return this.#transport.write(encodeFrame(pktdata));
  }

  /** Sends a command — encrypted when secure communication is on — and returns the answer's PKTDATA (opened). */
  async exchange(pktdata: Buffer | string, timeoutMs = 5000): Promise<Buffer> {
    const data = typeof pktdata === 'string' ? latin1(pktdata) : pktdata;
    await this.write(this.ksec ? sealPacket(this.ksec, data) : data);
    return this.response(timeoutMs);
  }

  /** Sends a command in the clear whatever the mode. */
  async exchangeClear(pktdata: Buffer | string, timeoutMs = 5000): Promise<Buffer> {
    await this.write(typeof pktdata === 'string' ? latin1(pktdata) : pktdata);
    return this.response(timeoutMs);
  }

  async response(timeoutMs = 5000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.#packets.length === 0) {
      if (Date.now() > deadline) throw new Error('no response from the simulator');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return this.#packets.shift()!;
  }

  /** A secure OPN (S220 §3.2.2) with a fresh RSA-2048 key; KSEC is taken from CRKSEC. */
  async openSecure(): Promise<Buffer> {
    const pair = hostKeyPair();
    const raw = await this.exchangeClear(secureOpn(pair.modulus, pair.exponent));
    if (head(raw) !== 'OPN000') throw new Error(`secure OPN answered ${head(raw)}`);
    const crksec = Buffer.from(raw.subarray(12).toString('latin1'), 'hex');
    this.ksec = keyOfBlock(pair.open(crksec));
    return raw;
  }
}

/** OPN_OPMODE "0", OPN_MODLEN, OPN_MOD (H), OPN_EXPLEN, OPN_EXP (H). */
export function secureOpn(modulus: Buffer, exponent: Buffer): Buffer {
  return fixed(
    'OPN',
    `0${String(modulus.length).padStart(3, '0')}${modulus.toString('hex').toUpperCase()}${exponent.length}${exponent
      .toString('hex')
      .toUpperCase()}`,
  );
}

/** A simulator on a memory link and a RawHost on the other end; closed by the returned cleanup. */
export async function rawSetup(
  options: PinpadSimulatorOptions = {},
): Promise<{ sim: PinpadSimulator; host: RawHost; close: () => Promise<void> }> {
  const sim = new PinpadSimulator({ timeScale: 0.001, ...options });
  const served = await startMemorySimulator(sim);
  await served.link.host.open();
  return {
    sim,
    host: new RawHost(served.link.host),
    close: async () => {
      await served.link.host.close().catch(() => {});
      await served.close();
    },
  };
}
