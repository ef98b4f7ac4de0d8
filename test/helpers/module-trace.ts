/**
 * Which modules a Node process loads: a preload (`--import`) notes the URL of every module the
 * process loads — ES modules and CommonJS alike, through Node's module hooks — and writes them,
 * one per line, to the file named by $PINBRIDGE_MODULE_TRACE when the process exits or receives
 * SIGUSR2 (a running agent, asked while it idles). Read by the lazy-loading specs and the start-up
 * benchmark.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const MODULE_TRACE_ENV = 'PINBRIDGE_MODULE_TRACE';

const PRELOAD = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const file = process.env.${MODULE_TRACE_ENV};
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
const write = () => writeFileSync(file, loaded.join('\\n') + '\\n');
process.on('exit', write);
process.on('SIGUSR2', write);
`;

/** Node's arguments that load the preload (before the script). */
export const MODULE_TRACE_ARGS: readonly string[] = ['--import', `data:text/javascript,${encodeURIComponent(PRELOAD)}`];

/** The project's bundle (scripts/bundle.mjs): each chunk's modules, from esbuild's metafile. */
const BUNDLE_META = fileURLToPath(new URL('../../dist/bundle/meta.json', import.meta.url));

interface BundledModule {
  /** The compiled module's URL (dist/main/…, node_modules/…), as an unbundled run would load it. */
  readonly url: string;
  /** Its code's share of the chunk, in bytes (ASCII: what V8 keeps of it). */
  readonly bytes: number;
}

let bundle: { chunks: Map<string, BundledModule[]>; bytes: Map<string, number> } | undefined;

/** The bundle's chunks by URL, each with its modules; read once per process (empty without a bundle). */
function bundleChunks(): { chunks: Map<string, BundledModule[]>; bytes: Map<string, number> } {
  if (bundle !== undefined) return bundle;
  bundle = { chunks: new Map(), bytes: new Map() };
  if (!existsSync(BUNDLE_META)) return bundle;
  const meta = JSON.parse(readFileSync(BUNDLE_META, 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const root = new URL('../../', import.meta.url);
  for (const [output, { inputs }] of Object.entries(meta.outputs)) {
    if (!output.endsWith('.js')) continue;
    const modules = Object.entries(inputs).map(([input, { bytesInOutput }]) => ({
      url: new URL(input, root).href,
      bytes: bytesInOutput,
    }));
    bundle.chunks.set(new URL(output, root).href, modules);
    for (const module of modules) bundle.bytes.set(module.url, module.bytes);
  }
  return bundle;
}

/**
 * The URLs the traced process had loaded, in order; a chunk of the bundle stands for the modules
 * it holds (all of them: a chunk's modules are evaluated as it loads), so a trace reads the same
 * whether the bin ran the bundle or the compiled modules one by one.
 */
export function readModuleTrace(file: string): string[] {
  const { chunks } = bundleChunks();
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .flatMap((url) => chunks.get(url)?.map((module) => module.url) ?? [url]);
}

/**
 * The group a module belongs to: its package under node_modules ("fastify", "@fastify/swagger"),
 * else the project's folder two levels deep ("main/sandbox", "drivers/abecs", "bin/pinbridge.js"),
 * else "node:" for Node's own modules.
 */
/** The project's root as a file URL, with its trailing slash (this file is test/helpers/module-trace.ts). */
const PROJECT_ROOT_URL = new URL('../../', import.meta.url).href;

export function moduleGroup(url: string): string {
  if (url.startsWith('node:')) return 'node:';
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  // Matched from the project's root, whatever the checkout's folder is called (a checkout in a
  // folder named "main" would otherwise read as main/<its first folder>).
  const inProject = url.startsWith(PROJECT_ROOT_URL) ? url.slice(PROJECT_ROOT_URL.length) : url;
  const own = /^(?:dist\/)?((?:main|drivers|lib|bin|client|renderer)\/[^/]+)/.exec(inProject);
  return own ? own[1]! : url;
}

export interface ModuleGroupSize {
  readonly group: string;
  readonly modules: number;
  /**
   * The source text V8 keeps in the heap for these modules, in KiB: one byte a character, two
   * for a file with any character beyond Latin-1 (V8 stores such a string as UTF-16); for a
   * module of the bundle, its bytes in its chunk (ASCII). A floor of what the group costs: its
   * compiled code and its objects come on top.
   */
  readonly sourceKiB: number;
}

/** Loaded modules counted by group, with their source size, largest first. */
export function moduleGroups(urls: readonly string[]): ModuleGroupSize[] {
  const groups = new Map<string, { modules: number; bytes: number }>();
  for (const url of urls) {
    const group = moduleGroup(url);
    const entry = groups.get(group) ?? { modules: 0, bytes: 0 };
    entry.modules += 1;
    const bundled = bundleChunks().bytes.get(url);
    if (bundled !== undefined) {
      entry.bytes += bundled;
    } else if (url.startsWith('file:')) {
      const text = readFileSync(fileURLToPath(url), 'utf8');
      entry.bytes += /[\u0100-\uffff]/.test(text) ? text.length * 2 : text.length;
    }
    groups.set(group, entry);
  }
  return [...groups]
    .map(([group, { modules, bytes }]) => ({ group, modules, sourceKiB: Math.round(bytes / 1024) }))
    .sort((a, b) => b.sourceKiB - a.sourceKiB || b.modules - a.modules);
}

/**
 * The modules `node <args>` loaded (URLs, in order): run to its end, or — with `untilReady` — until
 * its first JSON line on stdout (a ready line), then stopped with SIGTERM (what it loads to stop
 * counts too).
 */
export async function modulesLoadedBy(
  args: readonly string[],
  options: { readonly untilReady?: boolean; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'pinbridge-module-trace-'));
  const trace = join(folder, 'modules.txt');
  try {
    const child = spawn(process.execPath, [...MODULE_TRACE_ARGS, ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, ...options.env, [MODULE_TRACE_ENV]: trace },
    });
    const exited = once(child, 'exit');
    if (options.untilReady === true) {
      for await (const line of createInterface({ input: child.stdout })) if (line.startsWith('{')) break;
      child.kill('SIGTERM');
    } else {
      child.stdout.resume();
    }
    await exited;
    return readModuleTrace(trace);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
