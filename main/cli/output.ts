import type { CliIo } from './io.js';

/** Prints `data` as one JSON line with --json, else the human text. */
export function emit(io: CliIo, json: boolean | undefined, data: unknown, human: string): void {
  if (json) io.stdout(`${JSON.stringify(data)}\n`);
  else io.stdout(human.endsWith('\n') ? human : `${human}\n`);
}

/** Aligned "key: value" lines for human output. */
export function table(rows: ReadonlyArray<readonly [string, string | number | boolean | undefined]>): string {
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key.padEnd(width)}  ${String(value)}`)
    .join('\n');
}
