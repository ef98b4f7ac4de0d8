/**
 * The agent's V8 flags (main/agent/node-flags.ts) are given only to a V8 that knows them: Node
 * refuses to start with an unknown flag, and Node 22's V8 has no memory-saver mode.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AGENT_V8_FLAGS, knownV8Flags } from '../../../main/agent/node-flags.js';

/** What `node --v8-options` prints for Node 22's V8 (12.4), cut to the options that matter here. */
const NODE_22_V8_OPTIONS = `Synopsis:
  shell [options] [--shell] [<file>...]
Options:
  --efficiency-mode (Forces efficiency mode on or off, disregarding any dynamic signals. Efficiency mode is optimized for situations with no latency requirements and uses fewer threads.)
        type: maybe_bool  default: --efficiency-mode=unset
  --efficiency-mode-for-tiering-heuristics (Use efficiency mode in tiering heuristics.)
        type: bool  default: --no-efficiency-mode-for-tiering-heuristics
  --max-semi-space-size (max size of a semi-space (in MBytes), the new space consists of two semi-spaces)
        type: size_t  default: --max-semi-space-size=0
`;

describe("the agent's V8 flags", () => {
  it("are all known to Node 24's V8 (and Electron 45's); Node 22's lacks only the memory-saver mode", () => {
    const v8Options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const major = Number(process.versions.node.split('.')[0]);
    expect(knownV8Flags(AGENT_V8_FLAGS, v8Options)).toEqual(
      major >= 24 ? AGENT_V8_FLAGS : AGENT_V8_FLAGS.filter((flag) => flag !== '--memory-saver-mode'),
    );
  });

  it("leave out what an older V8 does not know, by the whole option name (not a longer one's prefix)", () => {
    expect(knownV8Flags(AGENT_V8_FLAGS, NODE_22_V8_OPTIONS)).toEqual(['--max-semi-space-size=1', '--efficiency-mode']);
    expect(knownV8Flags(['--efficiency-mode-for'], NODE_22_V8_OPTIONS)).toEqual([]);
    expect(knownV8Flags(AGENT_V8_FLAGS, '')).toEqual([]);
  });
});
