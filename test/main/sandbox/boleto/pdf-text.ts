/**
 * Test helper: the text a pdfkit PDF draws, read from its content streams (inflated when
 * compressed). pdfkit writes text as TJ arrays of hex strings in WinAnsiEncoding (Windows-1252),
 * split where kerning applies; each TJ array becomes one line here.
 */
import { inflateSync } from 'node:zlib';

// Windows-1252 bytes 0x80–0x9F (Node's TextDecoder treats "windows-1252" as Latin-1 there).
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const winAnsi = {
  decode: (bytes: Buffer): string =>
    [...bytes]
      .map((byte) => (byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte)))
      .join(''),
};

function contentStreams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const streams: string[] = [];
  let at = 0;
  for (;;) {
    const start = text.indexOf('stream\n', at);
    if (start < 0) break;
    const end = text.indexOf('\nendstream', start);
    if (end < 0) break;
    const dictStart = text.lastIndexOf('<<', start);
    const raw = pdf.subarray(start + 'stream\n'.length, end);
    const deflated = text.slice(dictStart, start).includes('/FlateDecode');
    try {
      streams.push((deflated ? inflateSync(raw) : raw).toString('latin1'));
    } catch {
      // not a content stream we can read (e.g. an image); skip it
    }
    at = end + 1;
  }
  return streams;
}

export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const stream of contentStreams(pdf)) {
    for (const match of stream.matchAll(/\[((?:<[0-9a-fA-F]*>|[-0-9. ])*)\]\s*TJ/g)) {
      const hex = [...(match[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('');
      lines.push(winAnsi.decode(Buffer.from(hex, 'hex')));
    }
  }
  return lines.join('\n');
}
