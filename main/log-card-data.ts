/**
 * The log's last resort against card data: the drivers never log it, names that could hold it are
 * redacted (log.ts), and the POS API refuses it at the door — yet if a card number or a track ever
 * reaches a log line (in the message, a field, a child logger's bindings, an error's text), it is
 * masked just before the line is written, with the POS API's search (drivers/card-number.ts:
 * normalised digits, any grouping, decoded base64/hex): a number keeps its first 6 and last 4
 * digits, a track or an encoded number is removed. The line stays JSON: it is parsed, its strings
 * (and numbers) masked, and written again — only when the search found something in it, so every
 * other line is written as pino made it.
 */
import { cardDataIn, maskCardData } from '../drivers/card-number.js';

const JSON_CONTROL_ESCAPE = /\\[bfnrt]|\\u00[01][0-9a-fA-F]/g;

function masked(value: unknown): unknown {
  if (typeof value === 'string') return maskCardData(value).text;
  if (typeof value === 'number') {
    const text = String(value);
    return cardDataIn(text) === undefined ? value : maskCardData(text).text;
  }
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === 'object') {
    // Keys too: a field named by what a POS sent.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskCardData(key).text, masked(item)]));
  }
  return value;
}

/** One stringified log line (pino's, JSON with its newline) with any card data in it masked. */
export function maskCardDataInLine(line: string): string {
  // JSON writes a tab or a newline inside a string as "\t", "\n": read as the separators they are.
  if (cardDataIn(line.replace(JSON_CONTROL_ESCAPE, ' ')) === undefined) return line;
  const newline = line.endsWith('\n') ? '\n' : '';
  try {
    return `${JSON.stringify(masked(JSON.parse(line)))}${newline}`;
  } catch {
    // Not JSON after all: masked as text (separators and the rest of the line are kept).
    return maskCardData(line).text;
  }
}
