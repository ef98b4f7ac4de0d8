/**
 * Secure communication on the simulated PINPAD (S220 §3.2.2, §5.2, §6.3.2, §6.4.1, §6.4.5): a
 * secure OPN gets CRKSEC, then commands, answers and notifications travel AES-encrypted. Checked
 * against the spec's own worked examples and, on the wire, by a host that does the cryptography
 * itself with node:crypto (raw-host.ts).
 */
import { createCipheriv } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { encryptKeyForHost, pkcs1Block, rsaEncrypt } from '../../../drivers/simulator/rsa.js';
import { openPacket, sealPacket } from '../../../drivers/simulator/wire/secure.js';
import { crc16Xmodem } from '../../../drivers/abecs/crc.js';
import type { PinpadSimulatorOptions } from '../../../drivers/simulator/index.js';
import {
  abecs,
  fixed,
  head,
  hex,
  hostKeyPair,
  keyOfBlock,
  latin1,
  rawSetup,
  secureOpn,
  tlv,
  type RawHost,
} from './raw-host.js';
import { TRACE_OPN } from './trace.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function open(options: PinpadSimulatorOptions = {}): Promise<RawHost> {
  const { host, close } = await rawSetup({ profile: 'strict', ...options });
  cleanups.push(close);
  return host;
}

/** The KSEC of every example in S220 §3.2.2 and §5.2.2. */
const KSEC = hex('DB3B4D015432AB3223555A1F81759A94');

/** GIX asking PP_SERNUM, PP_MNNAME, PP_DKPTDESP, PP_KSNTDESP01 and 14: the CLRDATA of §5.2.2.1. */
const GIX014 = hex('47 49 58 30 31 34 00 01 00 0A 80 01 80 04 80 34 91 01 91 0E');
const GIX014_SEALED = hex(`12 EA 22 9E DD 36 F8 4C 2A A7 E0 02 75 10 5C 3A
  8A 78 7F C9 B2 88 35 40 AE E8 27 BA 1C 5A 03 94 96`);

/** The encrypted answer of §5.2.2.2 and its CLRDATA ("GIX000151…"). */
const GIX_ANSWER_SEALED = hex(`12 BA 90 C3 82 65 12 69 B2 2D 0E FC 90 B9 2B C3
  08 83 71 38 6A 69 B9 A7 A8 5B C6 AC 76 E4 84 37 BC 73 A2 02 86 EC B6 73 A4 93 4C 85 35 4E 47 16
  0F 27 2E 1A 2B 53 BA C1 B7 95 85 9E 4C 62 2F C8 66 1A 4B AE 1F EE 45 09 75 B7 CA 04 20 C6 18 A1
  FC 74 47 65 C3 E7 08 AF 56 02 25 6B 75 A9 07 C3 F9 A2 56 89 CB 11 23 9C 01 E3 6F C6 18 B4 17 A0
  2A 21 77 E3 C3 C8 73 B1 F0 6E 3B D6 20 8F F2 B4 96 A2 B0 BD F8 12 32 FD A0 97 30 0C 7D 19 B0 07
  DD C1 7E 6D EF 8B E7 BB 0E 82 58 8C 07 11 C0 1B 39 B1 21 BB 8C 66 E3 E0 31 3C 82 69 27 FB 7F 13
  36`);
const GIX_ANSWER = Buffer.concat([
  latin1('GIX000151'),
  hex('80 01 00 0C'),
  latin1('991274366155'),
  hex('80 04 00 0D'),
  latin1('HEMISPHERES  '),
  hex('80 34 00 64'),
  latin1('0111001100' + '0'.repeat(15) + '2'.repeat(75)),
  hex('91 01 00 0A FF FF F9 13 25 00 43 20 04 43'),
]);

