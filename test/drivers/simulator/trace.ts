/**
 * The 25 commands the Scope TEF sent to the Gertec PPC-930 in the TRACE (abecs.md §0 and §6.3,
 * guilhermecabral05/abecs-rust `transcao_completa_com_scope.txt`, 11/11/2025 17:36:18–17:36:59),
 * as PKTDATA without SYN, ETB and CRC, each with the RSP_ID and RSP_STAT the real PINPAD answered.
 */
import { GCX062 } from './wire/bytes.js';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const cat = (...parts: Array<Buffer | string>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? latin1(part) : part)));

/** The first command (17:36:18) as logged, 16 characters a line: the secure OPN, RSA-2048, exponent 010001. */
export const TRACE_OPN = latin1(
  [
    'OPN52302567D112',
    '556EE2032E483C79',
    '881297B0886B7B28',
    '3EC88E69AFB09C30',
    '57946BD78664F2A2',
    '49F579C394094901',
    '0A2AE9BCB126AB04',
    '9FADB5DD0A2FDB49',
    '5406F3778A5D8C09',
    '89126A1706A70C4E',
    '8FD60E8CCF824335',
    '43509A6726102CA4',
    'E4F0A754117BA4AD',
    'D1085A49D5F360D8',
    '4CB51E40B3627AB7',
    '9A8563307AE37D01',
    'D8DEF6CC4DE2677D',
    'FDB406705B9ACCD4',
    '01C54D111686FEE2',
    'ED05D44821C43656',
    'D172AE5AEC496C9C',
    '28AEE8A78215692F',
    '06C4D0C0BDABA1D4',
    '0681D71ABFB06F52',
    '5CD76B176832E2B7',
    'B9AAE481C1370F5C',
    '2000B37EFA94B795',
    '42E8235DEE487A80',
    'DAF52DE4CE739004',
    '31DC4639D00BD5A7',
    '9BA6A8857A6BC7AC',
    'F1DDC9846C1ECD06',
    'D1BDA3B182B30100',
    '01',
  ].join(''),
);

/** SPE_TAGLIST of the GOX and the FCX: 23 tags, 39 bytes. */
const TAGLIST = hex(
  '9F26 9F27 9F10 9F37 9F36 95 9A 9C 9F02 5F2A 82 9F1A 9F03 9F34 9F06 50 9F33 5F24 9F0B 5F34 5A 57 9F6E',
);

const GIX006_TABVER00 = hex('47 49 58 30 30 36 00 01 00 02 93 00');
const DSP_AGUARDE = latin1('DSP032Cartao Credito  Aguarde...      ');
const ebx = (data: string): Buffer =>
  cat(
    'EBX044',
    hex('00 0F 00 08'),
    hex(data),
    hex('00 03 00 02'),
    '10',
    hex('00 09 00 02'),
    '02',
    hex('00 0A 00 10'),
    hex('2CC30CF882FB8877AA6AD6353BE44F32'),
  );
const EBX_A = ebx('0C5A407BF1F826DC');
const EBX_C = ebx('0000000000013511');

export interface TraceExchange {
  /** The time logged for the command. */
  readonly at: string;
  readonly command: Buffer;
  /** RSP_ID + RSP_STAT of the real PINPAD's answer. */
  readonly answered: string;
}

export const TRACE_EXCHANGES: readonly TraceExchange[] = [
  { at: '17:36:18', command: TRACE_OPN, answered: 'OPN000' },
  { at: '17:36:21', command: latin1('GIX000'), answered: 'GIX000' },
  {
    at: '17:36:29',
    command: hex('47 49 58 30 31 36 00 01 00 0C 90 01 91 01 91 05 93 00 93 04 93 06'),
    answered: 'GIX000',
  },
  { at: '17:36:30', command: GIX006_TABVER00, answered: 'GIX000' },
  {
    at: '17:36:30',
    command: latin1('DEX070067VALOR:         1\r                \rAPROXIME, INSIRA\rOU PASSE  CARTAO'),
    answered: 'DEX000',
  },
  { at: '17:36:31', command: cat('CEX010', hex('00 06 00 06'), '111100'), answered: 'CEX000' },
  { at: '17:36:46', command: DSP_AGUARDE, answered: 'DSP000' },
  { at: '17:36:47', command: GIX006_TABVER00, answered: 'GIX000' },
  { at: '17:36:47', command: GIX006_TABVER00, answered: 'GIX000' },
  { at: '17:36:47', command: GCX062, answered: 'GCX000' },
  { at: '17:36:50', command: DSP_AGUARDE, answered: 'DSP000' },
  { at: '17:36:50', command: DSP_AGUARDE, answered: 'DSP000' },
  { at: '17:36:51', command: hex('47 49 58 30 30 36 00 01 00 02 91 02'), answered: 'GIX000' },
  { at: '17:36:52', command: cat('GTK008', hex('00 07 00 04'), '1111'), answered: 'GTK000' },
  { at: '17:36:52', command: EBX_A, answered: 'EBX000' },
  { at: '17:36:53', command: EBX_A, answered: 'EBX000' },
  {
    at: '17:36:53',
    command: cat(
      'GOX168',
      hex('00 10 00 02'),
      '02',
      hex('00 13 00 0C'),
      '000000000001',
      hex('00 14 00 0C'),
      '000000000000',
      hex('00 18 00 05'),
      '00100',
      hex('00 02 00 01'),
      '3',
      hex('00 09 00 02'),
      '02',
      hex('00 0A 00 08 0000000000000000'),
      hex('00 1B 00 20'),
      'R$ 0,01         \rSENHA CREDIT:  ',
      hex('00 1A 00 0A 00000000000000000000'),
      hex('00 04 00 27'),
      TAGLIST,
      hex('00 21 00 01 00'),
    ),
    answered: 'GOX000',
  },
  { at: '17:36:55', command: DSP_AGUARDE, answered: 'DSP000' },
  { at: '17:36:55', command: EBX_A, answered: 'EBX000' },
  { at: '17:36:56', command: ebx('5329300832225210'), answered: 'EBX000' },
  { at: '17:36:56', command: EBX_C, answered: 'EBX000' },
  {
    at: '17:36:57',
    command: cat(
      'FCX073',
      hex('00 19 00 04'),
      '0000',
      hex('00 1C 00 02'),
      '00',
      hex('00 05 00 0C 8A 02 30 30 89 06'),
      '062501',
      hex('00 04 00 27'),
      TAGLIST,
    ),
    answered: 'FCX000',
  },
  { at: '17:36:58', command: EBX_C, answered: 'EBX000' },
  { at: '17:36:59', command: latin1('DSP032Cartao Credito  AUTORIZADO      '), answered: 'DSP000' },
  { at: '17:36:59', command: latin1('DSP032     SCOPE        CONEXAO TECH  '), answered: 'DSP000' },
];

/** The tags of the real FCX000160 answer (the 20 of the TAGLIST the card holds; never 5A or 57), in order. */
export const TRACE_FCX_TAGS = [
  '9F26',
  '9F27',
  '9F10',
  '9F37',
  '9F36',
  '95',
  '9A',
  '9C',
  '9F02',
  '5F2A',
  '82',
  '9F1A',
  '9F03',
  '9F34',
  '9F06',
  '50',
  '9F33',
  '5F24',
  '5F34',
  '9F6E',
];
