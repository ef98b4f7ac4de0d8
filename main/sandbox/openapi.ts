/**
 * Tidies the generated OpenAPI document: every schema the contract names (its `title`, e.g.
 * Transaction, Buyer, ErrorA) is written once under `components.schemas` and referenced from
 * the operations, instead of being repeated inline in each of them. A title that stands for two
 * different schemas is left inline wherever it differs from the first one seen.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

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
  const sorted = Object.fromEntries(Object.entries({ ...existingSchemas, ...components }).sort(([a], [b]) => a.localeCompare(b)));
  root.components = { ...existing, schemas: sorted };
  return root as unknown as T;
}
