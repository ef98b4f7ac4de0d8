/**
 * ABECS return codes (abecs.md §4.1, plus the legacy BibComp codes of §4.2 that an old PINPAD
 * may still put in RSP_STAT). Each code has a stable name (used as the error `code`), an English
 * meaning for logs and technicians, a pt-BR sentence for the cashier and a category the callers
 * switch on (retry, ask the cardholder again, reload tables, …).
 *
 * The library-only codes of §4.2 (001/002 PROCESSING/NOTIFY, 030–034 host serial errors) are left
 * out on purpose: they are BibComp API results, never wire statuses.
 */
import { DriverError } from '../errors.js';

export type StatusCategory =
  | 'ok'
  | 'key'
  | 'cancelled'
  | 'timeout'
  | 'sequence'
  | 'parameter'
  | 'security'
  | 'tables'
  | 'device'
  | 'card'
  | 'contactless'
  | 'media';

export interface StatusInfo {
  /** RSP_STAT as a number. */
  readonly status: number;
  /** Stable name, e.g. "ST_CANCEL" (legacy codes keep their BibComp "PP_" name). */
  readonly name: string;
  /** English, lower-case sentence fragment for "<CMD> failed: <meaning> (<name>, <nnn>)." */
  readonly meaning: string;
  /** One pt-BR sentence the cashier can read. */
  readonly cashierMessage: string;
  readonly category: StatusCategory;
  /** True for BibComp-era codes that Abecs 2.x PINPADs no longer send. */
  readonly legacy: boolean;
}

type Row = readonly [status: number, name: string, category: StatusCategory, meaning: string, cashier: string];

