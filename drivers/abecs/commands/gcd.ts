/**
 * GCD — get clear data (abecs.md §3.8), TLV, blocking: the cardholder types digits (CPF, phone…)
 * under one of the PINPAD's fixed prompts (free prompts are not allowed, PCI rule).
 * Parameters: SPE_MSGIDX (mandatory), SPE_GCDOPT (2.20), SPE_MINDIG (default 0), SPE_MAXDIG
 * (default 32), SPE_TIMEOUT (absent = no time limit). Response: PP_VALUE.
 *
 * Parameters are written TIMEOUT, MINDIG, MAXDIG, MSGIDX, GCDOPT: the spec's worked frame
 * (S220 §2.2.2.3) sends TIMEOUT, MAXDIG, MSGIDX in that order, and GCDOPT goes last so that a
 * pre-2.20 PINPAD, which ignores unknown ids, sees the same packet as before.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec } from '../codec.js';
import { PP, SPE } from '../ids.js';
import { tlvsToBlocks, type Tlv } from '../tlv.js';
import { TlvFields, isPrintableAscii, okResponse, tlv } from './basic-support.js';

const ID = 'GCD';
const MAX_DIGITS = 32;
const MAX_VALUE = 32;

export interface GcdMessage {
  /** SPE_MSGIDX. */
  readonly index: number;
  readonly description: string;
  /** ACBr's defaults for this prompt; undefined leaves the PINPAD defaults (0 and 32). */
  readonly minDigits?: number;
  readonly maxDigits?: number;
}

function msg(index: number, description: string, minDigits?: number, maxDigits?: number): GcdMessage {
  return minDigits === undefined ? { index, description } : { index, description, minDigits, maxDigits };
}

