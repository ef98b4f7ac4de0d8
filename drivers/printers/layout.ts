/**
 * Lays a PrintDocument out on a paper of N columns: every text block wrapped and positioned
 * (alignment as leading spaces), so that every renderer — ESC/POS, plain text, the HTML/SVG
 * preview — puts the same characters on the same line, and the preview on screen is the paper.
 */
import type { Align, PaperColumns, PrintDocument } from './document.js';

export type LaidOutLine =
  /** Characters already positioned (no trailing spaces); at most `columns` (`columns / 2` when large). */
  | { readonly kind: 'text'; readonly text: string; readonly bold: boolean; readonly large: boolean }
  | { readonly kind: 'barcode'; readonly symbology: 'itf' | 'code128'; readonly data: string }
  | { readonly kind: 'qrcode'; readonly data: string };

export interface Layout {
  readonly columns: PaperColumns;
  readonly lines: readonly LaidOutLine[];
}

/** Words greedily into lines of at most `width`; a word longer than a line is cut; "\n" forces a break. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((w) => w.length > 0)) {
      let rest = word;
      while (rest.length > 0) {
        if (line.length === 0) {
          line = rest.slice(0, width);
          rest = rest.slice(width);
        } else if (line.length + 1 + rest.length <= width) {
          line = `${line} ${rest}`;
          rest = '';
        } else {
          lines.push(line);
          line = '';
        }
        if (rest.length > 0 && line.length === width) {
          lines.push(line);
          line = '';
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

function position(text: string, align: Align, width: number): string {
  const room = width - text.length;
  if (room <= 0 || align === 'left') return text;
  return ' '.repeat(align === 'right' ? room : Math.floor(room / 2)) + text;
}

export function layout(document: PrintDocument, columns: PaperColumns): Layout {
  const lines: LaidOutLine[] = [];
  const text = (value: string, bold = false, large = false): void => {
    lines.push({ kind: 'text', text: value.trimEnd(), bold, large });
  };
  // One column per letter: "e" + a combining acute (as some keyboards and APIs send it) is "é".
  const wrap = (value: string, width: number): string[] => wrapText(value.normalize('NFC'), width);
  const centred = (value: string): void => {
    for (const line of wrap(value, columns)) text(position(line, 'center', columns));
  };
  for (const block of document.blocks) {
    switch (block.kind) {
      case 'text': {
        const large = block.large === true;
        const width = large ? Math.floor(columns / 2) : columns;
        for (const line of wrap(block.text, width))
          text(position(line, block.align ?? 'left', width), block.bold === true, large);
        break;
      }
      case 'pair': {
        const bold = block.bold === true;
        const label = block.label.normalize('NFC');
        const value = block.value.normalize('NFC');
        if (label.length + 1 + value.length <= columns) {
          text(label + ' '.repeat(columns - label.length - value.length) + value, bold);
        } else {
          for (const line of wrap(label, columns)) text(line, bold);
          for (const line of wrap(value, columns)) text(position(line, 'right', columns), bold);
        }
        break;
      }
      case 'rule':
        text((block.style === 'double' ? '=' : '-').repeat(columns));
        break;
      case 'feed':
        for (let i = 0; i < block.lines; i++) text('');
        break;
      case 'barcode':
        lines.push({ kind: 'barcode', symbology: block.symbology, data: block.data });
        if (block.caption !== undefined) centred(block.caption);
        break;
      case 'qrcode':
        lines.push({ kind: 'qrcode', data: block.data });
        if (block.caption !== undefined) centred(block.caption);
        break;
      case 'signature':
        text('');
        text('');
        text(position('_'.repeat(columns - 4), 'center', columns));
        centred(block.label);
        break;
    }
  }
  return { columns, lines };
}

/**
 * The document as plain text, one line of the paper per line (a large line's characters spaced
 * out, as on paper); codes shown by what they hold: a terminal's or a log's view of a receipt.
 */
export function renderText(document: PrintDocument, columns: PaperColumns): string {
  return layout(document, columns)
    .lines.map((line) => {
      switch (line.kind) {
        case 'text':
          return line.large ? [...line.text].join(' ').trimEnd() : line.text;
        case 'barcode':
          return position(`[${line.symbology.toUpperCase()}]`, 'center', columns);
        case 'qrcode':
          return position('[QR CODE]', 'center', columns);
      }
    })
    .join('\n');
}
