/**
 * No card data from the POS, against the real server: a card number or a magnetic track in any
 * field a POS sends is refused with CARD_DATA_REFUSED naming the field, before anything is
 * stored, logged or sent to the payments API; a store's own numeric order numbers still sell.
 * What was refused is then searched for in every file the agent wrote (journal and its WAL, the
 * clients database and its WAL, the log).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardDataIn } from '../../../../drivers/card-number.js';
import { findHeaderCardData, findPosCardData, mayHoldCardData } from '../../../../main/pos/server/card-data-guard.js';
import { recordSecrets } from '../../../helpers/card-data-scan.js';
import { checkedCall, checkedFailure, openSocket, posRig, RpcClient, type PosRig } from '../pos-rig.js';

const REFUSED = {
  pan: '5555555555554444',
  track2: '2223000048400011=28122011234567890',
  grouped: '4111 1111 1111 1111',
  posName: 'Caixa 5105105105105100',
  track1: '%B6362970000457013^TESTE/ELO^3012',
};
recordSecrets(Object.values(REFUSED));

let pos: PosRig;
let cashier: RpcClient;
beforeAll(async () => {
  // Refusals are logged as a summary per interval: a short one, so the spec reads it.
  pos = await posRig({ refusalSummaryMs: 100 });
  cashier = await pos.paired('Caixa 1');
});
afterAll(async () => {
  await cashier.close();
  await pos.close();
});

const sale = (reference: string, extra: Record<string, unknown> = {}) => ({
  reference_id: reference,
  amount: 1234,
  payment_type: 'credit',
  installments: 1,
  description: 'Pedido',
  ...extra,
});

/** Every file the agent wrote (the journal and its WAL, the log; clients.db and its WAL, the receipts), as text. */
function everythingWritten(): string {
  return [dirname(pos.rig.journalPath), dirname(pos.printDir)]
    .flatMap((dir) => readdirSync(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
}

describe('findPosCardData: which field of the params', () => {
  it('names the field, however deep', () => {
    expect(findPosCardData({ buyer: { address: { line1: `Rua ${REFUSED.grouped}` } } })).toEqual({
      field: 'buyer.address.line1',
      kind: 'card_number',
    });
    expect(findPosCardData({ metadata: [{ note: 'ok' }, { note: REFUSED.track2 }] })).toEqual({
      field: 'metadata.1.note',
      kind: 'track',
    });
  });

  it('leaves alone what is digits by nature, the serial of a PINPAD the agent has, and generated hex ids in their fields', () => {
    // A 14-digit tax id that starts like a card and passes the Luhn check, a bank account, a PINPAD serial.
    const attached = (serial: string): boolean => serial === '34028316000109';
    expect(
      findPosCardData(
        { taxpayer_id: '34028316000109', account_number: '34028316000109', terminal: '34028316000109' },
        { knownTerminal: attached },
      ),
    ).toBeUndefined();
    // A terminal no PINPAD has is text the POS typed, searched like any other.
    expect(findPosCardData({ terminal: '34028316000109' })).toEqual({ field: 'terminal', kind: 'card_number' });
    // Inside metadata no key is left out: any key may be chosen there.
    expect(findPosCardData({ metadata: { barcode: REFUSED.pan } })).toEqual({
      field: 'metadata.barcode',
      kind: 'card_number',
    });
    expect(findPosCardData({ payment_id: 'a3f94111111111111111bcdefabcdefa' })).toBeUndefined();
    expect(
      findPosCardData({ pairing_id: 'pair_a3f94111111111111111bcdefabcdefa', client_id: 'cli_4111111111111111' }),
    ).toBeUndefined();
    // The same digits anywhere else are refused, in an id-named field too when it is not an id.
    expect(findPosCardData({ description: '34028316000109' })).toEqual({ field: 'description', kind: 'card_number' });
    expect(findPosCardData({ payment_id: '4111111111111111' })).toEqual({ field: 'payment_id', kind: 'card_number' });
  });

  it('takes an alphanumeric CNPJ for no card number, as the ein or anywhere else, and still finds a card number beside it', () => {
    // B4111111431277: a valid alphanumeric CNPJ whose 13 digits pass the Luhn check, and start like a Visa.
    expect(findPosCardData({ ein: 'B4111111431277' })).toBeUndefined();
    expect(
      findPosCardData({ ein: '12ABC34501DE35', description: 'Pedido da empresa 12.ABC.345/01DE-35' }),
    ).toBeUndefined();
    expect(findPosCardData({ ein: '12ABC34501DE35', description: `Pago com ${REFUSED.pan}` })).toEqual({
      field: 'description',
      kind: 'card_number',
    });
  });
});

describe('mayHoldCardData: the quick answer for short plain text, never a card let through', () => {
  /** A small seeded generator (xorshift32): the same strings on every run. */
  const random = (seed: number): (() => number) => {
    let state = seed;
    return () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 0x1_0000_0000;
    };
  };

  it('answers no for what most requests hold: keys, a serial, a payment type, a short description', () => {
    for (const text of [
      'terminal',
      'reference_id',
      'credit',
      'Caixa 1',
      'PED-000123',
      'Pedido 123 - 2 itens',
      'PPC930-0042',
    ])
      expect(mayHoldCardData(text), text).toBe(false);
  });

  it('sends to the full search whatever could hold a card: 12 digits, a 16-character token, anything beyond ASCII', () => {
    for (const text of [
      ...Object.values(REFUSED),
      '123456789012',
      'NTU1NTU1NTU1NTU1NDQ0NA==', // base64 of a PAN, not a digit in sight once decoded
      'abcdefghijklmnop',
      '５５５５',
      'Pedido ação',
    ])
      expect(mayHoldCardData(text), text).toBe(true);
  });

  it('says no only where the full search finds nothing, over 20,000 strings built near its limits', () => {
    const next = random(0x5eed);
    const pick = (from: string): string => from[Math.floor(next() * from.length)]!;
    const digits = (most: number): string => {
      let run = '';
      for (let count = 1 + Math.floor(next() * most); count > 0; count--) run += pick('0123456789');
      return run;
    };
    const pieces = [
      () => `%B${digits(12)}^`,
      () => `${digits(12)}=${digits(4)}`,
      () => '0123456789'.slice(0, 1 + Math.floor(next() * 10)),
      () => pick('2345') + '1'.repeat(Math.floor(next() * 11)),
      () => 'QUJDREVGR0hJSktMTU5P'.slice(0, Math.floor(next() * 16)),
      () => pick(' -./_=^%;?B'),
      () => 'Pedido'.slice(0, 1 + Math.floor(next() * 6)),
    ];
    let quick = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      const parts = 1 + Math.floor(next() * 6);
      for (let k = 0; k < parts; k++) text += pieces[Math.floor(next() * pieces.length)]!();
      if (mayHoldCardData(text)) continue;
      quick++;
      expect(cardDataIn(text), text).toBeUndefined();
    }
    // Most of them took the quick answer: the check above is not vacuous.
    expect(quick).toBeGreaterThan(5_000);
  });
});

