/**
 * What the pages of the window share: the connected client, the agent's mode, and a small
 * "something changed" signal the shell listens to (badges in the navigation, the notices on top).
 */
import type { EventPayload, PinbridgeClient } from '../client/index.js';
import { dateIn, startOfDate, startOfDayIn } from './clock.js';
import { currentLanguage, currentTimeZone } from './i18n.js';

export type Mode = 'training' | 'live';

export interface WindowContext {
  readonly client: PinbridgeClient;
  /** The agent's mode from session.operator; null before the first login. */
  mode(): Mode | null;
  /** A page's state changed in a way the shell shows elsewhere (badges, notices). */
  changed(): void;
  /**
   * A receipt printer as the agent last said (agent.status, printer.status) by its settings name
   * ("default"); undefined when not known (before the first status, or while disconnected).
   */
  printer(name: string): EventPayload<'printer.status'> | undefined;
}

/** ISO time of today's midnight on the store's clock: where "today's sales" begin. */
export function todayStartIso(now = new Date()): string {
  const zone = currentTimeZone();
  if (zone !== undefined) return startOfDayIn(now, zone).toISOString();
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return midnight.toISOString();
}

/** Today's date ("2026-03-10") on the store's clock: what the search's date fields start at. */
export function todayDate(now = new Date()): string {
  const zone = currentTimeZone() ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return dateIn(now, zone);
}

/**
 * ISO time of the midnight that begins `date` ("2026-03-10") on the store's clock, and of the one
 * that ends it (the next day's): a day searched is midnight to midnight where the store is.
 */
export function dayBoundsIso(date: string): { start: string; end: string } | null {
  const zone = currentTimeZone() ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const start = startOfDate(date, zone);
  if (start === null) return null;
  const next = new Date(
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + 1, 12),
  );
  return { start: start.toISOString(), end: startOfDayIn(next, zone).toISOString() };
}

/** A failed call in the cashier's language: the agent's pt-BR sentence, or its English message. */
export function errorText(error: unknown): string {
  const english = error instanceof Error ? error.message : String(error);
  if (currentLanguage() === 'en') return english;
  const cashier =
    typeof error === 'object' && error !== null && 'cashierMessage' in error ? error.cashierMessage : undefined;
  return typeof cashier === 'string' ? cashier : english;
}
