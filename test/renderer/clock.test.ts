/**
 * The window reckons "today" on the store's clock with its own copy of the agent's reckoning
 * (its scripts cannot load the agent's modules): the two must agree, every zone of Brazil, every
 * hour of days with and without a change of offset.
 */
import { describe, expect, it } from 'vitest';
import { dateIn, startOfDate, startOfDayIn } from '../../renderer/clock.js';
import { BRAZIL_TIME_ZONES, startOfDay, wallClock } from '../../main/locale/store-time.js';

const DAYS = ['2026-11-26', '2026-01-01', '2018-11-04', '2019-02-16', '2019-02-17', '2024-02-29'];

describe("the window's start of today", () => {
  it("is the agent's, in every Brazilian zone at every hour of ordinary and daylight-saving days", () => {
    for (const zone of [...BRAZIL_TIME_ZONES, 'UTC', 'Asia/Kolkata']) {
      for (const day of DAYS) {
        for (let hour = 0; hour < 24; hour++) {
          const now = new Date(`${day}T${String(hour).padStart(2, '0')}:17:00Z`);
          expect(startOfDayIn(now, zone).toISOString(), `${zone} at ${now.toISOString()}`).toBe(
            startOfDay(now, zone).toISOString(),
          );
        }
      }
    }
  });

  it('is the midnight of the store, not of the browser: 05:00 UTC in Rio Branco', () => {
    expect(startOfDayIn(new Date('2026-11-26T18:00:00Z'), 'America/Rio_Branco').toISOString()).toBe(
      '2026-11-26T05:00:00.000Z',
    );
  });
});

describe('a date the cashier searches', () => {
  it("is the calendar day on the store's clock: dateIn says which, startOfDate when it began", () => {
    // 02:00 UTC on the 27th is still the 26th in Rio Branco (UTC−5) and in São Paulo (UTC−3).
    expect(dateIn(new Date('2026-11-27T02:00:00Z'), 'America/Rio_Branco')).toBe('2026-11-26');
    expect(dateIn(new Date('2026-11-27T02:00:00Z'), 'America/Sao_Paulo')).toBe('2026-11-26');
    expect(dateIn(new Date('2026-11-27T02:00:00Z'), 'UTC')).toBe('2026-11-27');
    expect(startOfDate('2026-11-26', 'America/Rio_Branco')?.toISOString()).toBe('2026-11-26T05:00:00.000Z');
    expect(startOfDate('2026-11-26', 'America/Noronha')?.toISOString()).toBe('2026-11-26T02:00:00.000Z');
    expect(startOfDate('26/11/2026', 'America/Sao_Paulo')).toBeNull();
    expect(startOfDate('', 'America/Sao_Paulo')).toBeNull();
  });

  it("agrees with the agent's start of that day in every Brazilian zone, daylight-saving days included", () => {
    for (const zone of BRAZIL_TIME_ZONES) {
      for (const day of DAYS) {
        const start = startOfDate(day, zone)!;
        const wall = wallClock(start, zone);
        expect(
          `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`,
          `${zone} ${day}`,
        ).toBe(day);
        expect(start.toISOString(), `${zone} ${day}`).toBe(
          startOfDay(new Date(start.getTime() + 6 * 3_600_000), zone).toISOString(),
        );
        expect(dateIn(start, zone)).toBe(day);
      }
    }
  });
});
