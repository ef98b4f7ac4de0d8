import { describe, expect, it, vi } from 'vitest';
import { BRAZIL_TIME_ZONES, isTimeZone, startOfDay, storeTimeZone } from '../../../main/locale/store-time.js';

describe("the store's clock", () => {
  it('is the configured zone when the settings name one', () => {
    expect(storeTimeZone('America/Manaus', 'Europe/Lisbon')).toBe('America/Manaus');
  });

  it("is configured without the computer's zone being read (that loads ICU's zone data, issue 35)", () => {
    const formats = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      expect(storeTimeZone('America/Manaus')).toBe('America/Manaus');
      expect(formats).not.toHaveBeenCalled();
      expect(BRAZIL_TIME_ZONES.concat('America/Sao_Paulo')).toContain(storeTimeZone(undefined));
      expect(formats).toHaveBeenCalled();
    } finally {
      formats.mockRestore();
    }
  });

  it("is the computer's zone when that is a Brazilian one (a PC in Manaus or Rio Branco keeps local time)", () => {
    expect(storeTimeZone(undefined, 'America/Manaus')).toBe('America/Manaus');
    expect(storeTimeZone(undefined, 'America/Rio_Branco')).toBe('America/Rio_Branco');
    expect(storeTimeZone(undefined, 'America/Noronha')).toBe('America/Noronha');
  });

  it('is Brasília time when the computer is on UTC or set abroad', () => {
    expect(storeTimeZone(undefined, 'UTC')).toBe('America/Sao_Paulo');
    expect(storeTimeZone(undefined, 'Etc/UTC')).toBe('America/Sao_Paulo');
    expect(storeTimeZone(undefined, 'America/New_York')).toBe('America/Sao_Paulo');
  });

  it('knows every Brazilian zone it lists, and tells a misspelt one', () => {
    for (const zone of BRAZIL_TIME_ZONES) expect(isTimeZone(zone)).toBe(true);
    expect(isTimeZone('America/Sao Paulo')).toBe(false);
  });

  describe('the start of the day', () => {
    it('is 03:00 UTC in Brasília, 04:00 in Manaus, 05:00 in Rio Branco and 02:00 in Noronha', () => {
      const now = new Date('2026-11-26T18:30:00Z');
      expect(startOfDay(now, 'America/Sao_Paulo').toISOString()).toBe('2026-11-26T03:00:00.000Z');
      expect(startOfDay(now, 'America/Manaus').toISOString()).toBe('2026-11-26T04:00:00.000Z');
      expect(startOfDay(now, 'America/Rio_Branco').toISOString()).toBe('2026-11-26T05:00:00.000Z');
      expect(startOfDay(now, 'America/Noronha').toISOString()).toBe('2026-11-26T02:00:00.000Z');
    });

    it("is still the day before in Acre at 04:30 UTC, when it is already the next day's 01:30 in Brasília", () => {
      const now = new Date('2026-11-27T04:30:00Z');
      expect(startOfDay(now, 'America/Sao_Paulo').toISOString()).toBe('2026-11-27T03:00:00.000Z');
      expect(startOfDay(now, 'America/Rio_Branco').toISOString()).toBe('2026-11-26T05:00:00.000Z');
    });

    it('follows a zone whose offset changed that day (daylight saving: São Paulo, 2018-11-04, midnight skipped to 01:00)', () => {
      // Brazil dropped daylight saving in 2019; before, clocks jumped from 00:00 to 01:00 at its start.
      const start = startOfDay(new Date('2018-11-04T15:00:00Z'), 'America/Sao_Paulo');
      expect(start.toISOString()).toBe('2018-11-04T03:00:00.000Z');
      // At its end clocks went back from 00:00 to 23:00 of the day before: the day began at the second midnight.
      expect(startOfDay(new Date('2019-02-17T15:00:00Z'), 'America/Sao_Paulo').toISOString()).toBe(
        '2019-02-17T03:00:00.000Z',
      );
      // And on an ordinary summer day the offset was −2.
      expect(startOfDay(new Date('2019-01-15T15:00:00Z'), 'America/Sao_Paulo').toISOString()).toBe(
        '2019-01-15T02:00:00.000Z',
      );
    });
  });
});
