/**
 * What the pages of the window share: the connected client, the agent's mode, and a small
 * "something changed" signal the shell listens to (badges in the navigation, the notices on top).
 */
import type { PinbridgeClient } from '../client/index.js';
import { startOfDayIn } from './clock.js';
import { currentLanguage, currentTimeZone } from './i18n.js';

export type Mode = 'training' | 'live';

export interface WindowContext {
  readonly client: PinbridgeClient;
  /** The agent's mode from session.operator; null before the first login. */
  mode(): Mode | null;
  /** A page's state changed in a way the shell shows elsewhere (badges, notices). */
  changed(): void;
}

/** ISO time of today's midnight on the store's clock: where "today's sales" begin. */
export function todayStartIso(now = new Date()): string {
  const zone = currentTimeZone();
  if (zone !== undefined) return startOfDayIn(now, zone).toISOString();
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return midnight.toISOString();
}

/** A failed call in the cashier's language: the agent's pt-BR sentence, or its English message. */
export function errorText(error: unknown): string {
  const english = error instanceof Error ? error.message : String(error);
  if (currentLanguage() === 'en') return english;
  const cashier = typeof error === 'object' && error !== null && 'cashierMessage' in error ? error.cashierMessage : undefined;
  return typeof cashier === 'string' ? cashier : english;
}
