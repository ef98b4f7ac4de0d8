/**
 * The peer process on Windows and macOS, from their tools' output as recorded on those systems
 * (netstat in English and in Portuguese, tasklist, lsof -F, ps): the right PID and name for the
 * client's end of a connection, whatever the other rows; and lookups made together share one run.
 */
import { describe, expect, it } from 'vitest';
import { NO_PEER_FINDER, peerFinderFor, runCommand } from '../../../../../main/pos/server/peer/finder.js';
import { LinuxPeerFinder } from '../../../../../main/pos/server/peer/linux.js';
import { LSOF_ARGS, MacPeerFinder, parseLsof, parsePsArgs } from '../../../../../main/pos/server/peer/macos.js';
import { BatchedSearch, type CommandRunner } from '../../../../../main/pos/server/peer/peer.js';
import { parseNetstat, parseTasklist, WindowsPeerFinder } from '../../../../../main/pos/server/peer/windows.js';

const AGENT = 17301;

const NETSTAT_EN = `
Active Connections

  Proto  Local Address          Foreign Address        State           PID
  TCP    0.0.0.0:135            0.0.0.0:0              LISTENING       1012
  TCP    127.0.0.1:17301        0.0.0.0:0              LISTENING       4312
  TCP    127.0.0.1:17301        127.0.0.1:50123        ESTABLISHED     4312
  TCP    127.0.0.1:50123        127.0.0.1:17301        ESTABLISHED     9876
  TCP    127.0.0.1:50124        127.0.0.1:17301        TIME_WAIT       0
  TCP    192.168.0.12:50125     20.190.151.7:17301     ESTABLISHED     2220
  TCP    [::1]:17301            [::]:0                 LISTENING       4312
  TCP    [::1]:50200            [::1]:17301            ESTABLISHED     5550
  UDP    0.0.0.0:5353           *:*                                    2404
`;

const NETSTAT_PT = `
Conexões ativas

  Proto  Endereço local         Endereço externo       Estado          PID
  TCP    127.0.0.1:17301        0.0.0.0:0              ESCUTANDO       4312
  TCP    127.0.0.1:50123        127.0.0.1:17301        ESTABELECIDA    9876
  TCP    127.0.0.1:17301        127.0.0.1:50123        ESTABELECIDA    4312
`;

const TASKLIST = `"System Idle Process","0","Services","0","8 K"
"node.exe","9876","Console","1","45.220 K"
"chrome.exe","5550","Console","1","120.004 K"
"Pinbridge.exe","4312","Console","1","98.100 K"
`;

const LSOF = `p412
cPinbridge Helper
f23
n127.0.0.1:17301
f24
n127.0.0.1:17301->127.0.0.1:50123
p9876
cnode
f19
n127.0.0.1:50123->127.0.0.1:17301
f20
n127.0.0.1:50124->127.0.0.1:17301
p5550
cGoogle Chrome Helper
f31
n[::1]:50200->[::1]:17301
`;

const PS = `  9876 /usr/local/bin/node /Users/caixa/squatter.mjs --loop
  5550 /Applications/Google Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Helpers/Google Chrome Helper.app/Contents/MacOS/Google Chrome Helper --type=utility
`;

/** A runner that answers from recordings and counts its runs. */
function recorded(outputs: Record<string, string>): CommandRunner & { runs: string[] } {
  const runs: string[] = [];
  const run = (file: string, args: readonly string[]): Promise<string> => {
    runs.push([file, ...args].join(' '));
    const output = outputs[file];
    return output === undefined ? Promise.reject(new Error(`${file}: not found`)) : Promise.resolve(output);
  };
  return Object.assign(run, { runs });
}

describe('Windows: netstat and tasklist', () => {
  it('reads the TCP rows by column, in English or Portuguese', () => {
    expect(parseNetstat(NETSTAT_EN)).toContainEqual({
      localAddress: '127.0.0.1',
      localPort: 50123,
      foreignAddress: '127.0.0.1',
      foreignPort: AGENT,
      pid: 9876,
    });
    expect(parseNetstat(NETSTAT_EN).some((row) => row.localAddress === '::1' && row.pid === 5550)).toBe(true);
    expect(parseNetstat(NETSTAT_PT).find((row) => row.localPort === 50123)?.pid).toBe(9876);
    expect(parseTasklist(TASKLIST).get(9876)).toBe('node.exe');
    expect(parseTasklist('INFO: No tasks are running which match the specified criteria.\r\n').size).toBe(0);
  });

  it("finds the client's process and image name, on 127.0.0.1 and ::1", async () => {
    const run = recorded({ netstat: NETSTAT_EN, tasklist: TASKLIST });
    const finder = new WindowsPeerFinder(run);
    expect(await finder.find({ address: '127.0.0.1', port: 50123, serverPort: AGENT })).toEqual({
      process: { pid: 9876, name: 'node.exe', program: 'node.exe' },
      uid: null,
    });
    expect((await finder.find({ address: '::1', port: 50200, serverPort: AGENT })).process?.name).toBe('chrome.exe');
    // Closed (TIME_WAIT's PID 0 is no process) or not loopback: unknown.
    expect((await finder.find({ address: '127.0.0.1', port: 50125, serverPort: AGENT })).process).toBeNull();
    expect((await finder.find({ address: '192.168.0.12', port: 50125, serverPort: AGENT })).process).toBeNull();
  });

  it('is unknown when netstat cannot run', async () => {
    const finder = new WindowsPeerFinder(recorded({}));
    expect(await finder.find({ address: '127.0.0.1', port: 50123, serverPort: AGENT })).toEqual({
      process: null,
      uid: null,
    });
  });

  it('runs netstat and tasklist once for lookups made together', async () => {
    const run = recorded({ netstat: NETSTAT_PT, tasklist: TASKLIST });
    const finder = new WindowsPeerFinder(run);
    const found = await Promise.all(
      Array.from({ length: 10 }, () => finder.find({ address: '127.0.0.1', port: 50123, serverPort: AGENT })),
    );
    expect(new Set(found.map((info) => info.process?.pid))).toEqual(new Set([9876]));
    expect(run.runs).toEqual(['netstat -ano', 'tasklist /FO CSV /NH']);
  });
});

