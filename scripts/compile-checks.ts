/**
 * Compiles, once, the schema checks the agent runs as it starts and on a sale — the settings
 * file's sections, the POS methods' parameters, the payment start, the transaction and terminal
 * requests — into main/contract/compiled-checks.ts (issue 35: "compile schemas once at build time
 * where the validator allows"). TypeBox's compiler (some 470 modules, ~8 MB and ~100 ms of a start)
 * is then loaded only when a value fails its check, for the errors that name why.
 *
 * Each check is what TypeBox's own compiler makes of the schema at run time (schema `Build`, the
 * same functions and entry `Compile` evaluates), wrapped in a factory called on first use and
 * filed under the schema's fingerprint (main/contract/schema-digest.ts). A schema the validator
 * cannot compile into standalone code — one with a function among its external variables (a
 * format or refinement), or one that needs unevaluated-property tracking — is left out and keeps
 * being compiled at run time, as is any schema edited since the file was written.
 *
 * Run: `npm run checks:compile` after changing one of these schemas (a spec fails while the file is
 * stale; until then the edited schema is merely checked the slower way).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TSchema } from 'typebox';
import { Build } from 'typebox/schema';
import { PaymentSettings } from '../main/core/settings.js';
import {
  PinpadTransactionRequest,
  TapToPayTransactionRequest,
  TerminalAuthorizationRequest,
  TerminalAuthorizationRequestV2,
  TerminalCompletionRequest,
  TerminalReversalRequest,
  VoidRequest,
} from '../main/contract/index.js';
import { schemaDigest } from '../main/contract/schema-digest.js';
import { METHODS } from '../main/pos/protocol/methods.js';
import { ApiSettings, PinpadSettings, ReceiptsSection } from '../main/settings/settings-file.js';
import { MetricsSettings } from '../main/metrics/settings.js';
import { UpdateSettings } from '../main/settings/update-settings.js';
import { SupervisorSettings } from '../main/settings/supervisor-settings.js';
import { PosSettings } from '../main/pos/settings.js';
import { PrintersSettings } from '../main/receipts/printers.js';

export const COMPILED_CHECKS_FILE = fileURLToPath(new URL('../main/contract/compiled-checks.ts', import.meta.url));

/** The schemas compiled, by a name for the file's comments. */
export function compiledSchemas(): ReadonlyMap<string, TSchema> {
  const schemas = new Map<string, TSchema>([
    // The settings file, section by section (main/settings/settings-file.ts), checked at every start.
    ['settings: payment', PaymentSettings],
    ['settings: api', ApiSettings],
    ['settings: pinpad', PinpadSettings],
    ['settings: receipts', ReceiptsSection],
    ['settings: printers', PrintersSettings],
    ['settings: pos', PosSettings],
    ['settings: metrics', MetricsSettings],
    ['settings: updates', UpdateSettings],
    ['settings: supervisor', SupervisorSettings],
    // A sale: what the payments API client checks before sending (its start is the POS method's,
    // below).
    ['transaction: pinpad', PinpadTransactionRequest],
    ['transaction: tap to pay', TapToPayTransactionRequest],
    ['terminal: authorization', TerminalAuthorizationRequest],
    ['terminal: authorization (v2)', TerminalAuthorizationRequestV2],
    ['terminal: completion', TerminalCompletionRequest],
    ['terminal: reversal', TerminalReversalRequest],
    ['transaction: void', VoidRequest],
  ]);
  // Every POS method's parameters, checked on each request (main/pos/server/dispatch.ts).
  for (const [method, spec] of Object.entries(METHODS)) schemas.set(`POS ${method}`, spec.params);
  return schemas;
}

/** Why a schema is left to the run-time compiler, or undefined when its check is compiled. */
export function notCompilable(schema: TSchema): string | undefined {
  const build = Build({}, schema);
  if (build.UseUnevaluated()) return 'needs unevaluated-property tracking';
  const odd = build.External().variables.find((variable) => !(variable instanceof RegExp));
  if (odd !== undefined) return `has a ${typeof odd} among its external variables`;
  return undefined;
}

/** One factory: the build's functions and entry, with its regular expressions rebuilt. */
function factorySource(schema: TSchema): string {
  const build = Build({}, schema);
  const { identifier, variables } = build.External();
  const regExps = (variables as RegExp[]).map(
    (regExp) => `new RegExp(${JSON.stringify(regExp.source)}, ${JSON.stringify(regExp.flags)})`,
  );
  return [
    '() => {',
    `  const ${identifier} = [${regExps.join(', ')}];`,
    ...build.Functions().map((fn) => `  ${fn};`),
    `  return (value) => ${build.Entry()};`,
    '}',
  ].join('\n');
}

/** The whole generated module. */
export function compiledChecksSource(schemas: ReadonlyMap<string, TSchema> = compiledSchemas()): string {
  const entries: string[] = [];
  const seen = new Set<string>();
  const skipped: string[] = [];
  for (const [name, schema] of schemas) {
    const digest = schemaDigest(schema);
    if (seen.has(digest)) continue; // the same schema under two names (an empty params object)
    const why = notCompilable(schema);
    if (why !== undefined) {
      skipped.push(`//   ${name}: ${why}`);
      continue;
    }
    seen.add(digest);
    entries.push(`  // ${name}\n  [${JSON.stringify(digest)}, ${factorySource(schema)}],`);
  }
  const code = entries.join('\n');
  const imports = [
    ...(code.includes('Guard.') ? ["import { Guard } from 'typebox/guard';"] : []),
    ...(code.includes('Hashing.') ? ["import { Hashing } from 'typebox/system';"] : []),
  ];
  return [
    '// @ts-nocheck -- generated by scripts/compile-checks.ts (npm run checks:compile): edit the schemas, not this file.',
    '/**',
    ' * The schema checks compiled at build time, by schema fingerprint (schema-digest.ts): rules.ts',
    " * checks with these before it loads TypeBox's compiler, which it then needs only for the errors of",
    ' * a value that fails.',
    ...(skipped.length > 0
      ? [' *', ' * Left to the run-time compiler:', ...skipped.map((line) => ` * ${line.slice(5)}`)]
      : []),
    ' */',
    ...imports,
    '',
    'const FACTORIES = new Map([',
    code,
    ']);',
    '',
    'const made = new Map();',
    '',
    '/** The compiled check of the schema with this fingerprint, or undefined when it has none. */',
    'export function compiledCheck(digest: string): ((value: unknown) => boolean) | undefined {',
    '  let check = made.get(digest);',
    '  if (check === undefined) {',
    '    const factory = FACTORIES.get(digest);',
    '    if (factory === undefined) return undefined;',
    '    check = factory();',
    '    made.set(digest, check);',
    '  }',
    '  return check;',
    '}',
    '',
  ].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(COMPILED_CHECKS_FILE, compiledChecksSource());
  process.stdout.write(`wrote ${COMPILED_CHECKS_FILE}\n`);
}
