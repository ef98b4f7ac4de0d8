/**
 * Display text as the PINPAD receives it (S220 §6.5.4, §6.5.5, §7.3; abecs.md §3.6):
 *
 * - Fixed 2×16 messages (DSP_MSG, CLO_MSG, RMC_MSG, GPN_MSG1, CHP_PINMSG; NTM_MSG going out):
 *   32 characters, 1–16 on line 1, 17–32 on line 2, no separator. The PINPAD is lenient
 *   (S220 §6.5.5): a character below 20h shows as a space, a short message is completed with
 *   spaces, extra characters are ignored.
 * - Free text (DEX_MSG, SPE_DSPMSG): CR (0Dh) breaks a line; a PINPAD takes any character below
 *   20h as a line break (S220 §6.5.4).
 * - Character set ISO-8859-1 (S220 §7.3.2): one byte per character, read as latin1.
 */

/** Columns of a text line in the fixed 2×16 layout. */
export const DISPLAY_COLUMNS = 16;
/** Characters of a fixed 2×16 message. */
export const FIXED_MESSAGE_LENGTH = 2 * DISPLAY_COLUMNS;

/** A fixed 2×16 message as the PINPAD shows it: controls as spaces, padded or cut to 32. */
export function fixedMessage(raw: string): string {
  const shown = [...raw].map((ch) => (ch.charCodeAt(0) < 0x20 ? ' ' : ch)).join('');
  return shown.slice(0, FIXED_MESSAGE_LENGTH).padEnd(FIXED_MESSAGE_LENGTH, ' ');
}

/** The two 16-column lines of a fixed message. */
export function fixedLines(raw: string): [string, string] {
  const message = fixedMessage(raw);
  return [message.slice(0, DISPLAY_COLUMNS), message.slice(DISPLAY_COLUMNS)];
}

/** Free text split into lines: CR, and any other character below 20h, starts a new line. */
export function freeTextLines(text: string): string[] {
  const lines: string[] = [''];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x20) lines.push('');
    else lines[lines.length - 1] += ch;
  }
  return lines;
}

/** NTM_MSG (S32, 2×16): line 1 and line 2, each padded or cut to 16 columns. */
export function notificationMessage(line1: string, line2 = ''): string {
  return (
    line1.slice(0, DISPLAY_COLUMNS).padEnd(DISPLAY_COLUMNS, ' ') +
    line2.slice(0, DISPLAY_COLUMNS).padEnd(DISPLAY_COLUMNS, ' ')
  );
}