describe('macOS: lsof and ps', () => {
  it('reads the connected sockets of lsof -F with their process', () => {
    expect(parseLsof(LSOF)).toEqual([
      { pid: 412, command: 'Pinbridge Helper', localPort: AGENT, remotePort: 50123 },
      { pid: 9876, command: 'node', localPort: 50123, remotePort: AGENT },
      { pid: 9876, command: 'node', localPort: 50124, remotePort: AGENT },
      { pid: 5550, command: 'Google Chrome Helper', localPort: 50200, remotePort: AGENT },
    ]);
    expect(parsePsArgs(PS).get(9876)).toBe('/usr/local/bin/node /Users/caixa/squatter.mjs --loop');
  });

  it("finds the client's process with its command line, never the agent's own end", async () => {
    const run = recorded({ lsof: LSOF, ps: PS });
    const finder = new MacPeerFinder(run);
    expect(await finder.find({ address: '127.0.0.1', port: 50123, serverPort: AGENT })).toEqual({
      process: { pid: 9876, name: 'node', program: '/usr/local/bin/node /Users/caixa/squatter.mjs --loop' },
      uid: null,
    });
    expect((await finder.find({ address: '::1', port: 50200, serverPort: AGENT })).process?.name).toBe(
      'Google Chrome Helper',
    );
    expect(run.runs[0]).toBe(['lsof', ...LSOF_ARGS].join(' '));
  });

  it('keeps the command when ps cannot tell the arguments', async () => {
    const finder = new MacPeerFinder(recorded({ lsof: LSOF }));
    expect((await finder.find({ address: '127.0.0.1', port: 50123, serverPort: AGENT })).process).toEqual({
      pid: 9876,
      name: 'node',
      program: 'node',
    });
  });
});

describe('batched searches', () => {
  it('answers every key waiting when a search starts, and spaces searches apart', async () => {
    const searches: number[][] = [];
    const search = new BatchedSearch<number, number>(
      (keys) => {
        searches.push([...keys]);
        return Promise.resolve(new Map([...keys].map((key) => [key, key * 2])));
      },
      { gapMs: 100 },
    );
    const started = performance.now();
    // Asked together: one search.
    expect(await Promise.all([search.find(1), search.find(4)])).toEqual([2, 8]);
    // Asked while the next may not start yet: they wait for it, together.
    const rest = Promise.all([search.find(2), search.find(3), search.find(2)]);
    expect(await rest).toEqual([4, 6, 4]);
    expect(searches).toEqual([
      [1, 4],
      [2, 3],
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('answers undefined when the search fails', async () => {
    const search = new BatchedSearch<number, number>(() => Promise.reject(new Error('no')));
    expect(await search.find(1)).toBeUndefined();
  });
});

describe('running the tools', () => {
  it('gives their output, also when they exit non-zero with output (lsof), and refuses one that failed silently', async () => {
    expect(await runCommand(process.execPath, ['-e', 'process.stdout.write("ok")'])).toBe('ok');
    expect(await runCommand(process.execPath, ['-e', 'process.stdout.write("partial"); process.exit(1)'])).toBe(
      'partial',
    );
    await expect(runCommand(process.execPath, ['-e', 'process.exit(3)'])).rejects.toThrow(Error);
    await expect(runCommand('pinbridge-no-such-tool', [])).rejects.toThrow(/ENOENT/);
  });

  it("picks each system's finder, and none where there is no way to tell", () => {
    expect(peerFinderFor('linux')).toBeInstanceOf(LinuxPeerFinder);
    expect(peerFinderFor('win32', recorded({}))).toBeInstanceOf(WindowsPeerFinder);
    expect(peerFinderFor('darwin', recorded({}))).toBeInstanceOf(MacPeerFinder);
    expect(peerFinderFor('aix')).toBe(NO_PEER_FINDER);
  });
});