/** §3.2.2's secure OPN: the host's modulus (exponent 0Dh), private exponent, CRKSEC, and CRKSEC opened. */
const SPEC_MODULUS = hex(
  'A82A660B3C49226EFCDABA7FC68066B83D23D0560EDA3A12B63E9132F299FBF340A5AEBC4CD5DC1F14873F83A80BA9A88D3FEA' +
    'BBAB41DFFC1944BBBAA89F26AF9CC28FF31C497EB91D82F8613E7463C47529FBD1925FD3326A8DC027704DA68860E68BD0A1CE' +
    'A8DE6EC75604CD3D9A6AF38822DE45AAA0C9FBF2BD4783B0F9A81F6350C0188156F908FAB1F559CFCE1F91A393431E8BF2CD78' +
    'C04BD530DB441091CDFFB400DAC08B1450DB65C00E2D4AF4E9A85A1A19B61F550F0C289B14BD63DF8A1539A8CF629F98F88EA9' +
    '44D9056675000F95BFD0FEFC56F9D9D66E2701BDBD71933191AE9928F5D623FE8B99ECC777444FFAA83DE456F5C8D3C83EC511AF',
);
const SPEC_PRIVATE =
  hex(`40 AD D8 7A 79 A5 F9 8D 26 2C BD E2 60 0A 00 1F 79 FA 15 0D 68 2C 8C 7D 59 C9 4B 89 BF C5 12 22
  7B 53 6A 97 31 3E 8F BD 2F 47 B5 F7 8F 66 F2 7B E7 8E BC BE 55 8F 7D 88 58 7C E5 BD F2 15 D3 CD
  63 AD 4B 0E BC 1C 44 6E 95 32 5F 87 DC F1 B0 37 DE 4B 39 77 FD 38 8C 4E 77 C0 5D 99 03 CF 18 AA
  9B 6C 5D 28 DB C5 A3 69 3E 4C AA EE 27 8D D8 EE 0E E5 97 41 CC 06 8C 9C 74 98 70 2F 32 A6 87 67
  6B A0 D1 02 AD F1 70 45 5D E2 6B 71 6E 0A C1 CA 13 93 71 D0 B5 27 5F 0B 93 F7 07 9F 2F 9C F0 1D
  21 D6 C0 D4 1E 21 2E 20 FE 40 C1 E3 AF AF 73 47 3F 5B 7C 16 79 01 A9 5B 49 44 80 4E DC D6 8D 4C
  A4 E2 C5 D3 3C BF 88 AC 42 71 2C ED 32 47 9A 03 6B 48 9F 38 23 D8 B8 63 FA 9C EB 9E 5A 4C ED AB
  AD 25 19 11 D4 F9 20 D1 5D 72 B5 47 A0 AD 21 27 6E 9C FD 79 F8 7B 83 0C 32 B7 65 05 68 D8 EB D5`);
const SPEC_CRKSEC = hex(
  '4E5805E5ACF3BE4A3FD27300E682DDB028DC43223D6D2E59DB12BCB52D238D1875CF19A69FE4052B7FED0160ADF3006D8D66' +
    '156AA1A0A55E2F1A045322FED5945B2F4A7A6E66C8D2FA97479D31B106FEC1A59370184AC6373B1053DA9BE7DC01B2AA18C2' +
    '08E1C0779C0CCD7D4496E5326E98AE744CCC58CA7B4630D96DD37FB7B79D6FBA793018C92C61516939CCA12D19241461605D' +
    '589082BB5ED79E5AE720C9DCC07250FEE527D18AD8AB3749E2EE0D48D9BC2E0AED75AD749E11A379C37B68401048AD79DE25' +
    '4E0B45E143EBD0797C83F7AD88D255F19153C80B159BEA4F5E604EFA98D09193FB9BE4FE922BC1D1BFD9791E7764C625AE3E85BDCC8903BD',
);
const SPEC_OPENED = hex(`00 02 FA 6D BD 58 30 43 21 4C A1 BA EA EA 54 F2 DB 72 2E 7F 96 41 89 7D C7 57 DB 31 6C 79 88 07
  C1 27 AA 16 88 6D 4E 31 0A CC 97 1B 0B 2D 1F 22 60 DD B1 E7 15 17 AC 33 5F FB CD B3 16 C7 98 80
  7B 78 BE 8B 96 BE 37 97 A0 3C BD 23 C8 7A 92 CD 26 BD C7 37 E3 8C 39 4C 96 D9 70 96 75 B1 FA 7C
  49 2E E2 23 B7 1D BD 63 6E 87 FE A8 C0 46 F4 9C F9 B4 45 FA 57 FA 6D BD 58 30 43 21 4C A1 BA EA
  EA 54 F2 DB 72 2E 7F 96 41 89 7D C7 57 DB 31 6C 79 88 07 C1 27 AA 16 88 6D 4E 31 0A CC 97 1B 0B
  2D 1F 22 60 DD B1 E7 15 17 AC 33 5F FB CB 78 BE 8B 96 BE 37 97 A0 3C BD 23 C8 7A 92 CD 26 BD C7
  37 E3 8C 39 4C 96 D9 70 96 75 B1 FA 7C 49 2E E2 23 B7 1D BD 63 6E 87 FE A8 C0 46 F4 9C F9 B4 45
  FA 57 6E 87 FE A8 C0 46 F4 9C F9 B4 45 FA 57 00 DB 3B 4D 01 54 32 AB 32 23 55 5A 1F 81 75 9A 94`);

