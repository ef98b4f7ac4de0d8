/**
 * The peer finder of the system the agent runs on (peer.ts says what each tells), with the
 * commands run for real; none where the system has no way to tell (every peer is then unknown).
 */
import { execFile } from 'node:child_process';
import { LinuxPeerFinder } from './linux.js';
import { MacPeerFinder } from './macos.js';
import { UNKNOWN_PEER, type CommandRunner, type PeerFinder } from './peer.js';
import { WindowsPeerFinder } from './windows.js';

const COMMAND_TIMEOUT_MS = 5_000;

/**
 * Runs a command and resolves with its output, also when it exits non-zero with output (lsof
 * exits 1 when some of its selections matched nothing).
 */
export const runCommand: CommandRunner = (file, args) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, windowsHide: true, encoding: 'utf8' },
      (error, stdout) => {
        if (error !== null && stdout.length === 0) reject(new Error(`${file}: ${error.message}`, { cause: error }));
        else resolve(stdout);
      },
    );
  });

export const NO_PEER_FINDER: PeerFinder = { find: () => Promise.resolve(UNKNOWN_PEER) };

export function peerFinderFor(
  platform: NodeJS.Platform = process.platform,
  run: CommandRunner = runCommand,
): PeerFinder {
  switch (platform) {
    case 'linux':
      return new LinuxPeerFinder();
    case 'win32':
      return new WindowsPeerFinder(run);
    case 'darwin':
      return new MacPeerFinder(run);
    default:
      return NO_PEER_FINDER;
  }
}
