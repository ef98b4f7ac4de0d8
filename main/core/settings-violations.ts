/**
 * The mistakes a settings file can hold, each with a stable code (the window, a technician's
 * script and the docs branch on it), the English sentence for logs and the CLI (`message`), and
 * one pt-BR sentence the window shows next to the field (`cashier_message`).
 */
import type { Violation as ContractViolation } from '../contract/index.js';

export const SETTINGS_VIOLATION_CODES = [
  'REQUIRED',
  'UNKNOWN_FIELD',
  'INVALID_TYPE',
  'INVALID_FORMAT',
  'INVALID_VALUE',
  'INVALID_CHOICE',
  'TOO_LONG',
  'TOO_SHORT',
  'OUT_OF_RANGE',
  'NOT_ALLOWED',
  'INCONSISTENT',
  'INVALID_CNPJ',
  'INVALID_CNPJ_CHECK_DIGITS',
  'INVALID_URL',
  'INVALID_TIME_ZONE',
  'INVALID_PINPAD_ADDRESS',
  'INVALID_PRINTER_ADDRESS',
  'UNKNOWN_PRINTER_MODEL',
  'INVALID_CODEPAGE',
  'NO_API_TOKEN',
  'CERTIFICATE_PASSPHRASE',
  'CERTIFICATE_UNUSABLE',
  'FILE_UNREADABLE',
  'FILE_INVALID',
  'GOVERNED_REMOTELY',
  'MOVED',
] as const;
export type SettingsViolationCode = (typeof SETTINGS_VIOLATION_CODES)[number];

export const SETTINGS_CASHIER_MESSAGES: Readonly<Record<SettingsViolationCode, string>> = {
  REQUIRED: 'Preencha este campo.',
  UNKNOWN_FIELD: 'Configuração desconhecida: remova-a do arquivo de configurações ou chame o suporte técnico.',
  INVALID_TYPE: 'Valor de tipo errado: confira se é um número, um texto ou sim/não, como pedido.',
  INVALID_FORMAT: 'Formato não aceito: confira o valor digitado.',
  INVALID_VALUE: 'Valor não aceito: confira o valor digitado.',
  INVALID_CHOICE: 'Escolha uma das opções.',
  TOO_LONG: 'Texto longo demais: encurte o valor.',
  TOO_SHORT: 'Texto curto demais: complete o valor.',
  OUT_OF_RANGE: 'Número fora dos limites permitidos para este campo.',
  NOT_ALLOWED: 'Estes valores não podem ser usados juntos.',
  INCONSISTENT: 'Este valor não combina com outro valor das configurações: o mínimo não pode passar do máximo.',
  INVALID_CNPJ:
    'O CNPJ tem 14 caracteres: 12 números ou letras e 2 dígitos verificadores (como 11.222.333/0001-81 ou 12.ABC.345/01DE-35).',
  INVALID_CNPJ_CHECK_DIGITS: 'Os dígitos verificadores não conferem: confira o CNPJ.',
  INVALID_URL: 'Use um endereço que comece com https:// (ou http://), sem espaços.',
  INVALID_TIME_ZONE:
    'Fuso horário inválido: use o nome do fuso, como America/Sao_Paulo, America/Manaus ou America/Rio_Branco.',
  INVALID_PINPAD_ADDRESS:
    'Endereço de PINPAD inválido: use a porta serial (/dev/ttyACM0, COM3), tcp://IP:PORTA de um PINPAD de rede (como tcp://10.0.0.5:4000), ble:<id> de um PINPAD Bluetooth, ou sim para o simulado.',
  INVALID_PRINTER_ADDRESS:
    'Endereço de impressora inválido: use tcp://IP:9100, serial:///dev/ttyUSB0, file:///dev/usb/lp0 ou lp://NOME.',
  UNKNOWN_PRINTER_MODEL: 'Modelo de impressora desconhecido: escolha um dos modelos da lista.',
  INVALID_CODEPAGE: 'Página de código da impressora não aceita: escolha uma das opções.',
  NO_API_TOKEN: 'Nenhum token guardado: digite o token do serviço de pagamentos neste cartão e guarde-o.',
  CERTIFICATE_PASSPHRASE:
    'A senha do certificado digital está faltando ou errada: digite-a em "Senha do certificado digital" e guarde-a.',
  CERTIFICATE_UNUSABLE:
    'O certificado digital não pôde ser usado; confira os arquivos do certificado nas configurações.',
  FILE_UNREADABLE: 'O arquivo de configurações não pôde ser lido. Chame o suporte técnico.',
  FILE_INVALID: 'O arquivo de configurações está corrompido ou fora do formato. Chame o suporte técnico.',
  GOVERNED_REMOTELY: 'Este campo é definido pela configuração da rede e não pode ser alterado aqui.',
  MOVED: 'Este campo mudou de lugar no arquivo de configurações. Chame o suporte técnico.',
};

/** One mistake: where (a dotted path from the top of the file), its code, English and pt-BR. */
export interface SettingsViolation {
  readonly field: string;
  readonly code: SettingsViolationCode;
  /** English, for logs, the CLI and the technician. */
  readonly message: string;
  /** pt-BR, for the window (next to the field). */
  readonly cashier_message: string;
}

/** A violation with its code's pt-BR sentence (or a sentence of its own, e.g. naming the address typed). */
export function settingsViolation(
  field: string,
  code: SettingsViolationCode,
  message: string,
  cashierMessage?: string,
): SettingsViolation {
  return { field, code, message, cashier_message: cashierMessage ?? SETTINGS_CASHIER_MESSAGES[code] };
}

const CONTRACT_CODES: Readonly<Record<ContractViolation['code'], SettingsViolationCode>> = {
  required: 'REQUIRED',
  unexpected_field: 'UNKNOWN_FIELD',
  invalid_type: 'INVALID_TYPE',
  invalid_format: 'INVALID_FORMAT',
  invalid_value: 'INVALID_VALUE',
  too_long: 'TOO_LONG',
  too_short: 'TOO_SHORT',
  out_of_range: 'OUT_OF_RANGE',
  invalid_check_digits: 'INVALID_CNPJ_CHECK_DIGITS',
  not_allowed: 'NOT_ALLOWED',
};

/**
 * A schema's violation as a settings mistake, `field` already named from the top of the file:
 * the code says the rule, sharpened by the field where the field says more (a CNPJ's format, a
 * URL, a choice among options).
 */
export function fromSchemaViolation(
  field: string,
  violation: Pick<ContractViolation, 'code' | 'message'>,
): SettingsViolation {
  let code = CONTRACT_CODES[violation.code];
  if (code === 'INVALID_FORMAT' && /\.cnpj$/.test(field)) code = 'INVALID_CNPJ';
  else if ((code === 'INVALID_FORMAT' || code === 'INVALID_TYPE') && /(^|\.)(base_url|feed_url)$/.test(field))
    code = 'INVALID_URL';
  else if (
    code === 'INVALID_VALUE' &&
    /has a value that is not allowed|must be one of|must be "/.test(violation.message)
  )
    code = 'INVALID_CHOICE';
  return settingsViolation(field, code, violation.message);
}
