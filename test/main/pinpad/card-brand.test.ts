import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../../drivers/simulator/index.js';
import { brandOf } from '../../../main/pinpad/card-brand.js';

describe('brandOf', () => {
  it.each(Object.entries(TEST_CARDS))('names the brand of the simulator test card %s', (_name, card) => {
    expect(brandOf(card.pan.slice(0, 6), card.label)).toBe(card.brand);
    expect(brandOf(card.pan.slice(0, 6))).toBe(card.brand);
  });

  it.each(['401178', '401179', '431274', '438935', '451416', '457393', '457631', '457632'])(
    'takes the Elo BIN %s for Elo although it starts like Visa',
    (bin) => {
      expect(brandOf(bin)).toBe('elo');
    },
  );

  it.each(['401177', '401180', '431273', '457630', '457633'])('leaves the neighbouring BIN %s to Visa', (bin) => {
    expect(brandOf(bin)).toBe('visa');
  });

  it.each([
    '504175',
    '506699',
    '506720',
    '506778',
    '509000',
    '509555',
    '509999',
    '627780',
    '636297',
    '636368',
    '650031',
    '650033',
    '650035',
    '650051',
    '650405',
    '650439',
    '650485',
    '650538',
    '650541',
    '650598',
    '650700',
    '650718',
    '650720',
    '650727',
    '650901',
    '650920',
    '651652',
    '651679',
    '655000',
    '655019',
    '655021',
    '655058',
  ])('knows the published Elo BIN %s', (bin) => {
    expect(brandOf(bin)).toBe('elo');
  });

  it.each(['506698', '506779', '650034', '650052', '650719', '655020', '655059', '650921'])(
    'does not stretch the Elo ranges to %s',
    (bin) => {
      expect(brandOf(bin)).not.toBe('elo');
    },
  );

  it.each(['606282', '384100', '384140', '384160'])('knows the Hipercard BIN %s', (bin) => {
    expect(brandOf(bin)).toBe('hipercard');
  });

  it('knows American Express by 34 and 37', () => {
    expect(brandOf('340000')).toBe('amex');
    expect(brandOf('378282')).toBe('amex');
    expect(brandOf('360000')).toBe('unknown');
  });

  it('knows Mastercard by 51–55 and 2221–2720', () => {
    for (const bin of ['510000', '559999', '222100', '250000', '272099']) expect(brandOf(bin)).toBe('mastercard');
    for (const bin of ['500000', '560000', '222099', '272100']) expect(brandOf(bin)).not.toBe('mastercard');
  });

  it('reads the leading digits of a masked PAN', () => {
    expect(brandOf('411111******1111')).toBe('visa');
    expect(brandOf('636297******7013')).toBe('elo');
  });

  it('falls back to the application label when the BIN says nothing', () => {
    expect(brandOf('999999', 'ELO DEBITO')).toBe('elo');
    expect(brandOf('999999', 'VISA ELECTRON')).toBe('visa');
    expect(brandOf('999999', 'MAESTRO')).toBe('mastercard');
    expect(brandOf('999999', 'Hipercard')).toBe('hipercard');
    expect(brandOf('999999', 'American Express')).toBe('amex');
    expect(brandOf('999999', 'CREDITO')).toBe('unknown');
    expect(brandOf('999999')).toBe('unknown');
  });

  it('lets a label naming Elo or Hipercard win over a Visa or Mastercard prefix, never over a listed BIN', () => {
    expect(brandOf('498765', 'ELO CREDITO')).toBe('elo');
    expect(brandOf('530000', 'HIPERCARD')).toBe('hipercard');
    expect(brandOf('636297', 'VISA CREDITO')).toBe('elo');
    expect(brandOf('411111', 'MASTERCARD')).toBe('visa');
  });

  it('answers unknown for anything that is not a card number', () => {
    expect(brandOf('')).toBe('unknown');
    expect(brandOf('******')).toBe('unknown');
  });
});
