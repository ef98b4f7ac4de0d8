/**
 * Every setting the window shows, declared once: where it lives in the settings file (its key
 * here, dotted), its schema (TypeBox: validation, type, and in its description the English
 * documentation), its default, the code the agent names its mistakes with, and how the window
 * shows it — in which card, with what control, its pt-BR and English label and help.
 *
 * Everything else follows from a declaration:
 * - its section's schema names the declared schema (ApiSettings, PaymentSettings, …), so the
 *   agent validates with it, and docs/settings.schema.json and docs/settings.md describe it;
 * - `npm run docs:settings` writes, beside those documents, the window's controls into
 *   renderer/index.html (between each card's `settings-fields` markers), the window's copy of
 *   this table (renderer/settings/declared-fields.ts) and its texts
 *   (renderer/i18n/setting-texts.ts) — the window is a web page that cannot load this module;
 * - specs fail while any of those is stale, while a section's schema does not name its
 *   declaration, and when a declaration is incomplete (the types refuse most of it, and
 *   settings-field-problems.ts the rest).
 *
 * It sits in the core, the lowest floor that owns one of these settings (`confirmation`), so every
 * section's module can import it; and it is data only (no Node module, nothing that runs).
 * Settings the window does not show are declared in their section's schema alone.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { CNPJ_PATTERN } from '../validation/taxpayer-id.js';
import type { SettingsViolationCode } from './settings-violations.js';

/** The cards of Configurações that hold settings, in the page's order. */
export const WINDOW_SECTIONS = ['api', 'pinpad', 'sales', 'supervisor', 'receipts', 'printer'] as const;
export type WindowSection = (typeof WINDOW_SECTIONS)[number];

/** A text of the window in both its languages: pt-BR (the cashier's) and English. */
export interface WindowText {
  readonly 'pt-BR': string;
  readonly en: string;
}

/** A line of text (or an amount). Its hint is `${id}-hint`, its mistake `${id}-error`. */
export interface TextControl {
  readonly kind: 'text';
  readonly id: string;
  /**
   * What the file keeps of what is typed: the text, trimmed (the default); a CNPJ without the
   * dots, slash and dash the cashier may type; or an amount typed in reais, kept in centavos.
   */
  readonly value?: 'cnpj' | 'centavos';
  /** The keyboard a touch screen offers. */
  readonly inputMode?: 'url' | 'text' | 'decimal';
  readonly autocapitalize?: 'characters';
  /** No spell checking: addresses, ids, codes. */
  readonly spellcheck?: false;
  readonly placeholder?: string;
  /** The input stops at the schema's maxLength: what is printed as typed (a name). */
  readonly capped?: true;
}

/** A list of lines (the store's address), one input each, as many as the schema's maxItems. */
export interface LinesControl {
  readonly kind: 'lines';
  /** Line n's input is `${id}-${n}` (from 0). */
  readonly id: string;
  /** Each line's label, `{n}` its number (from 1). */
  readonly line: WindowText;
  /** Each input stops at the schema's maxLength for an item. */
  readonly capped?: true;
}

/** An on/off switch: which of the setting's values each position saves. */
export interface SwitchControl<V> {
  readonly kind: 'switch';
  readonly id: string;
  readonly on: V;
  readonly off: V;
}

/** One option of a choice. */
export interface ChoiceOption<V> {
  readonly value: V;
  readonly label: WindowText;
}

/** Radio buttons, one per value of the setting (their name is the id). */
export interface ChoiceControl<V> {
  readonly kind: 'choice';
  readonly id: string;
  readonly options: readonly ChoiceOption<V>[];
}

export type WindowControl<V = unknown> = TextControl | LinesControl | SwitchControl<V> | ChoiceControl<V>;

/** How the window shows a setting. */
export interface WindowPart<V = unknown> {
  readonly section: WindowSection;
  readonly control: WindowControl<V>;
  readonly label: WindowText;
  readonly help?: WindowText;
  /**
   * The window's own sentence for any mistake in the field (but a missing value), instead of the
   * agent's: where the cashier types something other than what the file keeps (reais, kept in
   * centavos), the agent's sentence would speak of a value the cashier never saw.
   */
  readonly mistake?: WindowText;
}

