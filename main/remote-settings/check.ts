/**
 * Whether a fetched document may be tried: verified with the pinned key, addressed to this
 * checkout, newer than the one running, never refused before, not expired, setting no field a
 * remote document may never set, and giving valid settings once merged over the local file. The
 * first rule a document breaks refuses it with that rule's code (refusal.ts); a document whose
 * settings are invalid is refused with every violation in its sentence.
 */
import type { KeyObject } from 'node:crypto';
import { SettingsError } from '../core/settings.js';
import { parseSettings } from '../settings/settings-file.js';
import { openEnvelope, type RemotePayload, type Scope } from './document.js';
import { forbiddenPaths, governedPaths, mergeSettings, type Json } from './merge.js';
import { RemoteDocumentRefused } from './refusal.js';
import type { RemoteState } from './state.js';

export interface Identity {
  readonly chain: string;
  readonly store?: string;
  readonly checkout?: string;
}

/** Why `scope` does not address `identity`, or undefined when it does. */
export function scopeProblem(scope: Scope, identity: Identity): string | undefined {
  const describe = (s: Partial<Scope>): string =>
    [
      `chain ${s.chain ?? '-'}`,
      ...(s.store === undefined ? [] : [`store ${s.store}`]),
      ...(s.checkout === undefined ? [] : [`checkout ${s.checkout}`]),
    ].join(', ');
  const fits =
    scope.chain === identity.chain &&
    (scope.store === undefined || scope.store === identity.store) &&
    (scope.checkout === undefined || scope.checkout === identity.checkout);
  return fits ? undefined : `the document is for ${describe(scope)}, and this checkout is ${describe(identity)}`;
}

/** The settings `payload` gives once merged over `local`, or why not (FORBIDDEN_FIELD, INVALID_SETTINGS). */
export function mergedSettings(payload: RemotePayload, local: Json, settingsPath: string | null): Json {
  const forbidden = forbiddenPaths(governedPaths(payload.settings));
  if (forbidden.length > 0)
    throw new RemoteDocumentRefused(
      'FORBIDDEN_FIELD',
      `the document sets ${forbidden.join(', ')}, which a remote document may never set (its own section, the checkout's place in the chain, and secrets)`,
      payload.version,
    );
  const merged = mergeSettings(local, payload.settings);
  try {
    parseSettings(merged, settingsPath);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    throw new RemoteDocumentRefused(
      'INVALID_SETTINGS',
      `the settings it gives are invalid: ${error.violations.map((v) => `${v.field} (${v.code}): ${v.message}`).join('; ')}`,
      payload.version,
    );
  }
  return merged;
}

export type CheckResult =
  /** A document to try. */
  | { readonly kind: 'new'; readonly payload: RemotePayload }
  /** The document running, or the one already waiting to be tried. */
  | { readonly kind: 'unchanged'; readonly version: number };

export interface CheckContext {
  readonly key: KeyObject;
  readonly identity: Identity;
  readonly state: RemoteState;
  /** The checkout's own settings file as it is now ({} without one). */
  readonly local: Json;
  readonly settingsPath: string | null;
  readonly now: Date;
}

/** The envelope `text` checked against every rule (throws RemoteDocumentRefused). */
export function checkDocument(text: string, context: CheckContext): CheckResult {
  const { payload } = openEnvelope(text, context.key);
  const version = payload.version;
  const refuse = (code: ConstructorParameters<typeof RemoteDocumentRefused>[0], message: string): never => {
    throw new RemoteDocumentRefused(code, message, version);
  };
  const scope = scopeProblem(payload.scope, context.identity);
  if (scope !== undefined) refuse('WRONG_SCOPE', scope);
  const { current, trial } = context.state;
  if (current !== null && version === current.version) {
    if (text.trim() === current.envelope.trim()) return { kind: 'unchanged', version };
    refuse(
      'VERSION_REUSED',
      `version ${version} runs already with other content: a new document needs a higher version`,
    );
  }
  if (trial !== null && version === trial.version && text.trim() === trial.envelope.trim())
    return { kind: 'unchanged', version };
  if (context.state.refused_versions.includes(version))
    refuse('REFUSED_BEFORE', `version ${version} was refused before; a document needs a new version to be tried`);
  if (current !== null && version < current.version)
    refuse(
      'DOWNGRADE',
      `version ${version} is older than version ${current.version}, which runs (an old document served again)`,
    );
  if (payload.expires_at !== undefined && Date.parse(payload.expires_at) <= context.now.getTime())
    refuse('EXPIRED', `it expired at ${payload.expires_at}`);
  mergedSettings(payload, context.local, context.settingsPath);
  return { kind: 'new', payload };
}