const CURRENT: readonly Row[] = [
  [0, 'ST_OK', 'ok', 'success', 'Operação concluída.'],
  [
    3,
    'ST_NOSEC',
    'security',
    'secure communication was used but is not established',
    'Falha de comunicação segura com o PINPAD.',
  ],
  [4, 'ST_F1', 'key', 'the F1 key was pressed', 'Tecla F1 pressionada no PINPAD.'],
  [5, 'ST_F2', 'key', 'the F2 key was pressed', 'Tecla F2 pressionada no PINPAD.'],
  [6, 'ST_F3', 'key', 'the F3 key was pressed', 'Tecla F3 pressionada no PINPAD.'],
  [7, 'ST_F4', 'key', 'the F4 key was pressed', 'Tecla F4 pressionada no PINPAD.'],
  [8, 'ST_BACKSP', 'key', 'the CLEAR key was pressed', 'Tecla CORRIGE pressionada no PINPAD.'],
  [
    9,
    'ST_ERRPKTSEC',
    'security',
    'a secure packet could not be decoded, or a clear command arrived during secure communication',
    'Falha de comunicação segura com o PINPAD.',
  ],
  [
    10,
    'ST_INVCALL',
    'sequence',
    'the command was called out of sequence or is unknown to the PINPAD',
    'Comando fora de sequência ou não suportado pelo PINPAD.',
  ],
  [
    11,
    'ST_INVPARM',
    'parameter',
    'the command carried an invalid parameter',
    'O PINPAD recusou um parâmetro inválido.',
  ],
  [12, 'ST_TIMEOUT', 'timeout', 'the time limit ran out', 'Tempo esgotado no PINPAD.'],
  [13, 'ST_CANCEL', 'cancelled', 'cancelled by the cardholder', 'Operação cancelada pelo cliente no PINPAD.'],
  [
    19,
    'ST_MANDAT',
    'parameter',
    'a mandatory parameter was missing',
    'Faltou um parâmetro obrigatório no comando ao PINPAD.',
  ],
  [
    20,
    'ST_TABVERDIF',
    'tables',
    'the EMV table version differs from the expected one',
    'As tabelas do PINPAD precisam ser atualizadas.',
  ],
  [21, 'ST_TABERR', 'tables', 'the tables could not be written (no space)', 'Erro ao gravar as tabelas no PINPAD.'],
  [40, 'ST_INTERR', 'device', 'the PINPAD reported an internal error', 'Erro interno no PINPAD.'],
  [
    41,
    'ST_MCDATAERR',
    'card',
    'the magnetic stripe could not be read',
    'Erro na leitura do cartão magnético. Passe o cartão novamente.',
  ],
  [
    42,
    'ST_ERRKEY',
    'security',
    'the referenced master or DUKPT key is not loaded',
    'Chave de criptografia ausente no PINPAD.',
  ],
  [
    43,
    'ST_NOCARD',
    'card',
    'no chip card is inserted and no contactless card was detected',
    'Nenhum cartão presente no PINPAD.',
  ],
  [
    44,
    'ST_PINBUSY',
    'security',
    'the PINPAD temporarily refuses PIN entry for security reasons',
    'O PINPAD bloqueou temporariamente a digitação de senha. Aguarde e tente novamente.',
  ],
  [
    45,
    'ST_RSPOVRFL',
    'device',
    'the response would exceed the maximum size',
    'A resposta do PINPAD excedeu o tamanho máximo.',
  ],
  [46, 'ST_ERRCRYPT', 'security', 'a cryptographic validation failed', 'Erro de criptografia no PINPAD.'],
  [
    47,
    'ST_SECURITY',
    'security',
    'the operation was aborted for security reasons',
    'Operação interrompida por segurança no PINPAD.',
  ],
  [60, 'ST_DUMBCARD', 'card', 'the chip card does not respond', 'O chip do cartão não responde.'],
  [61, 'ST_ERRCARD', 'card', 'communication with the card failed', 'Erro de comunicação com o cartão.'],
  [67, 'ST_CARDINVALIDAT', 'card', 'the card is invalidated', 'Cartão invalidado.'],
  [
    68,
    'ST_CARDPROBLEMS',
    'card',
    'the chip card misbehaved and the transaction must end',
    'Problema no cartão. Transação encerrada.',
  ],
  [69, 'ST_CARDINVDATA', 'card', 'the chip card holds invalid or inconsistent data', 'Dados inválidos no cartão.'],
  [70, 'ST_CARDAPPNAV', 'card', 'the chip card has no matching application', 'Cartão sem aplicação compatível.'],
  [
    71,
    'ST_CARDAPPNAUT',
    'card',
    'the selected chip application cannot be used',
    'A aplicação do cartão não pode ser usada.',
  ],
  [
    76,
    'ST_ERRFALLBACK',
    'card',
    'the chip failed in a way that allows a magnetic stripe fallback',
    'Erro no chip. Passe o cartão pela tarja magnética.',
  ],
  [77, 'ST_INVAMOUNT', 'parameter', 'the amount is invalid', 'Valor inválido para a transação.'],
  [
    78,
    'ST_ERRMAXAID',
    'card',
    'there are more candidate applications than the kernel handles',
    'Excesso de aplicações candidatas no cartão.',
  ],
  [79, 'ST_CARDBLOCKED', 'card', 'the card is blocked', 'Cartão bloqueado.'],
  [
    80,
    'ST_CTLSMULTIPLE',
    'contactless',
    'several contactless cards were in the field',
    'Mais de um cartão por aproximação. Aproxime apenas um cartão.',
  ],
  [
    81,
    'ST_CTLSCOMMERR',
    'contactless',
    'communication with the contactless card failed',
    'Erro de comunicação com o cartão por aproximação.',
  ],
  [82, 'ST_CTLSINVALIDAT', 'contactless', 'the contactless card is invalidated', 'Cartão por aproximação invalidado.'],
  [83, 'ST_CTLSPROBLEMS', 'contactless', 'the contactless card misbehaved', 'Problema no cartão por aproximação.'],
  [
    84,
    'ST_CTLSAPPNAV',
    'contactless',
    'the contactless card has no matching application',
    'Cartão por aproximação sem aplicação compatível.',
  ],
  [
    85,
    'ST_CTLSAPPNAUT',
    'contactless',
    'the selected contactless application cannot be used',
    'A aplicação do cartão por aproximação não pode ser usada.',
  ],
  [
    86,
    'ST_CTLSEXTCVM',
    'contactless',
    'the cardholder must confirm on the phone and tap again',
    'Siga as instruções no celular e aproxime novamente.',
  ],
  [
    87,
    'ST_CTLSIFCHG',
    'contactless',
    'the card asks for another interface (insert or swipe)',
    'Insira ou passe o cartão.',
  ],
  [100, 'ST_MFNFOUND', 'media', 'the media file was not found', 'Arquivo de imagem não encontrado no PINPAD.'],
  [101, 'ST_MFERRFMT', 'media', 'the media file format is invalid', 'Formato de imagem inválido para o PINPAD.'],
  [102, 'ST_MFERR', 'media', 'the media file could not be loaded', 'Erro ao carregar imagem no PINPAD.'],
];