/** One setting the window shows. */
export interface SettingsField<S extends TSchema = TSchema> {
  /** Its schema; the description is its English documentation (docs/settings.md). */
  readonly schema: S;
  /** What the agent does when the file leaves it out; absent: nothing is assumed. */
  readonly default?: Static<S>;
  /**
   * The code the agent refuses a value of this field with (INVALID_URL…), where it has one of its
   * own: the window says that code's sentence next to the field, whatever the agent's words.
   */
  readonly code?: SettingsViolationCode;
  readonly window: WindowPart<Static<S>>;
}

/**
 * A declaration, checked against its schema (a default, a switch's values, a choice's options of
 * the setting's own type) and returned with its own types: the section schemas that name it keep
 * their static types, and a declared default is known to be there.
 */
export const declareSetting = <const S extends TSchema, const F extends SettingsField<S>>(
  field: F & SettingsField<S>,
): F => field;

/**
 * The settings the window shows, by their dotted key in the file, in the window's order (cards as
 * WINDOW_SECTIONS, fields within a card as here).
 */
export const SETTINGS_FIELDS = {
  'api.base_url': declareSetting({
    schema: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 500,
      description: 'The payments API base URL, e.g. https://api.example.com.',
    }),
    code: 'INVALID_URL',
    window: {
      section: 'api',
      control: {
        kind: 'text',
        id: 'settings-api-base-url',
        inputMode: 'url',
        spellcheck: false,
        placeholder: 'https://api.example.com',
      },
      label: { 'pt-BR': 'Endereço do serviço (URL)', en: 'Service address (URL)' },
    },
  }),
  'api.marketplace_id': declareSetting({
    schema: Type.String({ minLength: 1, maxLength: 64, description: 'The marketplace id.' }),
    window: {
      section: 'api',
      control: { kind: 'text', id: 'settings-api-marketplace-id', spellcheck: false },
      label: { 'pt-BR': 'ID do marketplace', en: 'Marketplace ID' },
    },
  }),
  'api.seller_id': declareSetting({
    schema: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The seller (on_behalf_of) the payments are made for.',
    }),
    window: {
      section: 'api',
      control: { kind: 'text', id: 'settings-api-seller-id', spellcheck: false },
      label: { 'pt-BR': 'ID do vendedor (seller)', en: 'Seller ID' },
    },
  }),
  'pinpad.address': declareSetting({
    schema: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'The PINPAD: a serial port (/dev/ttyACM0, COM3), tcp://host:port, ble:<id>, or "sim" (the simulated one). --port and PINBRIDGE_PINPAD win over it.',
    }),
    code: 'INVALID_PINPAD_ADDRESS',
    window: {
      section: 'pinpad',
      control: { kind: 'text', id: 'settings-pinpad-address', spellcheck: false, placeholder: '/dev/ttyACM0' },
      label: { 'pt-BR': 'Endereço do PINPAD', en: 'PINPAD address' },
      help: {
        'pt-BR':
          'Uma porta serial (/dev/ttyACM0, COM3), um PINPAD Bluetooth LE (ble:…, ache com Procurar Bluetooth), um PINPAD na rede (tcp://192.168.0.20:4000) ou “sim” para o simulado. Em branco: o PINPAD simulado.',
        en: 'A serial port (/dev/ttyACM0, COM3), a Bluetooth LE PINPAD (ble:…, found with Search Bluetooth), a network PINPAD (tcp://192.168.0.20:4000) or “sim” for the simulated one. Blank: the simulated PINPAD.',
      },
    },
  }),
  confirmation: declareSetting({
    schema: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('pos')], {
        description:
          '"auto": an approval is confirmed at once. "pos": the POS confirms or undoes it; unconfirmed ones are voided after the deadline.',
      }),
    ),
    // The engine's own default (DEFAULT_ENGINE_CONFIG.confirmation) is the same; a spec holds them together.
    default: 'auto',
    code: 'INVALID_CHOICE',
    window: {
      section: 'sales',
      control: {
        kind: 'choice',
        id: 'settings-confirmation',
        options: [
          {
            value: 'auto',
            label: {
              'pt-BR': 'Automática: o Pinbridge confirma a venda assim que ela é aprovada',
              en: 'Automatic: Pinbridge confirms a sale as soon as it is approved',
            },
          },
          {
            value: 'pos',
            label: {
              'pt-BR': 'Pelo caixa (PDV): ele confirma ou desfaz; sem confirmação no prazo, a venda é desfeita',
              en: 'By the POS: the POS confirms or undoes it; without a confirmation in time, the sale is undone',
            },
          },
        ],
      },
      label: { 'pt-BR': 'Confirmação das vendas aprovadas', en: 'Confirming approved sales' },
    },
  }),
  training: declareSetting({
    schema: Type.Optional(
      Type.Boolean({
        description:
          'Training mode even when `api` is set: embedded sandbox, simulated customer, receipts marked TREINAMENTO.',
      }),
    ),
    default: false,
    window: {
      section: 'sales',
      control: { kind: 'switch', id: 'settings-training', on: true, off: false },
      label: { 'pt-BR': 'Modo de treinamento', en: 'Training mode' },
      help: {
        'pt-BR':
          'Ligado: nada é cobrado de verdade, mesmo com o serviço de pagamentos configurado (para treinar um caixa novo).',
        en: 'On: nothing is really charged, even with the payments service set up (to train a new cashier).',
      },
    },
  }),
  'supervisor.required_for': declareSetting({
    schema: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('voids')], {
        description:
          '"voids": voiding an approved sale and undoing an approval waiting for confirmation from the window need the supervisor PIN (set in the window: Configurações → Supervisor). Default "none".',
      }),
    ),
    default: 'none',
    window: {
      section: 'supervisor',
      control: { kind: 'switch', id: 'settings-supervisor-required', on: 'voids', off: 'none' },
      label: {
        'pt-BR': 'Pedir a senha do supervisor para cancelar ou desfazer uma venda aprovada',
        en: "Ask for the supervisor's PIN to void or undo an approved sale",
      },
      help: {
        'pt-BR':
          'Vale para o cancelamento feito nesta janela (Vendas de hoje). Passa a valer depois de salvar e reiniciar.',
        en: 'Applies to voids made in this window (Today’s sales). In use after saving and restarting.',
      },
    },
  }),
  'supervisor.min_amount_centavos': declareSetting({
    schema: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000_000,
        description: 'Only sales of this amount (centavos) or more need the supervisor; default 0: every one.',
      }),
    ),
    default: 0,
    window: {
      section: 'supervisor',
      control: {
        kind: 'text',
        id: 'settings-supervisor-min-amount',
        value: 'centavos',
        inputMode: 'decimal',
        spellcheck: false,
        placeholder: '0,00',
      },
      label: { 'pt-BR': 'Só para vendas a partir de (R$)', en: 'Only for sales from (R$)' },
      help: { 'pt-BR': 'Em branco: todas as vendas.', en: 'Blank: every sale.' },
      mistake: {
        'pt-BR': 'Valor inválido: escreva em reais, por exemplo 100,00 (em branco: todas as vendas).',
        en: 'Invalid amount: write it in reais, e.g. 100,00 (blank: every sale).',
      },
    },
  }),
  'supervisor.entry': declareSetting({
    schema: Type.Optional(
      Type.Union([Type.Literal('window'), Type.Literal('pinpad'), Type.Literal('either')], {
        description:
          'Where the supervisor types the PIN: "window" (a password field in the void dialog, the default), "pinpad" (the PINPAD keypad, under its fixed IDENTIFICACAO prompt: the digits show in clear there) or "either".',
      }),
    ),
    default: 'window',
    code: 'INVALID_CHOICE',
    window: {
      section: 'supervisor',
      control: {
        kind: 'choice',
        id: 'settings-supervisor-entry',
        options: [
          { value: 'window', label: { 'pt-BR': 'Nesta janela', en: 'In this window' } },
          {
            value: 'pinpad',
            label: {
              'pt-BR': 'No teclado do PINPAD (os números aparecem na tela do PINPAD)',
              en: "On the PINPAD keypad (the digits show on the PINPAD's screen)",
            },
          },
          {
            value: 'either',
            label: { 'pt-BR': 'Nos dois: o supervisor escolhe', en: 'Either: the supervisor chooses' },
          },
        ],
      },
      label: { 'pt-BR': 'Onde o supervisor digita a senha', en: 'Where the supervisor types the PIN' },
    },
  }),
  'supervisor.pos_voids': declareSetting({
    schema: Type.Optional(
      Type.Union([Type.Literal('trusted'), Type.Literal('pinpad')], {
        description:
          'Voids a POS asks for (payment.undo, payment.cancel of an approval): "trusted" (the default: the POS has its own supervisor step) or "pinpad" (the supervisor types the PIN on the PINPAD too, when required_for and min_amount_centavos say so).',
      }),
    ),
    default: 'trusted',
    window: {
      section: 'supervisor',
      control: { kind: 'switch', id: 'settings-supervisor-pos', on: 'pinpad', off: 'trusted' },
      label: {
        'pt-BR': 'Cancelamentos pedidos pelo sistema de vendas (PDV) também pedem a senha, no PINPAD',
        en: 'Voids the POS asks for also need the PIN, on the PINPAD',
      },
      help: {
        'pt-BR': 'Desligado: o PDV é responsável pela autorização dos cancelamentos que ele pede.',
        en: 'Off: the POS is responsible for authorizing the voids it asks for.',
      },
    },
  }),
  'receipts.merchant.name': declareSetting({
    schema: Type.String({ minLength: 1, maxLength: 96, description: 'Business name as printed on the receipt.' }),
    window: {
      section: 'receipts',
      control: { kind: 'text', id: 'settings-merchant-name', capped: true },
      label: { 'pt-BR': 'Nome da loja', en: 'Store name' },
    },
  }),
  'receipts.merchant.cnpj': declareSetting({
    schema: Type.String({
      pattern: CNPJ_PATTERN,
      description:
        "The store's CNPJ with valid check digits, uppercase and without punctuation: 14 digits, or the alphanumeric CNPJ (12ABC34501DE35, printed 12.ABC.345/01DE-35).",
    }),
    code: 'INVALID_CNPJ',
    window: {
      section: 'receipts',
      control: {
        kind: 'text',
        id: 'settings-merchant-cnpj',
        value: 'cnpj',
        inputMode: 'text',
        autocapitalize: 'characters',
        spellcheck: false,
        placeholder: '11222333000181',
      },
      label: { 'pt-BR': 'CNPJ', en: 'CNPJ' },
      help: {
        'pt-BR':
          '14 caracteres: números ou, no CNPJ alfanumérico, letras e números; pontos, barra e traço podem ser digitados.',
        en: '14 characters: digits or, for an alphanumeric CNPJ, letters and digits; dots, slash and dash may be typed.',
      },
    },
  }),
  'receipts.merchant.address': declareSetting({
    schema: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 96 }), {
        maxItems: 4,
        description: 'Address lines, printed as given.',
      }),
    ),
    window: {
      section: 'receipts',
      control: {
        kind: 'lines',
        id: 'settings-merchant-address',
        line: { 'pt-BR': 'Endereço, linha {n}', en: 'Address, line {n}' },
        capped: true,
      },
      label: { 'pt-BR': 'Endereço (até 4 linhas)', en: 'Address (up to 4 lines)' },
    },
  }),
  // Every printer's address (printers.<name>.address) has this schema; the window sets the default printer's.
  'printers.default.address': declareSetting({
    schema: Type.String({
      minLength: 1,
      description:
        'Where the printer is: tcp://HOST[:9100], serial:///dev/ttyUSB0?baud=9600 (serial:COM3 on Windows), file:///dev/usb/lp0, lp://NAME for a system printer, or file:///some/folder/ (trailing slash) to keep each receipt as a file there.',
    }),
    code: 'INVALID_PRINTER_ADDRESS',
    window: {
      section: 'printer',
      control: {
        kind: 'text',
        id: 'settings-printer-address',
        spellcheck: false,
        placeholder: 'tcp://192.168.0.50:9100',
      },
      label: { 'pt-BR': 'Endereço da impressora padrão', en: 'Default printer address' },
      help: {
        'pt-BR':
          'Na rede: tcp://192.168.0.50:9100. Serial: serial:///dev/ttyUSB0?baud=9600 (serial:COM3 no Windows). Impressora do sistema: lp://NOME.',
        en: 'Network: tcp://192.168.0.50:9100. Serial: serial:///dev/ttyUSB0?baud=9600 (serial:COM3 on Windows). System printer: lp://NAME.',
      },
    },
  }),
} as const satisfies Readonly<Record<string, SettingsField>>;

export type SettingsFieldKey = keyof typeof SETTINGS_FIELDS;

/** A declaration with its key and path (['api', 'base_url']). */
export interface DeclaredSetting extends SettingsField {
  readonly key: SettingsFieldKey;
  readonly path: readonly string[];
}

/** Every declaration, in the window's order. */
export function declaredSettings(
  fields: Readonly<Record<string, SettingsField>> = SETTINGS_FIELDS,
): readonly DeclaredSetting[] {
  return Object.entries(fields).map(([key, field]) => ({
    ...field,
    key: key as SettingsFieldKey,
    path: key.split('.'),
  }));
}
