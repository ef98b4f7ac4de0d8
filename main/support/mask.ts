/**
 * The masking every text file of a support bundle goes through before it is written: card data
 * as the logs mask it (drivers/card-number.ts: a card number keeps its first 6 and last 4 digits,
 * a track becomes "[track removed]"), then CPFs, which keep their first 3 digits. A CPF written as
 * one (123.456.789-09) is masked whatever its check digits; 11 digits in a row (12345678909) only
 * when their check digits make them a CPF — the doctor's report and the logs hold other 11-digit
 * numbers (free bytes on a disk) whose masking would only make them unreadable (and a JSON
 * number "123********" no JSON at all).
 */
import { maskCardData } from '../../drivers/card-number.js';
import { isValidCpf } from '../validation/taxpayer-id.js';

const FORMATTED_CPF = /(?<![0-9])(\d{3})\.\d{3}\.\d{3}-\d{2}(?![0-9])/g;
const BARE_CPF = /(?<![0-9])\d{11}(?![0-9])/g;

/** `text` with each CPF's last 8 digits made "*", its separators kept. */
export function maskCpfs(text: string): string {
  return text
    .replace(FORMATTED_CPF, (_match, first: string) => `${first}.***.***-**`)
    .replace(BARE_CPF, (digits) => (isValidCpf(digits) ? `${digits.slice(0, 3)}********` : digits));
}

/** A support bundle's text with card data and CPFs masked. */
export function maskSupportText(text: string): string {
  return maskCpfs(maskCardData(text).text);
}
