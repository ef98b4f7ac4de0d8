/**
 * What this agent keeps of remote settings (~/.pinbridge/remote-settings/state.json): the document
 * it runs (`current`), the one it is trying (`trial`, with how many starts tried it), the versions
 * refused (never tried again), the last refusals and the last check. Each document is kept as the
 * envelope served, so every start verifies it again with the pinned key: an edited state file
 * governs nothing.
 *
 * Written atomically (a temporary file renamed over it). A write that fails (a full or read-only
 * disk) is logged and the state goes on in memory; the next change writes it again. A trial that
 * cannot be written is not tried: a start that then crashed could not be told from one that never
 * tried it (docs/remote-settings.md, Rollback).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { messageOf } from '../../lib/errors.js';
import type { Logger } from '../log.js';
import type { Refusal, RefusalCode } from './refusal.js';

/** Removes a temporary file left by a failed write; its folder may be what failed (ENOTDIR, EROFS). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing was written there, or nothing can be: there is nothing to clean.
  }
}

export interface StoredDocument {
  readonly version: number;
  /** Where it was fetched from (the url with its placeholders filled). */
  readonly url: string;
  /** The envelope's text as served (verified again at every start). */
  readonly envelope: string;
  readonly fetched_at: string;
}

export interface TrialDocument extends StoredDocument {
  /** Starts that used it without confirming it: one means the last start did not reach ready. */
  readonly attempts: number;
  /**
   * The agent's PINPAD answered when the restart for this trial was asked (a relaunched process
   * cannot know it otherwise): it must answer again for the trial to count as ready.
   */
  readonly pinpad_was_ready?: boolean;
}

export type CheckOutcome = 'new' | 'unchanged' | 'refused' | 'unreachable' | 'no_key' | 'not_saved';

export interface LastCheck {
  readonly at: string;
  readonly url: string;
  readonly outcome: CheckOutcome;
  readonly message: string | null;
}

export interface RemoteState {
  readonly current: StoredDocument | null;
  readonly trial: TrialDocument | null;
  /** Every version refused (newest last; the last MAX_REFUSED_VERSIONS). */
  readonly refused_versions: readonly number[];
  /** The last refusals, newest last. */
  readonly refusals: readonly Refusal[];
  readonly last_check: LastCheck | null;
}

const EMPTY: RemoteState = { current: null, trial: null, refused_versions: [], refusals: [], last_check: null };
const MAX_REFUSED_VERSIONS = 1000;
/** Refusals for what the document does on this checkout: its version is never tried again. */
const PERMANENT_REFUSALS: ReadonlySet<RefusalCode> = new Set(['NOT_READY', 'FORBIDDEN_FIELD', 'INVALID_SETTINGS']);
const MAX_REFUSALS = 10;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readState(path: string, logger: Logger | undefined): RemoteState {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      logger?.error(
        { file: path, err: messageOf(error) },
        'the remote settings state cannot be read; starting without it',
      );
    return EMPTY;
  }
  try {
    const json: unknown = JSON.parse(text);
    if (!isObject(json)) throw new Error('not a JSON object');
    return {
      current: isObject(json.current) ? (json.current as unknown as StoredDocument) : null,
      trial: isObject(json.trial) ? (json.trial as unknown as TrialDocument) : null,
      refused_versions: Array.isArray(json.refused_versions)
        ? json.refused_versions.filter((v): v is number => typeof v === 'number')
        : [],
      refusals: Array.isArray(json.refusals) ? (json.refusals as Refusal[]) : [],
      last_check: isObject(json.last_check) ? (json.last_check as unknown as LastCheck) : null,
    };
  } catch (error) {
    logger?.error(
      { file: path, err: messageOf(error) },
      'the remote settings state is not valid JSON; starting without it (the next document is checked from scratch)',
    );
    return EMPTY;
  }
}

