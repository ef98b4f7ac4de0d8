/**
 * The base of the tree's errors that callers tell apart: a stable, machine-readable `code` (what
 * the CLI, the POS API and the logs expose, and what callers switch on), the class's own `name`
 * and an English `message` for logs and technicians. Words for a cashier (pt-BR) belong to the
 * subclasses that need them; card data goes into none of these fields.
 *
 * `lib/` imports nothing of the repository: drivers, main and scripts can all build on it.
 */
export class CodedError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options: { cause?: unknown } = {}) {
    // No `cause` property at all when there is none (Error would add one holding undefined).
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // The concrete class's name, so a subclass needs no line of its own for it.
    this.name = new.target.name;
    this.code = code;
  }
}

/** What a thrown value says: an Error's message, anything else as a string (for logs and reports). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
