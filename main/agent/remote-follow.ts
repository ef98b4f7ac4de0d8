/**
 * `pinbridge start` with remote settings (docs/remote-settings.md): the AgentRunner whose every
 * start takes its settings from RemoteSettings.load (the local file, with the current document or
 * the one on trial merged over it), and the follower that restarts it at an idle moment when a new
 * document arrived. What "idle" and "ready" mean for the agent is said here, where the agent is
 * known; main/remote-settings knows neither.
 */
import { messageOf } from '../../lib/errors.js';
import type { Logger } from '../log.js';
import type { RemoteSettings } from '../remote-settings/remote-settings.js';
import { idle } from '../updates/policy.js';
import type { AgentSettings } from '../settings/settings-file.js';
import type { Agent, AgentOptions } from './agent.js';
import { AgentRunner } from './agent-runner.js';

/** How long a restarted agent has to get back what worked before it (its PINPAD answering). */
export const READY_GRACE_MS = 60_000;

/**
 * No restart now would cut a sale: no PINPAD runs a payment or a prompt, and no approved payment
 * waits for its POS's confirmation (the POS would confirm into a restart).
 */
export function agentIdle(agent: Agent): boolean {
  // The same moment a staged update installs in: one notion of "no sale going" for both.
  return idle(agent.saleActivity());
}

/**
 * Ready, for a start with new remote settings: Agent.start resolved (the journal recovered, the POS
 * API and the window served: the runner only gets an agent then), the agent `started` (its PINPAD
 * answered or failed the first time), and — when the PINPAD answered before the restart — that it
 * answers again within `graceMs`. Settings that lose the PINPAD are rolled back like settings that
 * do not start.
 */
export async function reachedReady(
  agent: Agent,
  before: { readonly pinpadWasReady: boolean },
  graceMs = READY_GRACE_MS,
): Promise<void> {
  await agent.started;
  if (!before.pinpadWasReady) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      agent.ready,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the PINPAD did not answer within ${graceMs / 1000} s, as it did before the restart`)),
          graceMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface RemoteRunnerOptions {
  readonly remote: RemoteSettings;
  /** The settings file named on the command line (default ~/.pinbridge/settings.json). */
  readonly settingsPath: string | undefined;
  /** The agent's options for these settings (the command line's part). */
  readonly build: (settings: AgentSettings) => AgentOptions;
  readonly logger: Logger;
  readonly start?: (options: AgentOptions) => Promise<Agent>;
  /** The follower's timing (tests shorten it); see FollowOptions. */
  readonly intervalMs?: number;
  readonly firstCheckMs?: number;
  readonly idlePollMs?: number;
  readonly readyGraceMs?: number;
}

/** Starts the agent under an AgentRunner that follows the remote settings (stop the runner, and remote.stop()). */
export async function startWithRemoteSettings(options: RemoteRunnerOptions): Promise<AgentRunner> {
  const { remote, logger } = options;
  const build = (): AgentOptions => {
    const { settings, document } = remote.load(options.settingsPath);
    return { ...options.build(settings), remote: { document, status: () => remote.status() } };
  };
  const runnerOptions = {
    build,
    logger,
    // A remote document on trial that does not start is refused and reported as such: the saved
    // settings themselves are in use (with the previous document), so the window is not told otherwise.
    savedSettingsFailed: (failed: AgentOptions) => failed.remote?.document?.trial !== true,
    ...(options.start === undefined ? {} : { start: options.start }),
  };
  let runner: AgentRunner;
  try {
    runner = await AgentRunner.start(runnerOptions);
  } catch (error) {
    // A trial that does not start is refused; the start is tried once more with what ran before.
    if (!remote.startFailed(error)) throw error;
    logger.error(
      { err: messageOf(error) },
      'the agent did not start with the remote settings on trial; starting without them',
    );
    runner = await AgentRunner.start(runnerOptions);
  }
  // Whether the agent that ran before a restart had its PINPAD answering (what must work again).
  let pinpadWasReady = false;
  const watch = (agent: Agent): void => {
    agent.ready.then(
      () => {
        if (runner.agent === agent) pinpadWasReady = true;
      },
      () => {},
    );
  };
  const confirm = (agent: Agent, before: boolean): void => {
    remote.started(reachedReady(agent, { pinpadWasReady: before }, options.readyGraceMs));
    watch(agent);
  };
  confirm(runner.agent, false);
  runner.on('restarted', (agent) => {
    const before = pinpadWasReady;
    pinpadWasReady = false;
    confirm(agent, before);
  });
  runner.on('restartFailed', (error, agent) => {
    remote.startFailed(error);
    watch(agent);
  });
  remote.follow({
    idle: () => agentIdle(runner.agent),
    restart: () => runner.requestRestart(),
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    ...(options.firstCheckMs === undefined ? {} : { firstCheckMs: options.firstCheckMs }),
    ...(options.idlePollMs === undefined ? {} : { idlePollMs: options.idlePollMs }),
  });
  return runner;
}
