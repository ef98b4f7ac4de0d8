/**
 * The search's dates as the cashier types them (renderer/date-field.ts): dd/mm/aaaa read back as
 * the ISO date the window works with, only when it is on the calendar, and the slashes typed for
 * the cashier as the digits come. (Read from the compiled window: `npm run build` first, which
 * `npm test` runs.)
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../main/version.js';

interface DateField {
  typedDate(iso: string): string;
  isoDate(typed: string): string | null;
  maskDate(typed: string): string;
}

const dates = (await import(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'renderer', 'date-field.js')).href)) as DateField;

describe('a date typed dd/mm/aaaa', () => {
  it.each([
    ['10/03/2026', '2026-03-10'],
    ['1/3/2026', '2026-03-01'],
    ['10032026', '2026-03-10'],
    [' 31/12/2026 ', '2026-12-31'],
    ['29/02/2028', '2028-02-29'],
  ])('%j is %s', (typed, iso) => {
    expect(dates.isoDate(typed)).toBe(iso);
  });

  it.each(['31/02/2026', '29/02/2026', '00/03/2026', '10/13/2026', '10/03/26', '2026-03-10', '03/10/1999', '', 'hoje'])(
    '%j is no date',
    (typed) => {
      expect(dates.isoDate(typed)).toBeNull();
    },
  );

  it('shows an ISO date the Brazilian way', () => {
    expect(dates.typedDate('2026-03-10')).toBe('10/03/2026');
  });
});

describe('the slashes typed for the cashier', () => {
  it.each([
    ['1', '1'],
    ['10', '10/'],
    ['10/', '10/'],
    ['10//', '10/'],
    ['1/', '01/'],
    ['100', '10/0'],
    ['1003', '10/03/'],
    ['10/3/', '10/03/'],
    ['10032026', '10/03/2026'],
    ['100320261', '10/03/2026'],
    ['10.03.2026', '10/03/2026'],
  ])('%j shows as %j', (typed, shown) => {
    expect(dates.maskDate(typed)).toBe(shown);
  });
});
