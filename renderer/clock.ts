/**
 * The store's clock in the window: the agent names the store's time zone (session.operator's
 * `time_zone`, the one receipts print with), and "today's sales" begin at that zone's midnight,
 * not the browser's. The agent's own copy of this reckoning is main/locale/store-time.ts (the
 * window's scripts cannot load the agent's modules); a spec checks that the two agree.
 */

/** The instant the day of `now` began on the clock of `timeZone` (the first instant with that date). */
export function startOfDayIn(now: Date, timeZone: string): Date {
  const day = wallClock(now, timeZone);
  const midnightAsUtc = Date.UTC(day.year, day.month - 1, day.day);
  // The zone's offset read near midnight, then at that first guess: where midnight did not exist
  // (a daylight-saving start) one guess is in the day before and the day began at the other.
  const first = midnightAsUtc - offsetMs(new Date(midnightAsUtc), timeZone);
  const second = midnightAsUtc - offsetMs(new Date(first), timeZone);
  const onThatDay = [first, second].filter((guess) => {
    const at = wallClock(new Date(guess), timeZone);
    return at.year === day.year && at.month === day.month && at.day === day.day;
  });
  return new Date(Math.min(...(onThatDay.length > 0 ? onThatDay : [second])));
}

/** The calendar date ("2026-03-10") `now` falls on, on the clock of `timeZone`. */
export function dateIn(now: Date, timeZone: string): string {
  const day = wallClock(now, timeZone);
  return `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
}

/**
 * The instant the calendar day `date` ("2026-03-10") began on the clock of `timeZone`; null for
 * text that is not a date. Noon UTC of that date is on that same date in every zone from UTC−11
 * to UTC+11 (Brazil's are −2 to −5), so the day it falls on is `date` there.
 */
export function startOfDate(date: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) return null;
  const noon = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  if (Number.isNaN(noon.getTime())) return null;
  return startOfDayIn(noon, timeZone);
}

function wallClock(
  at: Date,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
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

function offsetMs(at: Date, timeZone: string): number {
  const wall = wallClock(at, timeZone);
  return (
    Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) -
    Math.floor(at.getTime() / 1000) * 1000
  );
}
