/**
 * The port between the shell and the agent for updates: the shell (Electron, main/app/updates.ts)
 * writes what it knows — downloading, downloaded, installing, the last check — and the agent (plain
 * Node) hands it to its window (operator.updates, event agent.update). The agent makes one at
 * start with updates off; an agent without a shell (headless) keeps it so.
 */
import { EventEmitter } from 'node:events';
import type { UpdateState, UpdateWatcher } from '../pos/server/agent.js';

export const UPDATES_OFF: UpdateState = {
  enabled: false,
  channel: null,
  state: 'none',
  version: null,
  installWindow: null,
  waitingForSale: false,
  stagedBy: null,
  rolloutPosition: null,
  lastCheck: null,
};

export class UpdateStatus extends EventEmitter<{ change: [state: UpdateState] }> implements UpdateWatcher {
  #state: UpdateState = UPDATES_OFF;

  get state(): UpdateState {
    return this.#state;
  }

  /** Changes part of the state; listeners hear it only when something changed. */
  update(change: Partial<UpdateState>): void {
    const next = { ...this.#state, ...change };
    if (JSON.stringify(next) === JSON.stringify(this.#state)) return;
    this.#state = next;
    this.emit('change', next);
  }
}
