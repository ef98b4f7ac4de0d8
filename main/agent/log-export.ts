/**
 * The agent's recent log lines for a support technician, safe to send: the log never holds card
 * data by design (structured fields, redacted names, and main/log.ts masks what slips through as
 * it writes), and this export masks whatever might still look like it, line by line, with the POS
 * API's search (drivers/card-number.ts): a card number (13–19 digits starting with 2 to 6, the
 * industries of payment cards, passing the Luhn check, in any digits or grouping) keeps only its
 * first 6 and last 4 digits, a track or an encoded card number is removed. The first digit
 * matters: every log line's time is a 13-digit number starting with 1, and one in ten of those
 * passes Luhn.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { maskCardData as maskLine } from '../../drivers/card-number.js';

/** At most this much of the end of the file is read. */
const TAIL_BYTES = 2 * 1024 * 1024;

/** The text with track-like data removed and card-number-like numbers masked; how many were. */
export function maskCardData(text: string): { text: string; masked: number } {
  let masked = 0;
  const lines = text.split('\n').map((line) => {
    const result = maskLine(line);
    masked += result.masked;
    return result.text;
  });
  return { text: lines.join('\n'), masked };
}

export interface LogExport {
  readonly file: string;
  /** The last lines, masked. */
  readonly text: string;
  readonly lines: number;
  /** How many card-like values were masked (0 is the expected answer). */
  readonly masked: number;
}

/**
 * The last `maxLines` lines of `file` (its final 2 MB at most) — and after them `missed`, lines the
 * file could not take, kept in memory — masked; an absent or unreadable file is empty.
 */
export function exportLogs(file: string, maxLines = 2_000, missed: readonly string[] = []): LogExport {
  let tail = '';
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    tail = buffer.toString('utf8');
    // A cut first line is dropped rather than shown half.
    if (length < size) tail = tail.slice(tail.indexOf('\n') + 1);
  } catch (error) {
    // Missing, or on a disk that fails: what memory holds is still exported.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && missed.length === 0) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const lines = [...tail.split('\n'), ...missed.map((line) => line.replace(/\n$/, ''))]
    .filter((line) => line !== '')
    .slice(-maxLines);
  const { text, masked } = maskCardData(lines.join('\n'));
  return { file, text: lines.length === 0 ? '' : `${text}\n`, lines: lines.length, masked };
}