describe('findPosCardData: what a POS types, however written, alone and together', () => {
  it('searches what a POS types whatever it looks like: an id-shaped reference is text like any other', () => {
    expect(findPosCardData({ reference_id: `ref_${REFUSED.pan}` })).toEqual({
      field: 'reference_id',
      kind: 'card_number',
    });
    expect(findPosCardData({ reference_id: 'a3fe4111111111111111bcdefabcdefa' })).toEqual({
      field: 'reference_id',
      kind: 'card_number',
    });
  });

  it('searches the keys of metadata, naming them without repeating them', () => {
    expect(findPosCardData({ metadata: { [REFUSED.pan]: 'x' } })).toEqual({
      field: 'metadata.(key)',
      kind: 'card_number',
    });
  });

  it('reads the fields together, naming the fewest that hold a number between them', () => {
    expect(
      findPosCardData({ reference_id: '55555555', amount: 100, description: '55554444', notification: 'ok' }),
    ).toEqual({ field: 'reference_id + description', kind: 'card_number' });
    expect(findPosCardData({ reference_id: 'PED-000123', description: 'Pedido 123 - 2 itens' })).toBeUndefined();
  });
});

describe('findHeaderCardData: the headers that get logged', () => {
  it('names the Origin or Host that holds card data, and nothing else', () => {
    expect(findHeaderCardData({ origin: `http://${REFUSED.pan}.example`, host: '127.0.0.1:1' })).toBe('origin');
    expect(findHeaderCardData({ host: `${REFUSED.grouped.replaceAll(' ', '.')}:80` })).toBe('host');
    expect(findHeaderCardData({ origin: 'https://pos.loja.example:8443', host: 'localhost:17301' })).toBeUndefined();
    expect(findHeaderCardData({ 'user-agent': REFUSED.pan })).toBeUndefined();
  });
});

