/**
 * The effective settings are the local file with the document merged over it; the leaves the
 * document sets are the fields it governs, which a save from the window cannot change.
 */
import { describe, expect, it } from 'vitest';
import { forbiddenPaths, governedPaths, guardGoverned, mergeSettings } from '../../../main/remote-settings/merge.js';

describe('merging a document over the local file', () => {
  it('keeps what the document does not set and replaces each leaf it sets (arrays whole)', () => {
    const local = {
      confirmation: 'auto',
      receipts: { auto_print: ['customer', 'merchant'], time_zone: 'America/Manaus' },
    };
    const remote = { receipts: { auto_print: ['merchant'] }, pos: { share_payments: true } };
    expect(mergeSettings(local, remote)).toEqual({
      confirmation: 'auto',
      receipts: { auto_print: ['merchant'], time_zone: 'America/Manaus' },
      pos: { share_payments: true },
    });
    expect(local.receipts.auto_print).toEqual(['customer', 'merchant']);
  });

  it('governs the leaves the document sets', () => {
    expect(governedPaths({ receipts: { auto_print: [] }, pos: { share_payments: true, ports: [17301] } })).toEqual([
      'receipts.auto_print',
      'pos.share_payments',
      'pos.ports',
    ]);
  });

  it("finds the fields no document may set: its own section, the checkout's place in the chain, and secrets", () => {
    expect(
      forbiddenPaths([
        'remote_settings.url',
        'fleet.store',
        'fleet',
        'fleet_notes',
        'telemetry.bearer_token',
        'telemetry.headers.Authorization',
        'telemetry.endpoint',
      ]),
    ).toEqual([
      'remote_settings.url',
      'fleet.store',
      'fleet',
      'telemetry.bearer_token',
      'telemetry.headers.Authorization',
    ]);
  });
});

describe('a save from the window while a document governs fields', () => {
  const governing = { version: 7, settings: { pos: { share_payments: true } } };

  it('refuses a governed field changed, with GOVERNED_REMOTELY and a pt-BR sentence naming the version', () => {
    const { violations } = guardGoverned({ pos: { share_payments: false } }, {}, governing);
    expect(violations).toEqual([
      {
        field: 'pos.share_payments',
        code: 'GOVERNED_REMOTELY',
        message: "is set by the chain's remote settings (version 7) and cannot be changed here",
        cashier_message: 'Este campo é definido pela configuração da rede (versão 7) e não pode ser alterado aqui.',
      },
    ]);
  });

  it('writes the local value of a governed field sent as the window shows it (the document never reaches the file)', () => {
    expect(guardGoverned({ confirmation: 'pos', pos: { share_payments: true } }, {}, governing)).toEqual({
      json: { confirmation: 'pos' },
      violations: [],
    });
    expect(
      guardGoverned({ pos: { share_payments: true, ports: [1] } }, { pos: { share_payments: false } }, governing).json,
    ).toEqual({ pos: { share_payments: false, ports: [1] } });
  });
});
