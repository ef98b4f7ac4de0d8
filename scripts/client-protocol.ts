/**
 * Writes client/protocol.ts: the POS API's methods, events, records and error codes as plain
 * TypeScript types, generated from the TypeBox schemas in main/pos/protocol. The client package
 * (@pinbridge/client) is published on its own with zero dependencies, so its declarations cannot
 * point into the agent's sources or at TypeBox; this file is that protocol written out.
 * test/client/protocol-types.test.ts fails when the committed file is stale, and checks at
 * compile time that every type equals the protocol's `Static`.
 *
 *   npx tsx scripts/client-protocol.ts          # rewrite client/protocol.ts
 *   npx tsx scripts/client-protocol.ts --check  # exit 1 when it is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ErrorData, EVENTS, METHODS, POS_ERROR_CODES } from '../main/pos/protocol/index.js';

export const CLIENT_PROTOCOL_FILE = fileURLToPath(new URL('../client/protocol.ts', import.meta.url));

type Schema = Readonly<Record<string, unknown>>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Schema keywords that only constrain values (lengths, ranges, formats): no trace in the type. */
const VALUE_ONLY_KEYWORDS = new Set([
  'description',
  'title',
  'default',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'examples',
]);

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string or number literal as the project writes them (single quotes). */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  throw new Error(`No literal type for ${JSON.stringify(value)}`);
}

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : literal(name);
}

/** A JSDoc line from a description (an end-of-comment inside it is escaped). */
function doc(description: unknown, indent: string): string {
  if (typeof description !== 'string' || description === '') return '';
  return `${indent}/** ${description.replaceAll('*/', '*\\/').replace(/\s*\n\s*/g, ' ')} */\n`;
}

/** The named records: a schema with a title becomes `export type <Title>`, written once. */
class Names {
  readonly #byTitle = new Map<string, { key: string; text: string | null; schema: Schema }>();
  readonly order: string[] = [];

  /** The canonical text of a schema, to tell two schemas that share a title apart. */
  static key(schema: Schema): string {
    return JSON.stringify(schema);
  }

  nameFor(schema: Schema): string | undefined {
    const title = schema.title;
    if (typeof title !== 'string' || !IDENTIFIER.test(title)) return undefined;
    const key = Names.key(schema);
    const known = this.#byTitle.get(title);
    if (known === undefined) {
      this.#byTitle.set(title, { key, text: null, schema });
      this.order.push(title);
      return title;
    }
    if (known.key !== key) return undefined; // Two different schemas with one title: inline this one.
    return title;
  }

  schemaOf(title: string): Schema {
    return this.#byTitle.get(title)!.schema;
  }
}

/**
 * A union as TypeScript reduces it, written that way: no repeats, `unknown` absorbs the rest, and
 * `string` / `number` absorb their literals (a pattern-checked string or '' is a string).
 */
function simplify(members: readonly string[]): string[] {
  const unique = [...new Set(members)];
  if (unique.includes('unknown')) return ['unknown'];
  return unique.filter(
    (member) =>
      !((unique.includes('string') && /^'.*'$/s.test(member)) || (unique.includes('number') && /^-?\d/.test(member))),
  );
}

class Writer {
  readonly names = new Names();

