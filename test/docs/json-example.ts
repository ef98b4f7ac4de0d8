/**
 * Whether a JSON value the agent really sent matches an example written in the docs. The rule:
 *
 * - **Fixed values are equal.** Method and event names, member names, statuses, steps, codes,
 *   English and Portuguese messages, amounts, counts (`attempts_left`), booleans and nulls: the
 *   real value is the example's, and of the same JSON type.
 * - **Objects have the same members**, no more and no fewer — except where the example has the
 *   member `"…": "…"`, which stands for members left out: the real object then has at least the
 *   example's members (the rest unchecked).
 * - **"…" stands for what is shortened.** In a string it stands for any text there: `"sbx_…"`
 *   matches any string starting with `sbx_`, `"#key=…&page=clients"` any key, `"…"` alone any
 *   string. An array whose last element is `"…"` matches a real array that starts with the
 *   example's other elements.
 * - **Generated values may differ, in their format.** The members in GENERATED — ids, tokens,
 *   times, NSU and authorization codes, the agent's version — hold what the agent or the payments
 *   API makes up for each run: the real value and the example's must both have the member's
 *   format (a payment id is 32 hex characters, a time is ISO 8601 in UTC…; a value shortened
 *   with "…" is matched by the rule above instead), and from then on the
 *   example's value stands for the real one (`learned`): in later requests, and inside later
 *   strings ("wrong code for pairing request pair_…" names the pairing id the agent gave).
 * - **Addresses on this computer:** a port on loopback (`127.0.0.1:17301`) stands for the port the
 *   agent under test took, and `/home/you` for its home folder (seeded into `learned`).
 */

export const ELLIPSIS = '…';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HEX_ID = /^[0-9a-f]{32}$/;

/** Members whose value is made up for each run, and the format both sides must have. */
export const GENERATED: Readonly<Record<string, RegExp>> = {
  payment_id: HEX_ID,
  transaction_id: HEX_ID,
  pairing_id: /^pair_[0-9a-f]{32}$/,
  client_id: /^cli_[0-9a-f]{16}$/,
  token: /^pbt_[A-Za-z0-9_-]{43}$/,
  expires_at: ISO_TIME,
  created_at: ISO_TIME,
  finished_at: ISO_TIME,
  at: ISO_TIME,
  nsu: /^\d{6}$/,
  authorization_code: /^\d{6}$/,
  version: /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/,
};

/** Example value → the real value it stands for. */
export type Learned = Map<string, string>;

export interface Match {
  /** What differs, one sentence each, with the JSON path ($.result.status). */
  readonly problems: string[];
  /** Generated values this match would teach (kept by the caller when it accepts the match). */
  readonly learned: [string, string][];
}

const LOOPBACK_PORT = /(127\.0\.0\.1|localhost|\[::1\]):\d+/g;

/** `text` with every learned example value replaced by its real one (longest first). */
export function substitute(text: string, learned: Learned): string {
  let out = text;
  for (const [example, real] of [...learned].sort(([a], [b]) => b.length - a.length))
    out = out.split(example).join(real);
  return out;
}

/** A value with every learned example value in its strings replaced: a request as it is sent. */
export function substituteDeep(value: unknown, learned: Learned): unknown {
  if (typeof value === 'string') return substitute(value, learned);
  if (Array.isArray(value)) return value.map((item) => substituteDeep(item, learned));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteDeep(item, learned)]));
  return value;
}

/** The example's string as a pattern: each "…" any text. */
function shortened(text: string): RegExp {
  const parts = text.split(ELLIPSIS).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Compares a real value with the docs' example (see the module comment for the rule). */
export function matchExample(example: unknown, real: unknown, learned: Learned, path = '$'): Match {
  const problems: string[] = [];
  const taught: [string, string][] = [];
  const key = /\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(path)?.[1];

  const walk = (expected: unknown, actual: unknown, at: string, member: string | undefined): void => {
    if (typeOf(expected) !== typeOf(actual)) {
      problems.push(
        `${at}: the docs show ${typeOf(expected)} ${show(expected)}, the agent sent ${typeOf(actual)} ${show(actual)}`,
      );
      return;
    }
    if (typeof expected === 'string') {
      const format = member === undefined || expected.includes(ELLIPSIS) ? undefined : GENERATED[member];
      if (format !== undefined) {
        if (!format.test(expected))
          problems.push(`${at}: the docs' ${show(expected)} is not in the format of ${member}`);
        if (!format.test(actual as string))
          problems.push(`${at}: the agent's ${show(actual)} is not in the format of ${member}`);
        if (expected !== actual) taught.push([expected, actual as string]);
        return;
      }
      const wanted = substitute(expected, new Map([...learned, ...taught])).replace(LOOPBACK_PORT, '$1:PORT');
      const got = (actual as string).replace(LOOPBACK_PORT, '$1:PORT');
      if (!shortened(wanted).test(got))
        problems.push(`${at}: the docs show ${show(expected)}, the agent sent ${show(actual)}`);
      return;
    }
    if (Array.isArray(expected)) {
      const items = actual as unknown[];
      const open = expected.at(-1) === ELLIPSIS;
      const shown = open ? expected.slice(0, -1) : expected;
      if (open ? items.length < shown.length : items.length !== shown.length) {
        problems.push(
          `${at}: the docs show ${shown.length}${open ? ' or more' : ''} items, the agent sent ${items.length}`,
        );
        return;
      }
      shown.forEach((item, index) => walk(item, items[index], `${at}[${index}]`, member));
      return;
    }
    if (expected !== null && typeof expected === 'object') {
      const object = actual as Record<string, unknown>;
      const members = Object.keys(expected).filter((name) => name !== ELLIPSIS);
      const open = ELLIPSIS in expected;
      for (const name of members) {
        if (!(name in object)) problems.push(`${at}.${name}: in the docs, not sent by the agent`);
        else walk((expected as Record<string, unknown>)[name], object[name], `${at}.${name}`, name);
      }
      if (!open)
        for (const name of Object.keys(object))
          if (!members.includes(name))
            problems.push(`${at}.${name}: sent by the agent (${show(object[name])}), not in the docs`);
      return;
    }
    if (!Object.is(expected, actual))
      problems.push(`${at}: the docs show ${show(expected)}, the agent sent ${show(actual)}`);
  };

  walk(example, real, path, key);
  return { problems, learned: taught };
}
