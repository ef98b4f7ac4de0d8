/**
 * Reads Prometheus text exposition (format 0.0.4) the way a scraper does, so the metrics tests
 * assert on samples — names, label sets, values — rather than on substrings.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly samples: readonly Sample[];
  /** HELP text by metric family. */
  readonly help: ReadonlyMap<string, string>;
  /** TYPE by metric family. */
  readonly types: ReadonlyMap<string, string>;
  /** Samples of `name` whose labels include `labels`; throws when more than one matches. */
  value(name: string, labels?: Readonly<Record<string, string>>): number | undefined;
  /** Every sample of `name`. */
  all(name: string): Sample[];
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));
}

/** Go's ParseFloat, as Prometheus reads values: NaN and Inf in any case (prom-client writes "Nan"). */
function parseValue(text: string): number {
  if (/^\+?inf$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  return Number(text);
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const help = new Map<string, string>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (comment) {
      (comment[1] === 'HELP' ? help : types).set(comment[2]!, comment[3]!);
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = match[2] ?? '';
    LABEL_PAIR.lastIndex = 0;
    let consumed = 0;
    for (let pair = LABEL_PAIR.exec(labelText); pair; pair = LABEL_PAIR.exec(labelText)) {
      labels[pair[1]!] = unescape(pair[2]!);
      consumed = LABEL_PAIR.lastIndex;
    }
    if (consumed !== labelText.length) throw new Error(`unreadable labels: ${line}`);
    const value = parseValue(match[3]!);
    if (Number.isNaN(value) && !/^nan$/i.test(match[3]!)) throw new Error(`unreadable value: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  const all = (name: string): Sample[] => samples.filter((sample) => sample.name === name);
  return {
    samples,
    help,
    types,
    all,
    value(name, wanted = {}) {
      const found = all(name).filter((sample) =>
        Object.entries(wanted).every(([key, value]) => sample.labels[key] === value),
      );
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(wanted)}`);
      return found[0]?.value;
    },
  };
}
