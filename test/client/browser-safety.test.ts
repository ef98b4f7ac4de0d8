/**
 * The client must load in a browser from /client/*.js with nothing else: its run-time imports
 * stay inside client/ (the protocol only as `import type`, erased at compile time), it uses no
 * Node-only global, and its copies of the protocol constants hold the protocol's values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as clientConstants from '../../client/constants.js';
import * as protocol from '../../main/pos/protocol/index.js';

const CLIENT_DIR = fileURLToPath(new URL('../../client/', import.meta.url));
const sources = readdirSync(CLIENT_DIR)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(CLIENT_DIR, name), 'utf8') }));

/** Every `import … from '…'` / `export … from '…'` statement, whole (they span lines). */
function moduleStatements(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'[^']+';/gms)].map((match) => match[0]);
}

describe('the browser client', () => {
  it('has sources to check', () => {
    expect(sources.map((source) => source.name)).toContain('client.ts');
  });

  it('imports at run time only its own modules; anything else is `import type` / `export type`', () => {
    const offending: string[] = [];
    for (const { name, text } of sources) {
      for (const statement of moduleStatements(text)) {
        const specifier = /from\s+'([^']+)';$/.exec(statement)?.[1] ?? '';
        const typeOnly = /^(?:import|export)\s+type\b/.test(statement);
        const local = specifier.startsWith('./') && !specifier.slice(2).includes('/');
        if (!typeOnly && !local) offending.push(`${name}: ${statement}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('uses no Node-only global or module', () => {
    const nodeOnly = /\b(?:process|Buffer|require|__dirname|__filename|setImmediate)\b|'node:/;
    const offending = sources.flatMap(({ name, text }) =>
      text
        .split('\n')
        .filter((line) => !/^\s*(?:\/\/|\*|\/\*)/.test(line) && nodeOnly.test(line))
        .map((line) => `${name}: ${line.trim()}`),
    );
    expect(offending).toEqual([]);
  });

  it("copies the protocol's constants with their values", () => {
    expect(clientConstants.WS_PATH).toBe(protocol.WS_PATH);
    expect(clientConstants.DEFAULT_PORTS).toEqual(protocol.DEFAULT_PORTS);
    expect(clientConstants.CLOSE_CODES).toEqual(protocol.CLOSE_CODES);
  });
});
