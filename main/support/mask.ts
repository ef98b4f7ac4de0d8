/**
 * The masking every text file of a support bundle goes through before it is written: card data
 * as the logs mask it (drivers/card-number.ts: a card number keeps its first 6 and last 4 digits,
 * a track becomes "[track removed]"), then CPFs, which keep their first 3 digits. A CPF written as
 * one (123.456.789-09) is masked whatever its check digits; 11 digits in a row (12345678909) only
 * when their check digits make them a CPF — the doctor's report and the logs hold other 11-digit
 * numbers (free bytes on a disk) whose masking would only make them unreadable.
 *
 * A JSON file (the doctor's report, the versions) and a JSON log line are masked value by value
 * (maskSupportFile): a number that masking would change — a disk's free bytes that happen to pass
 * the Luhn check, 1 in 10 of them — becomes its masked text as a JSON string, where masking the
 * raw text would leave "618664***5589", which is no JSON at all.
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

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `value` with every string masked, and every number masking would change made its masked string. */
function maskJsonValue(value: JsonValue): JsonValue {
  if (typeof value === 'string') return maskSupportText(value);
  if (typeof value === 'number') {
    const text = String(value);
    const masked = maskSupportText(text);
    return masked === text ? value : masked;
  }
  if (Array.isArray(value)) return value.map(maskJsonValue);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskSupportText(key), maskJsonValue(item)]));
  return value;
}

function parsedJson(text: string): { value: JsonValue } | undefined {
  try {
    return { value: JSON.parse(text) as JsonValue };
  } catch {
    return undefined;
  }
}

/** A JSON log line (pino's) masked value by value; any other line as text. */
function maskLine(line: string): string {
  if (!line.startsWith('{')) return maskSupportText(line);
  const parsed = parsedJson(line);
  return parsed === undefined ? maskSupportText(line) : JSON.stringify(maskJsonValue(parsed.value));
}

/** Whether `file` is one JSON document (masked whole), rather than lines. */
export const isJsonFile = (file: string): boolean => file.endsWith('.json');

/**
 * A support bundle file's text masked as maskSupportText does, without breaking its format: a
 * `.json` file that parses stays JSON (two-space indented, as the bundle writes them), each line
 * of any other file that is a JSON object (a log line) stays one.
 */
export function maskSupportFile(text: string, file: string): string {
  if (isJsonFile(file)) {
    const parsed = parsedJson(text);
    if (parsed !== undefined)
      return `${JSON.stringify(maskJsonValue(parsed.value), null, 2)}${text.endsWith('\n') ? '\n' : ''}`;
    return maskSupportText(text);
  }
  return text.split('\n').map(maskLine).join('\n');
}