/** Raw RSA with the spec's private exponent: what the SPE of §3.2.2 does to CRKSEC. */
function openWithSpecKey(cryptogram: Buffer): Buffer {
  const n = BigInt(`0x${SPEC_MODULUS.toString('hex')}`);
  let result = 1n;
  let base = BigInt(`0x${cryptogram.toString('hex')}`) % n;
  for (let e = BigInt(`0x${SPEC_PRIVATE.toString('hex')}`); e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % n;
    base = (base * base) % n;
  }
  return Buffer.from(result.toString(16).padStart(512, '0'), 'hex');
}

describe("the spec's worked examples", () => {
  it('seals the GIX014 of §5.2.2.1 under KSEC into the published PKTDATA', () => {
    expect(sealPacket(KSEC, GIX014)).toEqual(GIX014_SEALED);
    expect(openPacket(KSEC, GIX014_SEALED)).toEqual(GIX014);
  });

  it('opens the encrypted GIX answer of §5.2.2.2 to its CLRDATA', () => {
    expect(openPacket(KSEC, GIX_ANSWER_SEALED)).toEqual(GIX_ANSWER);
  });

  it('refuses an encrypted packet that fails a check of §5.2.2.2', () => {
    // Not a multiple of 16 after DC2.
    expect(openPacket(KSEC, GIX014_SEALED.subarray(0, 30))).toBeUndefined();
    // DATACRC that does not match, and DATALEN larger than the packet.
    const forged = (header: string): Buffer => {
      const cipher = createCipheriv('aes-128-cbc', KSEC, Buffer.alloc(16)).setAutoPadding(false);
      const body = Buffer.concat([hex(header), GIX014, Buffer.alloc(8)]);
      return Buffer.concat([Buffer.of(0x12), cipher.update(body), cipher.final()]);
    };
    expect(openPacket(KSEC, forged('0014 0000'))).toBeUndefined();
    expect(openPacket(KSEC, forged(`0040 ${crc16Xmodem(GIX014).toString(16).padStart(4, '0')}`))).toBeUndefined();
    expect(openPacket(KSEC, forged(`0014 ${crc16Xmodem(GIX014).toString(16).padStart(4, '0')}`))).toEqual(GIX014);
  });

  it("reproduces §3.2.2's CRKSEC from its opened block and the host's key (exponent 0Dh)", () => {
    const key = { modulus: SPEC_MODULUS, exponent: hex('0D') };
    expect(rsaEncrypt(SPEC_OPENED, key)).toEqual(SPEC_CRKSEC);
    expect(keyOfBlock(openWithSpecKey(SPEC_CRKSEC))).toEqual(KSEC);
    // A CRKSEC of the simulator's own opens with the spec's private key to a block of §5.2.1.
    expect(keyOfBlock(openWithSpecKey(encryptKeyForHost(KSEC, key)))).toEqual(KSEC);
    const block = pkcs1Block(KSEC, 256);
    expect(block.subarray(2, 239).includes(0)).toBe(false);
  });
});

const GIX_SERIAL = abecs('GIX', tlv(0x0001, hex('8001')));

