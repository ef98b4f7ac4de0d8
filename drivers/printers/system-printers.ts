/**
 * The printers the operating system knows (CUPS on Linux and macOS), for a settings screen to
 * offer as `lp://NAME`: `lpstat -e` names every destination, `lpstat -d` the default one. Where
 * there is no lpstat (Windows, or CUPS not installed) the list is empty — the desktop app asks
 * Chromium instead, which knows every platform's printers.
 */
import { execFile } from 'node:child_process';

export interface SystemPrinter {
  readonly name: string;
  readonly isDefault: boolean;
}

export interface ListSystemPrintersOptions {
  /** The lpstat program (default `lpstat` on the PATH). */
  readonly lpstat?: string;
  readonly timeoutMs?: number;
}

function run(program: string, args: readonly string[], timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(program, [...args], { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? undefined : stdout),
    );
  });
}

export async function listSystemPrinters(options: ListSystemPrintersOptions = {}): Promise<SystemPrinter[]> {
  const lpstat = options.lpstat ?? 'lpstat';
  const timeoutMs = options.timeoutMs ?? 5_000;
  const [names, fallback] = await Promise.all([run(lpstat, ['-e'], timeoutMs), run(lpstat, ['-d'], timeoutMs)]);
  if (names === undefined) return [];
  // "system default destination: NAME" (or "no system default destination").
  const defaultName = /destination:\s*(\S+)/.exec(fallback ?? '')?.[1];
  return names
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((name) => ({ name, isDefault: name === defaultName }));
}
