/**
 * What a running agent's heap holds, by module (issue 35: "the heap by module in the benchmark, so
 * growth is visible"). A preload (`--import`) starts V8's sampling heap profiler as the process
 * starts; on SIGUSR2 it collects the garbage and writes the live samples — each object sampled
 * with the stack that allocated it — with the process's memory and V8's heap spaces to the file
 * named by $PINBRIDGE_HEAP_PROFILE. Read by the start-up benchmark.
 *
 * A sample is counted for the module whose code allocated it: the innermost frame of the project
 * or of a package (its group, as module-trace.ts names them), a frame in a bundle chunk read back
 * through the chunk's source map. What Node's module loader allocates while loading a module —
 * the module's source text, its compiled code — is counted apart, as module code (the start-up
 * benchmark's modules at idle size it by module), and what no module of ours or of a package
 * allocated (Node's own) as node.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleGroup } from './module-trace.js';

export const HEAP_PROFILE_ENV = 'PINBRIDGE_HEAP_PROFILE';

const PRELOAD = `
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { getHeapSpaceStatistics } from 'node:v8';
const session = new Session();
session.connect();
session.post('HeapProfiler.startSampling', { samplingInterval: 4096 });
process.on('SIGUSR2', () =>
  session.post('HeapProfiler.collectGarbage', () =>
    session.post('HeapProfiler.getSamplingProfile', (error, result) =>
      writeFileSync(process.env.${HEAP_PROFILE_ENV}, JSON.stringify({
        profile: error ? null : result.profile,
        memory: process.memoryUsage(),
        spaces: getHeapSpaceStatistics(),
      })))));
`;

/** Node's arguments that load the preload (before the script). */
export const HEAP_PROFILE_ARGS: readonly string[] = ['--import', `data:text/javascript,${encodeURIComponent(PRELOAD)}`];

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface ProfileNode {
  readonly callFrame: CallFrame;
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

interface HeapProfileFile {
  readonly profile: { readonly head: ProfileNode } | null;
  readonly memory: NodeJS.MemoryUsage;
  readonly spaces: readonly { space_name: string; space_size: number; space_used_size: number }[];
}

export const MODULE_CODE = '(module code: sources and compiled functions)';
export const NODE_OWN = '(node)';
/** esbuild's helpers in a chunk (keepNames's __name, CommonJS interop): no module of ours. */
export const BUNDLE_RUNTIME = '(bundle runtime)';

export interface HeapGroup {
  readonly group: string;
  /** Live bytes sampled for the group, in KiB (an estimate: one sample stands for ~4 KiB allocated). */
  readonly kiB: number;
}

export interface HeapByModule {
  /** process.memoryUsage() in MB as the profile was taken (after a full GC). */
  readonly memoryMb: {
    readonly rss: number;
    readonly heapUsed: number;
    readonly heapTotal: number;
    readonly external: number;
  };
  /** V8's heap spaces in use, in MB (new space, old space, code…), those of 0.1 MB or more. */
  readonly spacesMb: Readonly<Record<string, number>>;
  readonly sampledKiB: number;
  /** Largest first. */
  readonly groups: readonly HeapGroup[];
}

const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;

/** A frame's file as a URL: ES modules have one, CommonJS modules a path. */
const fileUrl = (url: string): string | undefined =>
  url.startsWith('file:') ? url : isAbsolute(url) ? pathToFileURL(url).href : undefined;

/**
 * The original file a frame's position comes from: read through the source map of a bundle
 * chunk; the bundler's own helpers (no original file) as BUNDLE_RUNTIME.
 */
function originalUrl(frame: CallFrame, url: string, maps: Map<string, SourceMap | null>): string {
  let map = maps.get(url);
  if (map === undefined) {
    const file = `${fileURLToPath(url)}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as SourceMapPayload) : null;
    maps.set(url, map);
  }
  if (map === null) return url;
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
  return 'originalSource' in entry ? new URL(entry.originalSource, url).href : BUNDLE_RUNTIME;
}

const isModuleLoader = (frame: CallFrame): boolean => frame.url.startsWith('node:internal/modules/');

/** The live heap of the profile written by the preload, by module group. */
export function heapByModule(file: string): HeapByModule {
  const { profile, memory, spaces } = JSON.parse(readFileSync(file, 'utf8')) as HeapProfileFile;
  const bytes = new Map<string, number>();
  const maps = new Map<string, SourceMap | null>();
  let total = 0;
  // Depth first, carrying the innermost frame of ours or a package's, and whether the module
  // loader ran inside it (then the allocation is the loading of a module, not that code's data).
  const walk = (node: ProfileNode, owner: string, loading: boolean): void => {
    const url = fileUrl(node.callFrame.url);
    let here = owner;
    let inLoader = loading;
    if (url !== undefined) {
      const original = originalUrl(node.callFrame, url, maps);
      here = original === BUNDLE_RUNTIME ? original : moduleGroup(original);
      inLoader = false;
    } else if (isModuleLoader(node.callFrame)) {
      inLoader = true;
    }
    if (node.selfSize > 0) {
      const group = inLoader ? MODULE_CODE : here;
      bytes.set(group, (bytes.get(group) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, here, inLoader);
  };
  if (profile !== null) walk(profile.head, NODE_OWN, false);
  return {
    memoryMb: {
      rss: mb(memory.rss),
      heapUsed: mb(memory.heapUsed),
      heapTotal: mb(memory.heapTotal),
      external: mb(memory.external),
    },
    spacesMb: Object.fromEntries(
      spaces
        .filter((space) => space.space_used_size >= 100_000)
        .map((space) => [space.space_name, mb(space.space_used_size)]),
    ),
    sampledKiB: Math.round(total / 1024),
    groups: [...bytes].map(([group, size]) => ({ group, kiB: Math.round(size / 1024) })).sort((a, b) => b.kiB - a.kiB),
  };
}