export class RemoteStateStore {
  readonly path: string;
  readonly #logger: Logger | undefined;
  #state: RemoteState;

  constructor(path: string, logger?: Logger) {
    this.path = path;
    this.#logger = logger;
    this.#state = readState(path, logger);
  }

  get state(): RemoteState {
    return this.#state;
  }

  /** Reads the file again (another process, e.g. `pinbridge remote-settings status`, wrote it). */
  reload(): RemoteState {
    this.#state = readState(this.path, this.#logger);
    return this.#state;
  }

  /** Writes the state; false (logged) when the disk refused it. */
  #write(next: RemoteState): boolean {
    this.#state = next;
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      renameSync(temporary, this.path);
      return true;
    } catch (error) {
      removeQuietly(temporary);
      this.#logger?.warn(
        { file: this.path, err: messageOf(error) },
        'the remote settings state could not be written; it is kept in memory and written again at the next change',
      );
      return false;
    }
  }

  /** Keeps `document` as the one to try at the next start; false (nothing changed) when it could not be written. */
  offer(document: StoredDocument): boolean {
    const before = this.#state;
    if (this.#write({ ...before, trial: { ...document, attempts: 0 } })) return true;
    this.#state = before;
    return false;
  }

  /** What worked before the restart that tries the trial (kept with it for the process that starts next). */
  noteBeforeRestart(facts: { readonly pinpadWasReady: boolean }): void {
    const trial = this.#state.trial;
    if (trial !== null) this.#write({ ...this.#state, trial: { ...trial, pinpad_was_ready: facts.pinpadWasReady } });
  }

  /** A start is using the trial: counted before the start, so a crash during it is seen at the next one. */
  attempt(): TrialDocument | null {
    const trial = this.#state.trial;
    if (trial === null) return null;
    const counted = { ...trial, attempts: trial.attempts + 1 };
    this.#write({ ...this.#state, trial: counted });
    return counted;
  }

  /** The agent reached ready with the trial `version`: it becomes the current document. */
  confirm(version: number): void {
    const trial = this.#state.trial;
    if (trial?.version !== version) return;
    const { attempts: _attempts, pinpad_was_ready: _ready, ...current } = trial;
    this.#write({ ...this.#state, current, trial: null });
  }

  /**
   * Refuses a document (the trial too, when it is that version). A version refused for what it
   * does here (PERMANENT_REFUSALS) is never tried again; one refused for how it came (its
   * signature, scope, age) is not marked, so another store's document served here by mistake
   * does not spoil this checkout's own document of the same version. The same refusal seen again
   * (a tampered document served at every check) updates its time instead of filling the list.
   */
  refuse(
    code: RefusalCode,
    message: string,
    version: number | null,
    at: Date = new Date(),
    options: { readonly permanent?: boolean } = {},
  ): Refusal {
    const refusal: Refusal = { code, message, version, at: at.toISOString() };
    const state = this.#state;
    const permanent = options.permanent ?? PERMANENT_REFUSALS.has(code);
    const versions =
      version === null || !permanent || state.refused_versions.includes(version)
        ? state.refused_versions
        : [...state.refused_versions, version].slice(-MAX_REFUSED_VERSIONS);
    const last = state.refusals.at(-1);
    const again = last !== undefined && last.code === code && last.version === version && last.message === message;
    this.#write({
      ...state,
      trial: state.trial !== null && state.trial.version === version ? null : state.trial,
      refused_versions: versions,
      refusals: again ? [...state.refusals.slice(0, -1), refusal] : [...state.refusals, refusal].slice(-MAX_REFUSALS),
    });
    return refusal;
  }

  /** The current document no longer verifies or fits: dropped (the local file alone governs). */
  dropCurrent(): void {
    if (this.#state.current !== null) this.#write({ ...this.#state, current: null });
  }

  recordCheck(check: LastCheck): void {
    this.#write({ ...this.#state, last_check: check });
  }
}
