/**
 * TDES DUKPT against the test vectors of ANSI X9.24-1 Annex A: the test BDK, the initial KSN
 * FFFF9876543210E00000, the PIN 1234 on PAN 4012345678909.
 */
import { describe, expect, it } from 'vitest';
import {
  dataKey,
  initialKey,
  ksnCounter,
  pinBlockFormat0,
  pinKey,
  pinOfBlock,
  tdesCbcDecrypt,
  tdesCbcEncrypt,
  tdesDecrypt,
  tdesEncrypt,
  TEST_BDK,
  transactionKey,
  withCounter,
} from '../../../drivers/crypto/dukpt.js';

const hex = (text: string): Buffer => Buffer.from(text, 'hex');
const KSN = (counter: string): Buffer => hex(`FFFF9876543210${counter}`);
const IPEK = '6AC292FAA1315B4D858AB3A3D7D5933A';

describe('DUKPT (ANSI X9.24-1:2009, TDES)', () => {
  it('derives the initial key from the BDK and the initial KSN', () => {
    expect(initialKey(TEST_BDK, KSN('E00000')).toString('hex').toUpperCase()).toBe(IPEK);
    // The counter does not change the initial key.
    expect(initialKey(TEST_BDK, KSN('E00007')).toString('hex').toUpperCase()).toBe(IPEK);
  });

  it.each([
    ['E00001', '042666B49184CFA368DE9628D0397BC9', '1B9C1845EB993A7A'],
    ['E00002', 'C46551CEF9FD24B0AA9AD834130D3BC7', '10A01C8D02C69107'],
    ['E00003', '0DF3D9422ACA56E547676D07AD6BADFA', '18DC07B94797B466'],
  ])(
    'gives KSN …%s its key and encrypts the Annex A PIN block with its PIN variant',
    (counter, key, encryptedBlock) => {
      const ipek = hex(IPEK);
      expect(transactionKey(ipek, KSN(counter)).toString('hex').toUpperCase()).toBe(key);
      const block = pinBlockFormat0('1234', '4012345678909');
      expect(block.toString('hex').toUpperCase()).toBe('041274EDCBA9876F');
      expect(
        tdesEncrypt(pinKey(ipek, KSN(counter)), block)
          .toString('hex')
          .toUpperCase(),
      ).toBe(encryptedBlock);
      expect(pinOfBlock(tdesDecrypt(pinKey(ipek, KSN(counter)), hex(encryptedBlock)), '4012345678909')).toBe('1234');
    },
  );

  it('gives each transaction a different data key, and data encrypted under it opens only with it', () => {
    const ipek = hex(IPEK);
    const one = dataKey(ipek, KSN('E00001'));
    const two = dataKey(ipek, KSN('E00002'));
    expect(one.equals(two)).toBe(false);
    expect(one.equals(pinKey(ipek, KSN('E00001')))).toBe(false);
    const track = hex('4012888888881881D3012101FFFFFFFF');
    expect(tdesDecrypt(one, tdesEncrypt(one, track))).toEqual(track);
    expect(tdesDecrypt(two, tdesEncrypt(one, track)).equals(track)).toBe(false);
    const iv = hex('0102030405060708');
    expect(tdesCbcDecrypt(one, tdesCbcEncrypt(one, track, iv), iv)).toEqual(track);
  });

  it('reads and sets the 21-bit counter without touching the rest of the KSN', () => {
    expect(ksnCounter(KSN('E00400'))).toBe(0x400);
    expect(ksnCounter(hex('FFFF98765432101FFFFF'))).toBe(0x1fffff);
    expect(withCounter(KSN('E00000'), 0x1fffff).toString('hex').toUpperCase()).toBe('FFFF9876543210FFFFFF');
    expect(() => withCounter(KSN('E00000'), 0x200000)).toThrow(RangeError);
    expect(() => ksnCounter(hex('FFFF'))).toThrow(RangeError);
  });

  it('builds ISO 9564 format 0 blocks, padding short PANs with zeros, and refuses what is not a PIN or a PAN', () => {
    expect(pinOfBlock(pinBlockFormat0('123456789012', '670192387'), '670192387')).toBe('123456789012');
    expect(pinOfBlock(pinBlockFormat0('1234', '4111111111111111'), '4111111111111121')).toBeUndefined();
    expect(() => pinBlockFormat0('123', '4111111111111111')).toThrow(RangeError);
    expect(() => pinBlockFormat0('1234', '41111x')).toThrow(RangeError);
    expect(() => tdesEncrypt(hex('00'), hex('0000000000000000'))).toThrow(RangeError);
  });
});
