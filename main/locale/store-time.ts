/**
 * The store's clock: one time zone for everything a person reads — the window's times and
 * "today's sales", the receipts, `journal --today` — so a sale shows the same time on screen and
 * on paper. Brazil has four offsets (Noronha −2, Brasília −3, Amazonas −4, Acre −5), so a fixed
 * America/Sao_Paulo is an hour wrong in Manaus and two in Rio Branco.
 *
 * The settings' `receipts.time_zone` wins; else the computer's own zone when it is a Brazilian
 * one (the shop's PC is set to local time); else America/Sao_Paulo (a PC left on UTC or set
 * abroad is not where the store is).
 */

/** Brazil's IANA zones (tzdata's zone1970.tab, country BR). */
export const BRAZIL_TIME_ZONES: readonly string[] = [
  'America/Noronha',
  'America/Belem',
  'America/Fortaleza',
  'America/Recife',
  'America/Araguaina',
  'America/Maceio',
  'America/Bahia',
  'America/Sao_Paulo',
  'America/Campo_Grande',
  'America/Cuiaba',
  'America/Santarem',
  'America/Porto_Velho',
  'America/Boa_Vista',
  'America/Manaus',
  'America/Eirunepe',
  'America/Rio_Branco',
];

export const DEFAULT_STORE_TIME_ZONE = 'America/Sao_Paulo';

/**
 * The computer's IANA zone, as the runtime resolves it (TZ, or the system's). Asked only when a
 * zone is needed: the first Intl.DateTimeFormat brings in ICU's time zone and locale data, some
 * 8 MB of the agent's memory (issue 35), which an agent that has shown no time yet does without.
 */
export function machineTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The store's zone: `configured`, else `machine` (the computer's zone, read only when not configured). */
export function storeTimeZone(configured: string | undefined, machine?: string): string {
  if (configured !== undefined) return configured;
  const zone = machine ?? machineTimeZone();
  return BRAZIL_TIME_ZONES.includes(zone) ? zone : DEFAULT_STORE_TIME_ZONE;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant the day of `now` began on the clock of `timeZone`. Brazil has had no daylight
 * saving since 2019, but a zone's offset is still read at the candidate instant rather than
 * assumed, so a zone with a change that day is right too.
 */
export function startOfDay(now: Date, timeZone: string): Date {
  const wall = wallClock(now, timeZone);
  // Midnight of that calendar day read as if it were UTC, then moved by the zone's offset there.
  // The offset is read twice (near midnight, then at the first guess); where midnight does not
  // exist (a daylight-saving start at 00:00) one guess falls in the day before, and the day
  // began at the other: the earliest guess whose wall clock is on that day.
  const midnightAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day);
  const first = midnightAsUtc - offsetMs(new Date(midnightAsUtc), timeZone);
  const second = midnightAsUtc - offsetMs(new Date(first), timeZone);
  const onThatDay = [first, second].filter((guess) => {
    const at = wallClock(new Date(guess), timeZone);
    return at.year === wall.year && at.month === wall.month && at.day === wall.day;
  });
  return new Date(Math.min(...(onThatDay.length > 0 ? onThatDay : [second])));
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a clock on the wall of `timeZone` reads at `at` (throws a RangeError for an unknown zone). */
export function wallClock(at: Date, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** How far the zone's wall clock is ahead of UTC at `at` (negative in Brazil). */
function offsetMs(at: Date, timeZone: string): number {
  const wall = wallClock(at, timeZone);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return wallAsUtc - Math.floor(at.getTime() / 1000) * 1000;
}
