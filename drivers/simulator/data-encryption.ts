/**
 * The data keys GTK and EBX encrypt with (S220 §3.3.6, §3.3.12, §5.1, §5.4.2, §6.3.4.2), one per
 * SPE_MTHDDAT:
 *
 * - "10"/"11" MK/WK:TDES:DAT, ECB/CBC: the working key SPE_WKENC opened under the test master key
 *   of data slot SPE_KEYIDX (keys.ts);
 * - "30" DUKPT:TDES:DAT#1 (ECB) and "50"/"51" DUKPT:TDES:DAT#3 (ECB/CBC): the DUKPT data key of
 *   slot SPE_KEYIDX. In ECB every block of the answer uses one transaction key (one KSN, §5.1.2,
 *   §6.3.4.2); in CBC every field has a key and KSN of its own;
 * - "90"/"91" random key, ECB/CBC: a fresh 16-byte TDES key KRAND per GTK, never reused, handed to
 *   the host as PP_ENCKRAND — KRAND in the PKCS #1 block of §5.2.1 under SPE_PBKMOD/SPE_PBKEXP;
 * - "00"/"01" MK/WK:DES: the simulated PINPAD holds no (obsolete, optional, §5.1) DES key.
 *
 * A slot without a key is ST_ERRKEY, checked when the sealer is made — before any card data
 * leaves the PINPAD's memory. CBC starts each field from SPE_IVCBC (zeros when absent).
 */
import { randomBytes } from 'node:crypto';
import { tdesCbcEncrypt, tdesEncrypt } from '../crypto/dukpt.js';
import { ST, StatusReply } from './handler.js';
import { openWorkingKey } from './keys.js';
import { keyLoaded } from './profiles.js';
import { encryptKeyForHost, usablePublicKey, type RsaPublicKey } from './rsa.js';
import type { DeviceState } from './state.js';
import type { DataMethod } from './wire/commands/security.js';

export interface DataEncryption {
  readonly method: DataMethod;
  /** SPE_KEYIDX (absent for the random-key methods). */
  readonly keyIndex?: number;
  /** SPE_WKENC (MK/WK methods). */
  readonly workingKey?: Buffer;
  /** SPE_IVCBC, zeros when absent. */
  readonly iv: Buffer;
  /** SPE_PBKMOD / SPE_PBKEXP (random-key methods). */
  readonly publicKey?: RsaPublicKey;
}

export interface DataSealer {
  /** Encrypts one field (a multiple of 8 bytes); `ksn` under DUKPT. */
  encrypt(data: Buffer): { readonly data: Buffer; readonly ksn?: Buffer };
  /** PP_ENCKRAND (random-key methods). */
  readonly encryptedKey?: Buffer;
}

/** A TDES key of 16 bytes. */
const KRAND_BYTES = 16;

function cipherOf(key: Buffer, cbc: boolean, iv: Buffer): (data: Buffer) => Buffer {
  return (data) => (cbc ? tdesCbcEncrypt(key, data, iv) : tdesEncrypt(key, data));
}

function requireSlot(loaded: boolean): void {
  if (!loaded) throw new StatusReply(ST.ERRKEY);
}

/**
 * The sealer of one GTK or EBX answer; throws StatusReply ST_ERRKEY (no key in the slot or a DES
 * method) or ST_INVPARM (a public key no PINPAD could encrypt under).
 */
export function dataSealer(device: DeviceState, encryption: DataEncryption): DataSealer {
  const { method, iv } = encryption;
  const slot = encryption.keyIndex ?? 0;
  switch (method) {
    case 'mkwkDesEcb':
    case 'mkwkDesCbc':
      throw new StatusReply(ST.ERRKEY);
    case 'mkwkEcb':
    case 'mkwkCbc': {
      requireSlot(keyLoaded(device.keys.mkData, slot));
      const workingKey = openWorkingKey('data', slot, encryption.workingKey!);
      const encrypt = cipherOf(workingKey, method === 'mkwkCbc', iv);
      return { encrypt: (data) => ({ data: encrypt(data) }) };
    }
    case 'dukptDat1Ecb':
    case 'dukptEcb': {
      requireSlot(keyLoaded(device.keys.dukptData, slot));
      // One transaction key for the whole answer (§6.3.4.2 "Modo ECB"), taken at the first field.
      let shared: { ksn: Buffer; key: Buffer } | undefined;
      return {
        encrypt(data) {
          shared ??= device.dukpt.use('data', slot, method === 'dukptDat1Ecb' ? 'dat1' : 'dat3');
          return { data: tdesEncrypt(shared.key, data), ksn: shared.ksn };
        },
      };
    }
    case 'dukptCbc': {
      requireSlot(keyLoaded(device.keys.dukptData, slot));
      // "Modo CBC": every field on its own key and KSN.
      return {
        encrypt(data) {
          const { ksn, key } = device.dukpt.use('data', slot);
          return { data: tdesCbcEncrypt(key, data, iv), ksn };
        },
      };
    }
    case 'randomEcb':
    case 'randomCbc': {
      const publicKey = encryption.publicKey;
      if (publicKey === undefined || !usablePublicKey(publicKey, KRAND_BYTES)) throw new StatusReply(ST.INVPARM);
      // "Esta chave deve ser gerada a cada execução do comando GTK e não pode ser reutilizada."
      const krand = randomBytes(KRAND_BYTES);
      const encrypt = cipherOf(krand, method === 'randomCbc', iv);
      return { encrypt: (data) => ({ data: encrypt(data) }), encryptedKey: encryptKeyForHost(krand, publicKey) };
    }
  }
}
