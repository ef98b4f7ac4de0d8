/**
 * The settings file: one schema for the whole file, every mistake reported at once naming its
 * field, the defaults without a file, an atomic save that refuses a bad file and leaves the old
 * one, and which payments API the agent then runs against.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseApi } from '../../../main/agent/api-choice.js';
import {
  defaultSettings,
  loadSettings,
  parseSettings,
  saveSettings,
  SettingsFile,
} from '../../../main/settings/settings-file.js';
import { schemaViolations } from '../../../main/contract/index.js';
import { SettingsError } from '../../../main/core/settings.js';
import { thrown } from '../../helpers/thrown.js';

const folder = (): string => mkdtempSync(join(tmpdir(), 'pinbridge-settings-'));

const STORE = {
  merchant: { name: 'Padaria Pão Quente', cnpj: '11222333000181', address: ['Rua das Flores, 10', 'São Paulo/SP'] },
};

describe('the settings file', () => {
  it('has defaults when there is no file: training mode, the simulated PINPAD, both copies printed', () => {
    const settings = loadSettings(undefined, folder());
    expect(settings).toMatchObject({
      path: null,
      training: false,
      api: null,
      pinpad: null,
      receipts: null,
      autoPrint: ['customer', 'merchant'],
      printers: {},
      pos: {},
      metrics: {},
    });
    expect(defaultSettings().engine).toEqual(settings.engine);
  });

  it('reads every section', () => {
    const path = join(folder(), 'settings.json');
    writeFileSync(
      path,
      JSON.stringify({
        confirmation: 'pos',
        training: true,
        api: { base_url: 'https://api.example.com', marketplace_id: 'mkt1', seller_id: 'sel1' },
        pinpad: { address: '/dev/ttyACM0' },
        receipts: { ...STORE, auto_print: ['customer'] },
        printers: { default: { address: 'tcp://192.0.2.10:9100' } },
        pos: { ports: [18001] },
        metrics: { enabled: true },
      }),
    );
    const settings = loadSettings(path);
    expect(settings).toMatchObject({
      path,
      training: true,
      api: { base_url: 'https://api.example.com', marketplace_id: 'mkt1', seller_id: 'sel1' },
      pinpad: { address: '/dev/ttyACM0' },
      receipts: STORE,
      autoPrint: ['customer'],
      pos: { ports: [18001] },
      metrics: { enabled: true },
    });
    expect(settings.engine.confirmation).toBe('pos');
  });

  it('reports every mistake at once, each naming its field', () => {
    const error = thrown(() =>
      parseSettings(
        {
          confirmation: 'sometimes',
          api: { base_url: 'ftp://x', marketplace_id: 'm' },
          pinpad: {},
          training: 'yes',
          metrics: { port: 0 },
          receipts: { auto_print: ['all'] },
        },
        '/etc/pinbridge.json',
      ),
    ) as SettingsError;
    expect(error).toBeInstanceOf(SettingsError);
    const fields = error.violations.map((v) => v.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'confirmation',
        'api.base_url',
        'api.seller_id',
        'pinpad.address',
        'training',
        'metrics.port',
      ]),
    );
    expect(fields.some((f) => f.startsWith('receipts'))).toBe(true);
    expect(error.message).toMatch(/^Invalid settings in \/etc\/pinbridge\.json: /);
    expect(thrown(() => parseSettings([1, 2], null))).toMatchObject({
      violations: [{ field: '(file)', message: 'must be a JSON object' }],
    });
  });

  it('has no supervisor step by default, and reads the supervisor section with its defaults; the PIN has no place in it', () => {
    expect(defaultSettings().supervisor).toEqual({
      requiredFor: 'none',
      minAmountCentavos: 0,
      entry: 'window',
      posVoids: 'trusted',
    });
    expect(parseSettings({ supervisor: { required_for: 'voids' } }, null).supervisor).toEqual({
      requiredFor: 'voids',
      minAmountCentavos: 0,
      entry: 'window',
      posVoids: 'trusted',
    });
    expect(
      parseSettings(
        { supervisor: { required_for: 'voids', min_amount_centavos: 10_000, entry: 'either', pos_voids: 'pinpad' } },
        null,
      ).supervisor,
    ).toEqual({
      requiredFor: 'voids',
      minAmountCentavos: 10_000,
      entry: 'either',
      posVoids: 'pinpad',
    });
    const error = thrown(() =>
      parseSettings(
        { supervisor: { required_for: 'always', min_amount_centavos: '100,00', entry: 'keyboard', pin: '1234' } },
        null,
      ),
    ) as SettingsError;
    expect(error.violations.map((v) => v.field)).toEqual(
      expect.arrayContaining(['supervisor.required_for', 'supervisor.min_amount_centavos', 'supervisor.entry']),
    );
    // A PIN written into the file by hand is refused, not kept in clear.
    expect(
      error.violations.some(
        (v) => v.field.startsWith('supervisor') && /pin|additional/i.test(`${v.field} ${v.message}`),
      ),
    ).toBe(true);
  });

  it('takes a store with an alphanumeric CNPJ, and saves it: 12ABC34501DE35', () => {
    const path = join(folder(), 'settings.json');
    const receipts = {
      merchant: { name: 'Mercadinho Nova Era', cnpj: '12ABC34501DE35' },
      acquirer: { cnpj: 'A1B2C3D4000193' },
    };
    expect(saveSettings(path, { receipts }).receipts).toEqual(receipts);
    expect(loadSettings(path).receipts).toEqual(receipts);
  });

  it("refuses a store's CNPJ whose check digits do not match, numeric or alphanumeric, naming the field", () => {
    for (const [receipts, field] of [
      [{ merchant: { name: 'Loja', cnpj: '12ABC34501DE36' } }, 'receipts.merchant.cnpj'],
      [{ merchant: { name: 'Loja', cnpj: '11222333000182' } }, 'receipts.merchant.cnpj'],
      [{ merchant: { name: 'Loja', cnpj: '00000000000000' } }, 'receipts.merchant.cnpj'],
      [{ merchant: STORE.merchant, acquirer: { cnpj: '12ABC34501DE36' } }, 'receipts.acquirer.cnpj'],
    ] as const) {
      const error = thrown(() => parseSettings({ receipts }, null)) as SettingsError;
      expect(error).toBeInstanceOf(SettingsError);
      expect(error.violations).toEqual([
        {
          field,
          code: 'INVALID_CNPJ_CHECK_DIGITS',
          message: 'is not a valid CNPJ (check digits do not match)',
          cashier_message: 'Os dígitos verificadores não conferem: confira o CNPJ.',
        },
      ]);
    }
  });

  it("takes the store's time zone when the runtime knows it, and refuses a misspelt one, naming the field", () => {
    expect(parseSettings({ receipts: { ...STORE, time_zone: 'America/Manaus' } }, null).receipts?.time_zone).toBe(
      'America/Manaus',
    );
    const error = thrown(() =>
      parseSettings({ receipts: { ...STORE, time_zone: 'America/Sao Paulo' } }, null),
    ) as SettingsError;
    expect(error.violations).toEqual([
      {
        field: 'receipts.time_zone',
        code: 'INVALID_TIME_ZONE',
        message: 'is not an IANA time zone (for example America/Sao_Paulo or America/Manaus)',
        cashier_message:
          'Fuso horário inválido: use o nome do fuso, como America/Sao_Paulo, America/Manaus ou America/Rio_Branco.',
      },
    ]);
  });

  it("refuses a store's CNPJ in lowercase or with its mask: the file keeps it as the API takes it", () => {
    for (const cnpj of ['12abc34501de35', '12.ABC.345/01DE-35', '11.222.333/0001-81']) {
      const error = thrown(() =>
        parseSettings({ receipts: { merchant: { name: 'Loja', cnpj } } }, null),
      ) as SettingsError;
      expect(
        error.violations.map((v) => v.field),
        cnpj,
      ).toEqual(['receipts.merchant.cnpj']);
    }
  });

  it('refuses 12.345.678/0001-00 saying what is wrong: the mask in the file, the check digits once the window removed it', () => {
    const masked = thrown(() =>
      parseSettings({ receipts: { merchant: { name: 'Loja', cnpj: '12.345.678/0001-00' } } }, null),
    ) as SettingsError;
    expect(masked.violations).toEqual([
      {
        field: 'receipts.merchant.cnpj',
        code: 'INVALID_CNPJ',
        message:
          "must be the CNPJ's 14 characters without dots, slash or dash, uppercase, e.g. 11222333000181 (printed 11.222.333/0001-81)",
        cashier_message: expect.stringMatching(/^O CNPJ tem 14 caracteres/) as unknown,
      },
    ]);
    const digits = thrown(() =>
      parseSettings({ receipts: { merchant: { name: 'Loja', cnpj: '12345678000100' } } }, null),
    ) as SettingsError;
    expect(digits.message).toBe(
      'Invalid settings in (settings): receipts.merchant.cnpj: is not a valid CNPJ (check digits do not match)',
    );
  });

  it("refuses a PINPAD address the CLI would refuse, with a code, the CLI's sentence and one for the cashier", () => {
    const cases = [
      [
        'pinpad da loja',
        'not a serial port, a network or a Bluetooth address',
        'não é uma porta serial, um endereço de rede nem um endereço Bluetooth',
      ],
      [
        'COM',
        'a Windows serial port is COM and its number, e.g. COM3',
        'uma porta serial do Windows é COM e o número, por exemplo COM3',
      ],
      [
        'tcp://10.0.0.5',
        'a network address needs a host and a port, e.g. tcp://10.0.0.5:4000',
        'um endereço de rede precisa do host e da porta, por exemplo tcp://10.0.0.5:4000',
      ],
    ] as const;
    for (const [address, why, porque] of cases) {
      const path = join(folder(), 'settings.json');
      const error = thrown(() => saveSettings(path, { pinpad: { address } })) as SettingsError;
      expect(error).toBeInstanceOf(SettingsError);
      expect(error.violations).toEqual([
        {
          field: 'pinpad.address',
          code: 'INVALID_PINPAD_ADDRESS',
          message: `"${address}" is not a valid PINPAD address (${why}); use a serial device (/dev/ttyACM0, COM3), tcp://host:port (IPv6 as tcp://[::1]:4000) or ble:<device id>, or "sim" for the simulated PINPAD.`,
          cashier_message: `O endereço do PINPAD “${address}” não é válido (${porque}). Use uma porta serial (/dev/ttyACM0, COM3), tcp://host:porta, ble:<id> ou sim.`,
        },
      ]);
      expect(readdirSync(dirname(path))).toEqual([]);
    }
  });

  it('takes the PINPAD addresses the CLI takes: serial ports, tcp://host:port, ble:<id>, sim and its profiles', () => {
    for (const address of [
      '/dev/ttyACM0',
      'COM3',
      'tcp://10.0.0.5:4000',
      'tcp://[fe80::1]:4000',
      'ble:c0ffee',
      'sim',
      'sim:strict',
      'sim:replay:session.trace',
    ]) {
      expect(parseSettings({ pinpad: { address } }, null).pinpad?.address, address).toBe(address);
    }
  });

  it('saves atomically and privately, and refuses a bad file leaving the old one', () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    saveSettings(path, { confirmation: 'auto' });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ confirmation: 'auto' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(thrown(() => saveSettings(path, { confirmation: 'never' }))).toBeInstanceOf(SettingsError);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ confirmation: 'auto' });
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('is described by one schema that accepts what the agent accepts', () => {
    const example = {
      confirmation: 'pos',
      api: { base_url: 'https://api.example.com', marketplace_id: 'm', seller_id: 's' },
      receipts: { ...STORE, auto_print: [] },
    };
    expect(schemaViolations(SettingsFile, example)).toEqual([]);
    expect(() => parseSettings(example, null)).not.toThrow();
    expect(schemaViolations(SettingsFile, { unknown_key: 1 }).map((v) => v.field)).toEqual(['unknown_key']);
  });
});

describe('chooseApi', () => {
  const withApi = parseSettings(
    { api: { base_url: 'https://api.example.com', marketplace_id: 'mkt', seller_id: 'sel' } },
    null,
  );

  it('runs training mode when asked, or when nothing names an API', () => {
    expect(chooseApi({ flags: {}, trainingFlag: false, settings: defaultSettings(), storedToken: () => 'x' })).toEqual(
      {},
    );
    expect(chooseApi({ flags: {}, trainingFlag: true, settings: withApi, storedToken: () => 'x' })).toEqual({});
    expect(
      chooseApi({ flags: {}, trainingFlag: false, settings: { ...withApi, training: true }, storedToken: () => 'x' }),
    ).toEqual({});
  });

  it("takes the settings' API with the stored token, and the command line over both", () => {
    expect(chooseApi({ flags: {}, trainingFlag: false, settings: withApi, storedToken: () => 'zpk_stored' })).toEqual({
      api: 'https://api.example.com',
      token: 'zpk_stored',
      marketplace: 'mkt',
      seller: 'sel',
    });
    const flags = { api: 'https://other.example', token: 't', marketplace: 'm2', seller: 's2' };
    expect(chooseApi({ flags, trainingFlag: false, settings: withApi, storedToken: () => 'zpk_stored' })).toEqual(
      flags,
    );
  });

  it('takes the auth scheme and the client certificate from the settings, the files relative to the settings file, the passphrase from the environment', () => {
    const dir = folder();
    const settings = parseSettings(
      {
        api: {
          base_url: 'https://api.example.com',
          marketplace_id: 'mkt',
          seller_id: 'sel',
          auth_scheme: 'basic',
          client_certificate: { pfx: 'certs/loja.pfx' },
          ca: '/etc/ssl/provider-ca.pem',
        },
      },
      join(dir, 'settings.json'),
    );
    expect(
      chooseApi({
        flags: {},
        trainingFlag: false,
        settings,
        storedToken: () => 'zpk',
        storedPassphrase: () => 'segredo',
      }),
    ).toEqual({
      api: 'https://api.example.com',
      token: 'zpk',
      marketplace: 'mkt',
      seller: 'sel',
      authScheme: 'basic',
      certificate: { pfx: join(dir, 'certs', 'loja.pfx'), ca: '/etc/ssl/provider-ca.pem', passphrase: 'segredo' },
    });
    const wrong = thrown(() =>
      parseSettings(
        {
          api: {
            base_url: 'https://a.b',
            marketplace_id: 'm',
            seller_id: 's',
            auth_scheme: 'digest',
            client_certificate: { crt: 'x' },
          },
        },
        null,
      ),
    );
    expect(wrong).toBeInstanceOf(SettingsError);
    expect((wrong as SettingsError).violations.map((v) => v.field)).toEqual(
      expect.arrayContaining(['api.auth_scheme', 'api.client_certificate.crt']),
    );
  });

  it('says where to put the token when the settings name an API and none is stored', () => {
    const error = thrown(() =>
      chooseApi({ flags: {}, trainingFlag: false, settings: withApi, storedToken: () => undefined }),
    );
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).toContain('api: is set, but no API token is stored');
  });
});

describe('docs/settings.schema.json', () => {
  it('is what the agent validates with (regenerate it: npm run docs:settings), and a JSON Schema Ajv compiles', async () => {
    const { settingsJsonSchema } = await import('../../../main/settings/settings-schema.js');
    const published = JSON.parse(
      readFileSync(new URL('../../../docs/settings.schema.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(published).toEqual(settingsJsonSchema());
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(published as object);
    expect(validate({ confirmation: 'pos', pinpad: { address: 'sim' } })).toBe(true);
    expect(validate({ confirmation: 'sometimes' })).toBe(false);
  });
});