describe('card data in what a POS sends', () => {
  it.each([
    ['a card number as the sale’s reference', sale(REFUSED.pan), 'reference_id', 'CARD_NUMBER'],
    ['a track 2 as the reference', sale(REFUSED.track2), 'reference_id', 'TRACK'],
    [
      'a grouped card number in the description',
      sale('ref-desc', { description: `Pago com ${REFUSED.grouped}` }),
      'description',
      'CARD_NUMBER',
    ],
    [
      'a track 1 in the PINPAD notification',
      sale('ref-note', { notification: REFUSED.track1.slice(0, 32) }),
      'notification',
      'TRACK',
    ],
  ])(
    'refuses %s: CARD_DATA_REFUSED naming the field, no payment, nothing written',
    async (_, params, field, reason) => {
      const before = pos.rig.engine.list().items.length;
      const error = await checkedFailure(cashier, 'payment.start', params);
      expect(error).toMatchObject({ code: 'CARD_DATA_REFUSED', reason, violations: [{ field }] });
      expect(error.cashier_message).toBe(
        'O sistema de vendas enviou o que parece um número de cartão; por segurança, nada foi feito.',
      );
      expect(error.message).not.toMatch(/\d{13}/);
      expect(pos.rig.engine.list().items.length).toBe(before);
    },
  );

  it('refuses a POS that pairs under a name holding a card number', async () => {
    const stranger = await pos.connect();
    try {
      const error = await checkedFailure(stranger, 'session.pair', { name: REFUSED.posName });
      expect(error).toMatchObject({ code: 'CARD_DATA_REFUSED', violations: [{ field: 'name' }] });
      expect(pos.announced.map((pairing) => pairing.name)).not.toContain(REFUSED.posName);
    } finally {
      await stranger.close();
    }
  });

  it('lets a POS search a buyer by an alphanumeric CNPJ: not card data (the API answers, here not found)', async () => {
    const error = await checkedFailure(cashier, 'buyer.search', { ein: '12ABC34501DE35' });
    expect(error.code).toBe('API_NOT_FOUND');
  });

  it('refuses a number split between the reference and the description, naming both and neither value', async () => {
    const error = await checkedFailure(cashier, 'payment.start', sale('41111111', { description: '11111111' }));
    expect(error).toMatchObject({
      code: 'CARD_DATA_REFUSED',
      reason: 'CARD_NUMBER',
      violations: [{ field: 'reference_id + description' }],
    });
    expect(error.message).toContain('params.reference_id and params.description together look like a card number');
    expect(error.message).not.toMatch(/\d{8}/);
  });

  it('refuses a card number sent as an unexpected key before the schema could name the key', async () => {
    const error = await checkedFailure(cashier, 'payment.start', { ...sale('ref-key'), [REFUSED.pan]: true });
    expect(error).toMatchObject({ code: 'CARD_DATA_REFUSED' });
    expect(JSON.stringify(error)).not.toContain(REFUSED.pan);
  });

  it('does not repeat a method name that holds a card number', async () => {
    const answer = await cashier.request(`payment.${REFUSED.pan}`, {});
    expect(answer.error?.data.code).toBe('METHOD_NOT_FOUND');
    expect(JSON.stringify(answer)).not.toContain(REFUSED.pan);
  });

  it('closes a connection whose Origin holds a card number (4001), logging only that it did', async () => {
    const client = new RpcClient(await openSocket(pos.server.url, { Origin: `http://${REFUSED.pan}.example` }));
    expect(await client.closed).toEqual({ code: 4001, reason: 'ORIGIN_NOT_ALLOWED' });
    // Counted among the refused origins: the summary names it without its value.
    await expect.poll(() => readFileSync(pos.rig.logPath, 'utf8'), { timeout: 5_000 }).toContain('Origin [card data]');
    expect(readFileSync(pos.rig.logPath, 'utf8')).not.toContain(REFUSED.pan);
  });

  it('refuses an upgrade whose Host holds a card number, logging the refusal without the value', async () => {
    const refused = await openSocket(pos.server.url, { Host: `${REFUSED.pan}.example:${pos.server.port}` }).then(
      () => undefined,
      (error: { status?: number }) => error,
    );
    expect(refused?.status).toBe(403);
    await expect
      .poll(() => readFileSync(pos.rig.logPath, 'utf8'), { timeout: 5_000 })
      .toContain('Host [card data], port');
    expect(readFileSync(pos.rig.logPath, 'utf8')).not.toContain(REFUSED.pan);
  });

  it('still sells with a numeric order number that is not a card number (starts with 1, Luhn-valid)', async () => {
    const outcome = await checkedCall(cashier, 'payment.start', sale('1234567890123452'));
    expect(outcome).toMatchObject({ status: 'approved', reference_id: '1234567890123452' });
  });

  it('wrote none of the refused values anywhere: journal, clients database, their WALs, the log', () => {
    const written = everythingWritten();
    for (const value of [
      REFUSED.pan,
      '4111111111111111',
      REFUSED.posName,
      '5105105105105100',
      '2223000048400011',
      '6362970000457013',
    ]) {
      expect(written.includes(value), value.slice(0, 6)).toBe(false);
    }
    // The refusals were logged, by field only; the clients database was there to be searched.
    expect(written).toContain('request refused: a parameter looks like card data');
    expect(written).toContain('Caixa 1');
  });
});