/** The fixed GCD prompts (S220 §3.3.8); 0x0D–0x35 need Abecs 2.10 or later. */
export const GCD_MESSAGES = {
  areaCode: msg(0x01, 'Enter the area code (DDD)', 3, 3),
  areaCodeAgain: msg(0x02, 'Re-enter the area code (DDD)', 3, 3),
  phone: msg(0x03, 'Enter the phone number', 8, 9),
  phoneAgain: msg(0x04, 'Re-enter the phone number', 8, 9),
  areaCodeAndPhone: msg(0x05, 'Enter DDD and phone number', 10, 11),
  areaCodeAndPhoneAgain: msg(0x06, 'Re-enter DDD and phone number', 10, 11),
  cpf: msg(0x07, 'Enter the CPF', 11, 11),
  cpfAgain: msg(0x08, 'Re-enter the CPF', 11, 11),
  rg: msg(0x09, 'Enter the RG', 5, 11),
  rgAgain: msg(0x0a, 'Re-enter the RG', 5, 11),
  lastFourDigits: msg(0x0b, 'Enter the last 4 digits of the card', 4, 4),
  securityCode: msg(0x0c, 'Enter the security code', 3, 3),
  // The keypad has digits only: a CNPJ typed here is a numeric one. An alphanumeric CNPJ (issued
  // since July 2026, e.g. 12ABC34501DE35) cannot be typed on a PINPAD at all.
  cnpj: msg(0x0d, 'Enter the CNPJ', 14, 14),
  cnpjAgain: msg(0x0e, 'Re-enter the CNPJ', 14, 14),
  dateDdmmyyyy: msg(0x0f, 'Enter the date (DDMMYYYY)', 8, 8),
  dateDdmmyy: msg(0x10, 'Enter the date (DDMMYY)', 6, 6),
  dateDdmm: msg(0x11, 'Enter the date (DDMM)', 4, 4),
  day: msg(0x12, 'Enter the day (DD)', 2, 2),
  month: msg(0x13, 'Enter the month (MM)', 2, 2),
  yearYy: msg(0x14, 'Enter the year (YY)', 2, 2),
  yearYyyy: msg(0x15, 'Enter the year (YYYY)', 4, 4),
  birthDateDdmmyyyy: msg(0x16, 'Birth date (DDMMYYYY)', 8, 8),
  birthDateDdmmyy: msg(0x17, 'Birth date (DDMMYY)', 6, 6),
  birthDateDdmm: msg(0x18, 'Birth date (DDMM)', 4, 4),
  birthDay: msg(0x19, 'Birth day (DD)', 2, 2),
  birthMonth: msg(0x1a, 'Birth month (MM)', 2, 2),
  birthYearYy: msg(0x1b, 'Birth year (YY)', 2, 2),
  birthYearYyyy: msg(0x1c, 'Birth year (YYYY)', 4, 4),
  identification: msg(0x1d, 'Enter the identification'),
  loyaltyCode: msg(0x1e, 'Loyalty code'),
  tableNumber: msg(0x1f, 'Table number'),
  numberOfPeople: msg(0x20, 'Number of people'),
  quantity: msg(0x21, 'Enter the quantity'),
  pumpNumber: msg(0x22, 'Pump number'),
  parkingSpace: msg(0x23, 'Parking space number'),
  counterNumber: msg(0x24, 'Counter number'),
  salespersonCode: msg(0x25, 'Salesperson code'),
  waiterCode: msg(0x26, 'Waiter code'),
  serviceRating: msg(0x27, 'Service rating', 1, 2),
  invoiceNumber: msg(0x28, 'Invoice (nota fiscal) number'),
  orderSlipNumber: msg(0x29, 'Order slip (comanda) number'),
  vehiclePlate: msg(0x2a, 'Vehicle plate'),
  mileage: msg(0x2b, 'Enter the mileage'),
  initialMileage: msg(0x2c, 'Initial mileage'),
  finalMileage: msg(0x2d, 'Final mileage'),
  percentage: msg(0x2e, 'Enter the percentage'),
  satisfactionSurvey: msg(0x2f, 'Satisfaction survey (0 to 10)', 1, 2),
  rateService: msg(0x30, 'Rate the service (0 to 10)', 1, 2),
  token: msg(0x31, 'Enter the token'),
  cardNumber: msg(0x32, 'Enter the card number'),
  installments: msg(0x33, 'Number of instalments', 1, 3),
  planCode: msg(0x34, 'Plan code'),
  productCode: msg(0x35, 'Product code'),
} as const satisfies Record<string, GcdMessage>;

export type GcdMessageName = keyof typeof GCD_MESSAGES;

export interface GcdRequest {
  /** SPE_MSGIDX, e.g. GCD_MESSAGES.cpf.index. */
  readonly message: number;
  /** SPE_GCDOPT (2.20): accept letters too. Older PINPADs ignore it. */
  readonly alphanumeric?: boolean;
  readonly minDigits?: number;
  readonly maxDigits?: number;
  /** Cardholder inactivity limit, 0–255 s; absent = wait forever (cancel with CAN). */
  readonly timeoutSeconds?: number;
}

export interface GcdResult {
  /** What the cardholder typed (PP_VALUE). */
  readonly value: string;
}

/** A request for a named prompt with ACBr's digit limits. */
export function gcdRequestFor(name: GcdMessageName, timeoutSeconds?: number): GcdRequest {
  const entry: GcdMessage = GCD_MESSAGES[name];
  return {
    message: entry.index,
    ...(entry.minDigits !== undefined ? { minDigits: entry.minDigits } : {}),
    ...(entry.maxDigits !== undefined ? { maxDigits: entry.maxDigits } : {}),
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
  };
}

