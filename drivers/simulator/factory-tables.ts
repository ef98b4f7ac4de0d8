/**
 * The EMV tables a PINPAD holds when it arrives at a store: loaded by the store's TEF (or the
 * acquirer's technician) before any host of ours talks to it. The strict, ppc930 and legacy
 * profiles start with them, so a card read selects its application from loaded AID records as
 * a real device does (S220 §6.8.1, §6.9.1) — not from a match the simulator invents. One credit
 * and one debit AID per brand the simulator's cards carry, all with a contactless kernel.
 */
import type { CardBrand } from './cards.js';
import { aidsOf } from './emv-data.js';
import { encodeAidRecord, type TableRecord } from './wire/tables.js';

const LABELS: Readonly<Record<CardBrand, { credit: string; debit: string }>> = {
  visa: { credit: 'VISA CREDITO', debit: 'VISA ELECTRON' },
  mastercard: { credit: 'MASTERCARD', debit: 'MAESTRO' },
  elo: { credit: 'ELO CREDITO', debit: 'ELO DEBITO' },
};

/** T1_CTLSMODE per brand: a kernel number ("1"–"9"), which the simulator only checks is one. */
const KERNELS: Readonly<Record<CardBrand, string>> = { mastercard: '2', visa: '3', elo: '6' };

/** Contactless limit of the factory records (R$ 10.000,00): the simulator's cards all fit. */
const CONTACTLESS_LIMIT = 1_000_000;

const BRANDS: readonly CardBrand[] = ['visa', 'mastercard', 'elo'];

/** The factory AID records of `acquirer`, credit then debit per brand in `brands`' order, records 01, 02, … */
export function factoryAidRecords(acquirer: number, brands: readonly CardBrand[] = BRANDS): TableRecord[] {
  return brands
    .flatMap((brand) =>
      [
        { aid: aidsOf(brand).credit, applicationType: 1, label: LABELS[brand].credit },
        { aid: aidsOf(brand).debit, applicationType: 2, label: LABELS[brand].debit },
      ].map((app) => ({ ...app, brand })),
    )
    .map((app, index) =>
      encodeAidRecord({
        acquirer,
        record: String(index + 1).padStart(2, '0'),
        aid: app.aid,
        applicationType: app.applicationType,
        label: app.label,
        contactlessMode: KERNELS[app.brand],
        contactlessLimit: CONTACTLESS_LIMIT,
      }),
    );
}