describe('secure communication on the wire', () => {
  it('answers a secure OPN with OPN000515 and CRKSEC, then speaks encrypted (answers and NTMs)', async () => {
    const host = await open({ autoCustomer: { delayMs: 1, card: 'visaContactless' } });
    const opened = await host.openSecure();
    expect(opened.subarray(0, 12).toString('latin1')).toBe('OPN000515256');
    const seen = host.encrypted.length;
    const gix = await host.exchange(GIX_SERIAL);
    expect(head(gix)).toBe('GIX000');
    expect(gix.toString('latin1')).toContain('SIM0000000000220');
    const read = await host.exchange(
      abecs('GCX', tlv(0x0013, '000000001000'), tlv(0x0015, '261126'), tlv(0x0016, '120000'), tlv(0x0017, '10000')),
    );
    expect(head(read)).toBe('GCX000');
    expect(host.notifications.some((text) => text.startsWith('SELECIONADO:'))).toBe(true);
    // Everything since the OPN answer came encrypted: the GIX, the NTM and the GCX answer.
    expect(host.encrypted.slice(seen)).toEqual([true, true, true]);
  });

  it('answers a clear command with <ID>009 in clear and keeps the session', async () => {
    const host = await open();
    await host.openSecure();
    const count = host.encrypted.length;
    expect((await host.exchangeClear(GIX_SERIAL)).toString('latin1')).toBe('GIX009');
    expect(host.encrypted[count]).toBe(false);
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
  });

  it('answers ERR009 in clear to an inconsistent packet and ends secure communication', async () => {
    const host = await open();
    await host.openSecure();
    const bad = Buffer.concat([Buffer.of(0x12), Buffer.alloc(20, 0x55)]);
    expect((await host.exchangeClear(bad)).toString('latin1')).toBe('ERR009');
    // KSEC is gone: an encrypted packet is now ERR003, a clear one is served.
    expect((await host.exchange(GIX_SERIAL)).toString('latin1')).toBe('ERR003');
    host.ksec = undefined;
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
  });

  it('answers an encrypted OPN with OPN010 in clear and closes the PINPAD', async () => {
    const host = await open();
    await host.openSecure();
    expect((await host.exchange('OPN')).toString('latin1')).toBe('OPN010');
    expect((await host.exchange(GIX_SERIAL)).toString('latin1')).toBe('ERR003');
  });

  it('answers an encrypted CLO in clear and ends secure communication; a new secure OPN starts another', async () => {
    const host = await open();
    await host.openSecure();
    const first = host.ksec!;
    const count = host.encrypted.length;
    expect((await host.exchange(fixed('CLO', 'OBRIGADO'.padEnd(32)))).toString('latin1')).toBe('CLO000');
    expect(host.encrypted[count]).toBe(false);
    expect((await host.exchange(GIX_SERIAL)).toString('latin1')).toBe('ERR003');
    host.ksec = undefined;
    await host.openSecure();
    expect(host.ksec!.equals(first)).toBe(false);
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
  });

  it('accepts a new OPN in clear during secure communication (classic: secure communication off)', async () => {
    const host = await open();
    await host.openSecure();
    expect((await host.exchangeClear('OPN')).toString('latin1')).toBe('OPN000');
    host.ksec = undefined;
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
  });

  it('answers ERR003 to an encrypted packet before any secure OPN', async () => {
    const host = await open();
    expect((await host.exchangeClear(sealPacket(KSEC, GIX014))).toString('latin1')).toBe('ERR003');
  });

  it('answers OPN011 to a public key no PINPAD can encrypt under (an even modulus)', async () => {
    const host = await open();
    const pair = hostKeyPair();
    const even = Buffer.from(pair.modulus);
    even[255] = even[255]! & 0xfe;
    expect((await host.exchangeClear(secureOpn(even, pair.exponent))).toString('latin1')).toBe('OPN011');
  });

  it('ppc930: answers the TRACE secure OPN523 with OPN000515 and a 256-byte CRKSEC, as the real one did', async () => {
    const host = await open({ profile: 'ppc930' });
    const raw = await host.exchangeClear(TRACE_OPN);
    expect(raw.subarray(0, 12).toString('latin1')).toBe('OPN000515256');
    expect(raw.subarray(12).toString('latin1')).toMatch(/^[0-9A-F]{512}$/);
  });
});