function checkDigits(req: GcdRequest): void {
  const { minDigits, maxDigits } = req;
  if (minDigits !== undefined && (!Number.isInteger(minDigits) || minDigits < 0 || minDigits > MAX_DIGITS)) {
    throw new InvalidArgumentError(`GCD minimum digits must be from 0 to ${MAX_DIGITS}, got ${minDigits}.`);
  }
  if (maxDigits !== undefined && (!Number.isInteger(maxDigits) || maxDigits < 1 || maxDigits > MAX_DIGITS)) {
    throw new InvalidArgumentError(`GCD maximum digits must be from 1 to ${MAX_DIGITS}, got ${maxDigits}.`);
  }
  if (minDigits !== undefined && maxDigits !== undefined && minDigits > maxDigits) {
    throw new InvalidArgumentError(`GCD minimum digits (${minDigits}) exceed the maximum (${maxDigits}).`);
  }
}

export const gcdCommand: CommandCodec<GcdRequest, GcdResult> = {
  id: ID,
  blocking: true,

  encodeRequest(req) {
    if (!Number.isInteger(req.message) || req.message < 1 || req.message > 0xffff) {
      throw new InvalidArgumentError(`GCD message index must be from 1 to 65535, got ${req.message}.`);
    }
    checkDigits(req);
    const tlvs: Tlv[] = [];
    if (req.timeoutSeconds !== undefined) tlvs.push(tlv.x1(SPE.TIMEOUT, 'GCD timeout', req.timeoutSeconds));
    if (req.minDigits !== undefined) tlvs.push(tlv.x1(SPE.MINDIG, 'GCD minimum digits', req.minDigits));
    if (req.maxDigits !== undefined) tlvs.push(tlv.x1(SPE.MAXDIG, 'GCD maximum digits', req.maxDigits));
    tlvs.push(tlv.x2(SPE.MSGIDX, 'GCD message index', req.message));
    if (req.alphanumeric !== undefined) tlvs.push(tlv.text(SPE.GCDOPT, req.alphanumeric ? '1000' : '0000'));
    return { id: ID, blocks: tlvsToBlocks(tlvs) };
  },

  decodeRequest(cmd) {
    const f = TlvFields.command(cmd);
    const message = f.require(f.x2(SPE.MSGIDX, 'SPE_MSGIDX'), 'SPE_MSGIDX');
    const timeoutSeconds = f.x1(SPE.TIMEOUT, 'SPE_TIMEOUT');
    const minDigits = f.x1(SPE.MINDIG, 'SPE_MINDIG');
    const maxDigits = f.x1(SPE.MAXDIG, 'SPE_MAXDIG');
    const option = f.text(SPE.GCDOPT, 'SPE_GCDOPT', 4);
    if (minDigits !== undefined && minDigits > MAX_DIGITS) throw f.error(`SPE_MINDIG must be at most ${MAX_DIGITS}`);
    if (maxDigits !== undefined && (maxDigits < 1 || maxDigits > MAX_DIGITS)) {
      throw f.error(`SPE_MAXDIG must be from 1 to ${MAX_DIGITS}`);
    }
    if ((minDigits ?? 0) > (maxDigits ?? MAX_DIGITS)) throw f.error('SPE_MINDIG exceeds SPE_MAXDIG');
    if (option !== undefined && !/^[0-9]{1,4}$/.test(option)) throw f.error('SPE_GCDOPT must be digits');
    return {
      message,
      ...(option !== undefined ? { alphanumeric: option[0] === '1' } : {}),
      ...(minDigits !== undefined ? { minDigits } : {}),
      ...(maxDigits !== undefined ? { maxDigits } : {}),
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    };
  },

  encodeResponse(res) {
    if (res.value.length > MAX_VALUE || !isPrintableAscii(res.value)) {
      throw new InvalidArgumentError(`A GCD value is printable ASCII of at most ${MAX_VALUE} characters.`);
    }
    return okResponse(ID, tlvsToBlocks([tlv.text(PP.VALUE, res.value)]));
  },

  decodeResponse(rsp) {
    const f = TlvFields.response(rsp);
    return { value: f.require(f.text(PP.VALUE, 'PP_VALUE', MAX_VALUE), 'PP_VALUE') };
  },
};