  /** The type of a schema; a titled record by its name (`top` writes the record itself). */
  type(schema: unknown, indent = '', top = false): string {
    return simplify(this.#members(schema, indent, top)).join(' | ');
  }

  /** The members of the union a schema is (one for anything but a union). */
  #members(schema: unknown, indent: string, top = false): string[] {
    if (!isSchema(schema)) throw new Error(`Not a schema: ${JSON.stringify(schema)}`);
    if (!top) {
      const name = this.names.nameFor(schema);
      if (name !== undefined) return [name];
    }
    const keys = Object.keys(schema).filter((key) => !VALUE_ONLY_KEYWORDS.has(key));
    if ('const' in schema) return [literal(schema.const)];
    if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap((member) => this.#members(member, indent));
    // {type: ['string', 'null']}: one schema per listed type, the rest of the keywords shared.
    if (Array.isArray(schema.type))
      return schema.type.flatMap((type: unknown) => this.#members({ ...schema, title: undefined, type }, indent));
    switch (schema.type) {
      case 'string':
        return ['string'];
      case 'integer':
      case 'number':
        return ['number'];
      case 'boolean':
        return ['boolean'];
      case 'null':
        return ['null'];
      case 'array': {
        const item = simplify(this.#members(schema.items, indent));
        return [item.length > 1 ? `(${item.join(' | ')})[]` : `${item.join('')}[]`];
      }
      case 'object':
        return [this.#object(schema, indent)];
      case undefined:
        if (keys.length === 0) return ['unknown'];
        break;
    }
    throw new Error(
      `No TypeScript for the schema ${JSON.stringify(schema)} (keywords ${keys.join(', ')}): teach scripts/client-protocol.ts`,
    );
  }

  #object(schema: Schema, indent: string): string {
    const inner = `${indent}  `;
    const lines: string[] = [];
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, property] of Object.entries(properties)) {
      lines.push(
        `${doc(isSchema(property) ? property.description : undefined, inner)}${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${this.type(property, inner)};`,
      );
    }
    if (isSchema(schema.patternProperties)) {
      const values = Object.values(schema.patternProperties);
      if (values.length !== 1) throw new Error('Only one patternProperties entry is supported');
      lines.push(`${inner}[key: string]: ${this.type(values[0], inner)};`);
    }
    if (isSchema(schema.additionalProperties)) throw new Error('additionalProperties as a schema is not supported');
    // Free-form objects (metadata) are declared Record<string, unknown> on the TypeBox side.
    if (lines.length === 0 && schema.additionalProperties === true) lines.push(`${inner}[key: string]: unknown;`);
    // TypeBox's Static of an object without properties is `object` (params of methods that take none).
    return lines.length === 0 ? 'object' : `{\n${lines.join('\n')}\n${indent}}`;
  }

  /** `export type Name = …` for every titled record met so far (and those they meet). */
  namedTypes(): string {
    const written: string[] = [];
    for (let index = 0; index < this.names.order.length; index++) {
      const title = this.names.order[index]!;
      const schema = this.names.schemaOf(title);
      written.push(`${doc(schema.description, '')}export type ${title} = ${this.type(schema, '', true)};`);
    }
    return written.join('\n\n');
  }
}

export function clientProtocolSource(): string {
  const writer = new Writer();
  const methods = Object.entries(METHODS).map(([name, spec]) => {
    const summary = doc(spec.summary, '  ');
    return `${summary}  ${literal(name)}: {\n    params: ${writer.type(spec.params, '    ')};\n    result: ${writer.type(spec.result, '    ')};\n  };`;
  });
  const waits = Object.entries(METHODS)
    .filter(([, spec]) => (spec.waits ?? 'request') !== 'request')
    .map(([name, spec]) => `  ${literal(name)}: ${literal(spec.waits)},`);
  const events = Object.entries(EVENTS).map(
    ([name, spec]) => `${doc(spec.summary, '  ')}  ${literal(name)}: ${writer.type(spec.payload, '  ')};`,
  );
  // The error object's data is in no method's result, but every error carries it.
  writer.type(ErrorData);
  const named = writer.namedTypes();
  return `/**
 * GENERATED by scripts/client-protocol.ts from the schemas in main/pos/protocol — do not edit.
 * Run \`npx tsx scripts/client-protocol.ts\` after changing the protocol.
 *
 * The POS API's methods, events and records as plain types, so the client package needs nothing
 * outside client/ (no TypeBox, no agent sources). docs/pos-api.md and the AsyncAPI document
 * describe each field; amounts are integer centavos.
 */

/** The stable error codes (\`error.data.code\`) a POS branches on. */
export type PosErrorCode =\n${POS_ERROR_CODES.map((code) => `  | ${literal(code)}`).join('\n')};

${named}

/** Every method: its params and its result. */
export interface Methods {
${methods.join('\n')}
}

/**
 * How long a caller waits for a method's answer, where it is not an ordinary request's time:
 * \`customer\`, as long as the customer at the PINPAD has (\`timeout_s\`, 60 s by default) and a
 * margin; \`outcome\`, until what it started ends (no timeout).
 */
export const METHOD_WAITS: { readonly [M in MethodName]?: 'customer' | 'outcome' } = {
${waits.join('\n')}
};

/** Every notification the agent sends, by name: its payload. */
export interface Events {
${events.join('\n')}
}

export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = Methods[M]['params'];
export type ResultOf<M extends MethodName> = Methods[M]['result'];
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = Events[E];
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = clientProtocolSource();
  if (process.argv.includes('--check')) {
    const current = readFileSync(CLIENT_PROTOCOL_FILE, 'utf8');
    if (current !== source) {
      console.error('client/protocol.ts is stale: run `npx tsx scripts/client-protocol.ts`');
      process.exit(1);
    }
  } else {
    writeFileSync(CLIENT_PROTOCOL_FILE, source);
    console.log(`wrote ${CLIENT_PROTOCOL_FILE}`);
  }
}
