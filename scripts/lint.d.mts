// Types of scripts/lint.mjs (plain JavaScript, run by `npm run lint`).
export declare const ROOT: string;
export interface LintCheck {
  readonly name: string;
  /** The program and its arguments. */
  readonly command: readonly string[];
}
export declare const CHECKS: readonly LintCheck[];
/** Runs every check whatever the others found; resolves with the names of those that failed. */
export declare function runChecks(
  checks?: readonly LintCheck[],
  options?: { readonly cwd?: string; readonly log?: (line: string) => void },
): Promise<string[]>;
