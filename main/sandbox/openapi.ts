/**
 * Tidies the generated OpenAPI document: every schema the contract names (its `title`, e.g.
 * Transaction, Buyer, ErrorA) is written once under `components.schemas` and referenced from
 * the operations, instead of being repeated inline in each of them. A title that stands for two
 * different schemas is left inline wherever it differs from the first one seen.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Where the sandbox answers: the address its ready line prints (`--host`, `--port`; HTTPS with
 * `--tls-cert`). A template rather than the address of the run, so the generated document is
 * the same on every run (docs/sandbox-openapi.json).
 */
export const SANDBOX_SERVER = {
  url: '{scheme}://{host}:{port}',
  description: 'The Pinbridge sandbox: the "url" of the JSON line `pinbridge sandbox` prints when ready.',
  variables: {
    scheme: { default: 'http', enum: ['http', 'https'], description: 'https when served with --tls-cert/--tls-key.' },
    host: { default: '127.0.0.1', description: 'The address it listens on (--host).' },
    port: { default: '8080', description: 'Its TCP port (--port; without it a free one, read it in the ready line).' },
  },
};

/** A provider's own address, for the terminal channel it implements (the contract's {base_url}). */
export const PROVIDER_SERVER = {
  url: '{base_url}',
  description:
    "The payments provider that implements the channel: its base address, the contract's {base_url} (paths start with /v1 or /v2).",
  variables: {
    base_url: {
      default: 'http://127.0.0.1:8080',
      description: "The provider's base address, without a trailing slash (default: a local sandbox).",
    },
  },
};

/** Pinbridge is not licensed to others (package.json: UNLICENSED); the documents say so. */
export const DOCUMENT_LICENSE = {
  name: 'Proprietary (UNLICENSED): no license is granted',
  url: 'https://pinbridge.example',
};

const isObject = (value: Json): value is { [key: string]: Json } =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function hoistNamedSchemas<T extends object>(document: T): T {
  const components: Record<string, Json> = {};
  const serialized = new Map<string, string>();

  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const copy: { [key: string]: Json } = {};
    for (const [key, value] of Object.entries(node)) copy[key] = visit(value);
    const title = copy.title;
    if (typeof title !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(title) || '$ref' in copy) return copy;
    const text = JSON.stringify(copy);
    const known = serialized.get(title);
    if (known === undefined) {
      serialized.set(title, text);
      components[title] = copy;
    } else if (known !== text) {
      return copy;
    }
    return { $ref: `#/components/schemas/${title}` };
  };

  const root = visit(document as unknown as Json) as { [key: string]: Json };
  const existing = isObject(root.components ?? null) ? (root.components as { [key: string]: Json }) : {};
  const existingSchemas = isObject(existing.schemas ?? null) ? (existing.schemas as { [key: string]: Json }) : {};
  const sorted = Object.fromEntries(
    Object.entries({ ...existingSchemas, ...components }).sort(([a], [b]) => a.localeCompare(b)),
  );
  root.components = { ...existing, schemas: sorted };
  return root as unknown as T;
}

/**
 * The terminal channel alone, as a contract a provider implements: the operations tagged
 * "terminal channel" of the sandbox's document and the schemas they reference (transitively),
 * with the document's security, servers for a provider and for the sandbox. Generated from the same route schemas the sandbox
 * validates with (docs/terminal-channel-openapi.json).
 */
export function terminalChannelDocument(full: Record<string, unknown>, version: string): Record<string, unknown> {
  const document = full as { [key: string]: Json };
  const paths = isObject(document.paths ?? null) ? (document.paths as { [key: string]: Json }) : {};
  const kept: { [key: string]: Json } = {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const operations = Object.entries(item).filter(
      ([, operation]) =>
        isObject(operation) && Array.isArray(operation.tags) && operation.tags.includes('terminal channel'),
    );
    // Only the channel's operations of a path (the void route is also the transactions API's).
    if (operations.length > 0)
      kept[path] = Object.fromEntries(
        operations.map(([method, operation]) => [method, { ...(operation as object), tags: ['terminal channel'] }]),
      );
  }
  const components = isObject(document.components ?? null) ? (document.components as { [key: string]: Json }) : {};
  const schemas = isObject(components.schemas ?? null) ? (components.schemas as { [key: string]: Json }) : {};
  const used = new Set<string>();
  const collect = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (!isObject(node)) return;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!used.has(name)) {
        used.add(name);
        collect(schemas[name] ?? null);
      }
    }
    for (const value of Object.values(node)) collect(value);
  };
  collect(kept);
  const info = isObject(document.info ?? null) ? (document.info as { [key: string]: Json }) : {};
  return {
    ...document,
    info: {
      ...info,
      title: 'Pinbridge terminal channel',
      version,
      description:
        'What a payments provider implements so a PINPAD agent can complete the PINPAD transactions it creates pending: the ' +
        'pending list of a terminal, its EMV tables, the authorization (v2: the card data the PINPAD sealed, checked by the ' +
        "host), the chip's final word, reversal and void. docs/terminal-channel.md tells the story; this document is " +
        "generated from the schemas Pinbridge's sandbox validates with.",
    },
    servers: [PROVIDER_SERVER, SANDBOX_SERVER],
    tags: [{ name: 'terminal channel', description: 'The calls of a PINPAD agent (docs/terminal-channel.md).' }],
    paths: kept,
    components: {
      ...components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
    },
  };
}
