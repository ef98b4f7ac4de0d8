/**
 * The fenced code blocks of a Markdown document, as the docs specs run them: each with its info
 * string split in words (```json request → language "json", words ["request"]), the heading it
 * sits under and its line, so a failure names the example.
 */

export interface FencedBlock {
  /** The first word of the info string: json, js, ts, sh… ("" when none). */
  readonly language: string;
  /** The info string's other words: what the spec does with the block. */
  readonly words: readonly string[];
  readonly body: string;
  /** The nearest heading above it (without its #). */
  readonly section: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

const FENCE = /^(`{3,})(.*)$/;
const HEADING = /^#{1,6}\s+(.*)$/;

export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const heading = HEADING.exec(line);
    if (heading) {
      section = heading[1]!.trim();
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) continue;
    const [language = '', ...words] = fence[2]!.trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    const start = index + 1;
    for (index++; index < lines.length && lines[index] !== fence[1]; index++) body.push(lines[index]!);
    blocks.push({ language, words, body: body.length > 0 ? `${body.join('\n')}\n` : '', section, line: start });
  }
  return blocks;
}

/** How a failure names a block: "docs/pos-api.md:123 (Raw JSON frames)". */
export function where(file: string, block: FencedBlock): string {
  return `${file}:${block.line} (${block.section})`;
}
