/**
 * The window reckons "today" on the store's clock with its own copy of the agent's reckoning
 * (its scripts cannot load the agent's modules): the two must agree, every zone of Brazil, every
 * hour of days with and without a change of offset.
 */
import { describe, expect, it } from 'vitest';
import { startOfDayIn } from '../../renderer/clock.js';
import { BRAZIL_TIME_ZONES, startOfDay } from '../../main/locale/store-time.js';

const DAYS = ['2026-11-26', '2026-01-01', '2018-11-04', '2019-02-16', '2019-02-17', '2024-02-29'];

describe("the window's start of today", () => {
  it("is the agent's, in every Brazilian zone at every hour of ordinary and daylight-saving days", () => {
    for (const zone of [...BRAZIL_TIME_ZONES, 'UTC', 'Asia/Kolkata']) {
      for (const day of DAYS) {
        for (let hour = 0; hour < 24; hour++) {
          const now = new Date(`${day}T${String(hour).padStart(2, '0')}:17:00Z`);
          expect(startOfDayIn(now, zone).toISOString(), `${zone} at ${now.toISOString()}`).toBe(startOfDay(now, zone).toISOString());
        }
      }
    }
  });

  it('is the midnight of the store, not of the browser: 05:00 UTC in Rio Branco', () => {
    expect(startOfDayIn(new Date('2026-11-26T18:00:00Z'), 'America/Rio_Branco').toISOString()).toBe('2026-11-26T05:00:00.000Z');
  });
});