/** BibComp-era codes (abecs.md §4.2) whose number Abecs 2.x does not reuse. */
const LEGACY: readonly Row[] = [
  [14, 'PP_ALREADYOPEN', 'sequence', 'the PINPAD was already open', 'O PINPAD já estava aberto.'],
  [15, 'PP_NOTOPEN', 'sequence', 'the PINPAD was not open', 'O PINPAD não estava aberto.'],
  [16, 'PP_EXECERR', 'device', 'the PINPAD failed to execute the command', 'Erro de execução no PINPAD.'],
  [
    17,
    'PP_INVMODEL',
    'device',
    'the PINPAD model does not support the function',
    'Função não suportada por este modelo de PINPAD.',
  ],
  [18, 'PP_NOFUNC', 'device', 'the function is not available on the PINPAD', 'Função não disponível no PINPAD.'],
  [
    22,
    'PP_NOAPPLIC',
    'card',
    'no application is available for the card',
    'Nenhuma aplicação disponível para o cartão.',
  ],
  [50, 'PP_SAMERR', 'device', 'the SAM module failed', 'Erro no módulo SAM do PINPAD.'],
  [51, 'PP_NOSAM', 'device', 'the SAM module is missing', 'Módulo SAM ausente no PINPAD.'],
  [52, 'PP_SAMINV', 'device', 'the SAM module is invalid', 'Módulo SAM inválido no PINPAD.'],
  [62, 'PP_CARDINV', 'card', 'the card is invalid', 'Cartão inválido.'],
  [63, 'PP_CARDBLOCKED', 'card', 'the card is blocked', 'Cartão bloqueado.'],
  [64, 'PP_CARDNAUTH', 'card', 'the card is not authorised', 'Cartão não autorizado.'],
  [65, 'PP_CARDEXPIRED', 'card', 'the card has expired', 'Cartão vencido.'],
  [66, 'PP_CARDERRSTRUCT', 'card', 'the card data structure is invalid', 'Erro na estrutura de dados do cartão.'],
  [72, 'PP_NOBALANCE', 'card', 'the card has no balance', 'Cartão sem saldo.'],
  [73, 'PP_LIMITEXC', 'card', 'the card limit was exceeded', 'Limite do cartão excedido.'],
  [74, 'PP_CARDNOTEFFECT', 'card', 'the card is not yet effective', 'Cartão ainda não está válido.'],
  [75, 'PP_VCINVCURR', 'card', 'the card currency is invalid', 'Moeda inválida no cartão.'],
];

const TABLE: ReadonlyMap<number, StatusInfo> = new Map(
  [...CURRENT.map((row) => [row, false] as const), ...LEGACY.map((row) => [row, true] as const)].map(
    ([[status, name, category, meaning, cashierMessage], legacy]) => [
      status,
      Object.freeze({ status, name, meaning, cashierMessage, category, legacy }),
    ],
  ),
);

/** Every known status, ordered by number. */
export const ABECS_STATUSES: readonly StatusInfo[] = [...TABLE.values()].sort((a, b) => a.status - b.status);

/** "013" for 13. */
export function statusText(status: number): string {
  return String(status).padStart(3, '0');
}

/** The table entry for a status; unknown numbers get a generic `ST_UNKNOWN_<nnn>` entry. */
export function describeStatus(status: number): StatusInfo {
  const known = TABLE.get(status);
  if (known) return known;
  const nnn = statusText(status);
  return {
    status,
    name: `ST_UNKNOWN_${nnn}`,
    meaning: `the PINPAD answered the undocumented status ${nnn}`,
    cashierMessage: `O PINPAD respondeu com um código desconhecido (${nnn}).`,
    category: 'device',
    legacy: false,
  };
}

/**
 * A command that the PINPAD answered with an error status. `code` is the status name
 * ("ST_TIMEOUT"), so callers can switch on it without knowing the numbers.
 */
export class AbecsStatusError extends DriverError {
  readonly status: number;
  readonly command: string;
  readonly meaning: string;
  readonly cashierMessage: string;
  readonly category: StatusCategory;

  constructor(command: string, status: number) {
    const info = describeStatus(status);
    super(info.name, `${command} failed: ${info.meaning} (${info.name}, ${statusText(status)}).`);
    this.status = status;
    this.command = command;
    this.meaning = info.meaning;
    this.cashierMessage = info.cashierMessage;
    this.category = info.category;
  }

  static from(command: string, status: number): AbecsStatusError {
    // `this`, not the class's name: a class that names itself is renamed in the bundle
    // (scripts/bundle.mjs), and an error reports its class's name.
    return new this(command, status);
  }

  override toJSON(): {
    name: string;
    code: string;
    message: string;
    status: number;
    command: string;
    category: StatusCategory;
    cashierMessage: string;
  } {
    return {
      ...super.toJSON(),
      status: this.status,
      command: this.command,
      category: this.category,
      cashierMessage: this.cashierMessage,
    };
  }
}
