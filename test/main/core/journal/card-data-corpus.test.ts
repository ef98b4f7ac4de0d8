/**
 * The card-data corpus (test/fixtures/card-data-corpus.ts) against the journal, the last line of
 * defence: every disguised card number is refused with CARD_DATA — as the reference, the
 * description or the notification a POS typed (or a name, or metadata, written into the
 * description), split between them, or in a note Pinbridge writes — and nothing reaches disk;
 * every legitimate value is journaled in the field it belongs to. The journal is left in the test
 * run's artifacts for the final scan.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../../../main/core/journal/journal.js';
import type { NewPayment } from '../../../../main/core/journal/record.js';
import { centavos } from '../../../../main/core/money.js';
import { thrown } from '../../../helpers/thrown.js';
import { artifactsDir, compacted } from '../../../helpers/card-data-scan.js';
import {
  CORPUS_CARD_NUMBERS,
  DIGITS_BY_NATURE,
  DISGUISED,
  LEGITIMATE,
  type CorpusField,
  type LegitimateValue,
} from '../../../fixtures/card-data-corpus.js';

let dir: string;
let journal: Journal;
beforeAll(() => {
  dir = mkdtempSync(join(artifactsDir(), 'journal-corpus-'));
  journal = Journal.open(join(dir, 'journal.db'));
});
afterAll(() => journal.close());

let sales = 0;
function payment(overrides: Partial<NewPayment> = {}): NewPayment {
  sales += 1;
  return {
    referenceId: `corpus-${sales}-x`,
    source: 'pos',
    terminal: 'PP-0001',
    amount: centavos(1_000),
    paymentType: 'credit',
    installments: null,
    description: 'Venda',
    notification: null,
    paramsHash: 'a'.repeat(64),
    confirmation: 'auto',
    ...overrides,
  };
}

/** Where a POS's text lands in the journal: its own field, or (names, metadata) the description. */
const JOURNAL_FIELD: Partial<Record<CorpusField, 'referenceId' | 'description' | 'notification'>> = {
  reference_id: 'referenceId',
  description: 'description',
  notification: 'notification',
};
const journalField = (field: CorpusField): 'referenceId' | 'description' | 'notification' =>
  JOURNAL_FIELD[field] ?? 'description';

function onDisk(folder: string): string {
  return readdirSync(folder)
    .map((name) => readFileSync(join(folder, name)).toString('utf8'))
    .join('\n');
}

describe('every disguised card number', () => {
  it.each(DISGUISED.map((entry) => [entry.label, entry] as const))(
    '%s: refused with CARD_DATA, its value in no message',
    (_, entry) => {
      const overrides: Partial<Record<'referenceId' | 'description' | 'notification', string>> = {};
      for (const [field, value] of Object.entries(entry.fields) as [CorpusField, string][]) {
        overrides[journalField(field)] = value;
      }
      const error = thrown(() => journal.createIntent(payment(overrides)));
      expect(error).toMatchObject({ code: 'CARD_DATA' });
      expect(compacted((error as Error).message)).not.toContain(entry.pan);
    },
  );

  it('is masked in a note, as Pinbridge would write one: the line is kept, the number is not', () => {
    const record = journal.createIntent(payment());
    const single = DISGUISED.filter((e) => Object.keys(e.fields).length === 1);
    for (const entry of single) journal.annotate(record.id, Object.values(entry.fields)[0]!);
    const notes = journal.events(record.id).slice(-single.length);
    expect(notes).toHaveLength(single.length);
    single.forEach((entry, index) => expect(compacted(notes[index]!.note), entry.label).not.toContain(entry.pan));
  });

  it('reached no byte of the journal, its WAL included, however read', () => {
    const written = compacted(onDisk(dir));
    for (const pan of CORPUS_CARD_NUMBERS) expect(written.includes(pan), pan.slice(0, 6)).toBe(false);
  });
});

describe('every legitimate value', () => {
  const freeText = LEGITIMATE.filter((entry) => !DIGITS_BY_NATURE.includes(entry.field));

  it.each(freeText.map((entry) => [entry.label, entry] as const))('%s: journaled as typed', (_, entry) => {
    const field = journalField(entry.field as CorpusField);
    const record = journal.createIntent(payment({ [field]: entry.value }));
    expect(journal.get(record.id)?.[field]).toBe(entry.value);
  });

  it('all together: each reference with a description and a notification', () => {
    const of = (field: LegitimateValue['field']): string[] =>
      freeText.filter((entry) => entry.field === field).map((entry) => entry.value);
    const descriptions = of('description');
    const notifications = of('notification');
    of('reference_id').forEach((reference, n) => {
      const description = descriptions[n % descriptions.length]!;
      const notification = notifications[n % notifications.length]!;
      expect(() =>
        journal.createIntent(payment({ referenceId: `${reference}#`, description, notification })),
      ).not.toThrow();
    });
  });

  it('digits by nature in their fields: a PINPAD serial, a CPF or CNPJ, an API id, a client id', () => {
    // A journal of its own outside the artifacts: a CNPJ or a 16-digit client id may be a Luhn-valid
    // run that starts like a card, which the final scan's plainest net flags, by design.
    const apart = Journal.open(join(mkdtempSync(join(tmpdir(), 'journal-corpus-')), 'journal.db'));
    try {
      const byNature = (field: LegitimateValue['field']): string[] =>
        LEGITIMATE.filter((entry) => entry.field === field).map((entry) => entry.value);
      for (const terminal of byNature('terminal'))
        expect(apart.createIntent(payment({ terminal })).terminal).toBe(terminal);
      for (const transactionId of byNature('payment_id')) {
        expect(apart.createIntent(payment({ source: 'remote', transactionId })).transactionId).toBe(transactionId);
      }
      for (const owner of byNature('client_id')) expect(apart.createIntent(payment({ owner })).owner).toBe(owner);
      const record = apart.createIntent(payment());
      for (const taxId of [...byNature('taxpayer_id'), ...byNature('ein')]) {
        expect(apart.update(record.id, { customerTaxId: taxId }).customerTaxId).toBe(taxId);
      }
    } finally {
      apart.close();
    }
  });
});
