/**
 * The spec files that cost the most CPU, from the JSON lines test/setup/cpu-profile.ts appends
 * (`PINBRIDGE_TEST_CPU=/tmp/cpu.jsonl npx vitest run`):
 *
 *   npx tsx scripts/spec-cpu.ts /tmp/cpu.jsonl [N]
 *
 * prints the top N files (30 unless told) as a Markdown table, CPU with wall time beside it, then
 * the whole run's totals. A file profiled more than once (lines appended by several runs) counts
 * with its last line.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** One spec file's line, as test/setup/cpu-profile.ts writes it (milliseconds). */
export interface SpecCpu {
  readonly file: string;
  /** The worker's CPU plus its reaped children's. */
  readonly cpuMs: number;
  /** The worker's own CPU, start-up (bootMs) included. */
  readonly selfMs: number;
  readonly bootMs: number;
  /** Agents, socat, Chromium and whatever else the file started, once reaped. */
  readonly childrenMs: number;
  readonly wallMs: number;
  /** Children still running when the file ended (not counted in childrenMs). */
  readonly running: readonly string[];
}

/** Parses the JSON lines, the last line of each file winning, the costliest first. */
export function readProfile(text: string): SpecCpu[] {
  const byFile = new Map<string, SpecCpu>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as SpecCpu;
    byFile.delete(record.file);
    byFile.set(record.file, record);
  }
  return [...byFile.values()].sort((a, b) => b.cpuMs - a.cpuMs);
}

const seconds = (ms: number): string => (ms / 1_000).toFixed(1);

/** The top `count` files as a Markdown table and a line of totals for the whole profile. */
export function formatTop(profile: readonly SpecCpu[], count: number): string {
  const top = profile.slice(0, count);
  const sum = (records: readonly SpecCpu[], key: 'cpuMs' | 'selfMs' | 'childrenMs' | 'bootMs'): number =>
    records.reduce((total, record) => total + record[key], 0);
  const rows = top.map((record, index) => {
    const running = record.running.length === 0 ? '' : ` (still running: ${record.running.join(', ')})`;
    return `| ${index + 1} | ${record.file}${running} | ${seconds(record.cpuMs)} | ${seconds(record.selfMs)} | ${seconds(record.childrenMs)} | ${seconds(record.wallMs)} |`;
  });
  const total = sum(profile, 'cpuMs');
  const share = total === 0 ? 0 : Math.round((100 * sum(top, 'cpuMs')) / total);
  return [
    '| # | spec file | CPU s | worker s | children s | wall s |',
    '|---:|---|---:|---:|---:|---:|',
    ...rows,
    '',
    `${profile.length} files: ${seconds(total)} CPU s (workers ${seconds(sum(profile, 'selfMs'))}, of which start-up ` +
      `${seconds(sum(profile, 'bootMs'))}; children ${seconds(sum(profile, 'childrenMs'))}); ` +
      `the top ${top.length}: ${seconds(sum(top, 'cpuMs'))} s, ${share} %.`,
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, count] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: npx tsx scripts/spec-cpu.ts <profile.jsonl> [N]\n');
    process.exit(2);
  }
  console.log(formatTop(readProfile(readFileSync(file, 'utf8')), Number(count ?? '30')));
}
