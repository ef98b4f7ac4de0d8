/**
 * Keeps one agent running and restarts it when the window asks (operator.restart), so settings and
 * an API token saved from the window apply without anyone quitting the program.
 *
 * A restart reads the settings file (and the token) again first: a file that no longer loads keeps
 * the running agent as it is. Then the agent stops — the POS API first, the PINPAD last — and a new
 * one starts on the same POS address, where the window and the POS reconnect by themselves. Should
 * the new one fail to start, the previous options start again, so the checkout is never left
 * without its agent because of a setting.
 *
 * `pinbridge start` runs the agent this way; the desktop app relaunches its whole process instead.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../log.js';
import { Agent, type AgentOptions } from './agent.js';

export interface AgentRunnerOptions {
  /** The agent's options from the settings file as it is now; called at start and at every restart. */
  readonly build: () => AgentOptions;
  /** Starts an agent; default Agent.start (tests wrap it). */
  readonly start?: (options: AgentOptions) => Promise<Agent>;
  /**
   * Whether a failed start means the saved settings are not in use (the window is told so); default
   * yes. Not when what failed was something else on trial (a remote settings document, which
   * reports its own refusal).
   */
  readonly savedSettingsFailed?: (options: AgentOptions) => boolean;
  readonly logger: Logger;
}

export interface AgentRunnerEvents {
  /** A new agent runs after a restart (`pinbridge start` prints its ready line again). */
  restarted: [agent: Agent];
  /** A restart did not apply; the agent named runs (the old options, or the old agent itself). */
  restartFailed: [error: Error, agent: Agent];
  /** Neither the saved settings nor the previous ones started: no agent runs any more. */
  failed: [error: Error];
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export class AgentRunner extends EventEmitter<AgentRunnerEvents> {
  readonly #options: AgentRunnerOptions;
  readonly #start: (options: AgentOptions) => Promise<Agent>;
  #agent: Agent;
  /** The options the running agent was started with (a failed restart starts them again). */
  #running: AgentOptions;
  #restarting: Promise<Agent> | undefined;
  #stopped: Promise<void> | undefined;

  private constructor(
    options: AgentRunnerOptions,
    start: (options: AgentOptions) => Promise<Agent>,
    agent: Agent,
    running: AgentOptions,
  ) {
    super();
    this.#options = options;
    this.#start = start;
    this.#agent = agent;
    this.#running = running;
  }

  static async start(options: AgentRunnerOptions): Promise<AgentRunner> {
    const start = options.start ?? ((agentOptions: AgentOptions) => Agent.start(agentOptions));
    const holder: { runner?: AgentRunner } = {};
    const first = { ...options.build(), restart: () => holder.runner?.requestRestart() };
    const agent = await start(first);
    holder.runner = new AgentRunner(options, start, agent, first);
    return holder.runner;
  }

  /** The agent running now (another one after each restart). */
  get agent(): Agent {
    return this.#agent;
  }

  /** Restarts with the settings file as it is now; resolves with the agent then running. */
  restart(): Promise<Agent> {
    if (this.#stopped !== undefined) return Promise.resolve(this.#agent);
    this.#restarting ??= this.#restart().finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }

  async #restart(): Promise<Agent> {
    const { logger } = this.#options;
    const old = this.#agent;
    let next: AgentOptions;
    try {
      // Same POS address, so the window and the POS find the new agent where the old one was.
      next = { ...this.#options.build(), posPorts: [old.pos.port], restart: () => this.requestRestart() };
    } catch (error) {
      logger.error(
        { err: asError(error).message },
        'restart refused: the settings no longer load; the agent keeps running as it was',
      );
      this.emit('restartFailed', asError(error), old);
      return old;
    }
    logger.info({}, 'restarting with the saved settings');
    await old.stop();
    try {
      this.#agent = await this.#start(next);
      this.#running = next;
      this.emit('restarted', this.#agent);
    } catch (error) {
      logger.error(
        { err: asError(error).message },
        'the agent did not start with the saved settings; starting it again as it was',
      );
      try {
        // The window is told why its saved settings are not the ones running.
        const saved = this.#options.savedSettingsFailed?.(next) ?? true;
        this.#agent = await this.#start({
          ...this.#running,
          posPorts: [old.pos.port],
          ...(saved ? { notApplied: asError(error).message } : {}),
        });
      } catch (again) {
        logger.fatal({ err: asError(again).message }, 'the agent did not start again');
        this.emit('failed', asError(again));
        throw again;
      }
      this.emit('restartFailed', asError(error), this.#agent);
    }
    return this.#agent;
  }

  /** The agent's own restart (operator.restart): how it ends is told by the events. */
  requestRestart(): void {
    this.restart().catch(() => {});
  }

  /** Stops the agent (after a restart under way); idempotent. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      await this.#restarting?.catch(() => undefined);
      await this.#agent.stop();
    })();
    return this.#stopped;
  }
}
