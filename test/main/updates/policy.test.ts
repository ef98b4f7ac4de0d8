/**
 * The decisions of a staged update (main/updates/policy.ts): which stores a staged release
 * reaches, and when a downloaded update may be installed — never during a sale.
 */
import { describe, expect, it } from 'vitest';
import {
  clockText,
  decideInstall,
  feedUrl,
  insideWindow,
  parseInstallWindow,
  rolloutPosition,
  shouldDownload,
  stagingId,
  withinRollout,
} from '../../../main/updates/policy.js';

const NO_SALE = { busyPinpads: [], awaitingConfirmation: 0 };

describe('the rollout bucket of a checkout', () => {
  it('is its store: every checkout of a store gets the same staging id, another store another', () => {
    const a1 = stagingId({ chain: 'acme', store: 'loja-042', checkout: 'pdv-01' });
    const a2 = stagingId({ chain: 'acme', store: 'loja-042', checkout: 'pdv-07' });
    const b = stagingId({ chain: 'acme', store: 'loja-043', checkout: 'pdv-01' });
    expect(a1).toEqual({ id: a2!.id, by: 'store', name: 'acme/loja-042' });
    expect(b!.id).not.toBe(a1!.id);
    // An RFC 4122 version-5 UUID, the shape electron-updater keeps in .updaterId.
    expect(a1!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The same on every start and every computer.
    expect(stagingId({ chain: 'acme', store: 'loja-042' })!.id).toBe(a1!.id);
  });

  it('is each checkout when staged by checkout, and unknown without the fleet ids (electron-updater then keeps its own random id)', () => {
    const one = stagingId({ chain: 'acme', store: 'loja-042', checkout: 'pdv-01' }, 'checkout');
    const two = stagingId({ chain: 'acme', store: 'loja-042', checkout: 'pdv-02' }, 'checkout');
    expect(one!.name).toBe('acme/loja-042/pdv-01');
    expect(one!.id).not.toBe(two!.id);
    expect(stagingId({ chain: 'acme' })).toBeUndefined();
    expect(stagingId({ chain: 'acme', store: 'loja-042' }, 'checkout')).toBeUndefined();
    expect(stagingId({ chain: '', store: 'x' })).toBeUndefined();
  });

  it("falls in [0, 1) by the id's last four bytes, as electron-updater reads .updaterId", () => {
    expect(rolloutPosition('00000000-0000-5000-8000-000000000000')).toBe(0);
    expect(rolloutPosition('00000000-0000-5000-8000-0000ffffffff')).toBe(1);
    expect(rolloutPosition('00000000-0000-5000-8000-00007fffffff')).toBeCloseTo(0.5, 6);
    expect(() => rolloutPosition('not-a-uuid')).toThrow(RangeError);
  });
});

describe('a staged release', () => {
  const low = '00000000-0000-5000-8000-000019999999'; // 0.1
  const high = '00000000-0000-5000-8000-0000e6666666'; // 0.9

  it('reaches the stores whose position is below the percentage, and no other', () => {
    expect(withinRollout(20, low)).toBe(true);
    expect(withinRollout(20, high)).toBe(false);
    expect(withinRollout(95, high)).toBe(true);
  });

  it('reaches no one at 0 and everyone at 100, and everyone without a percentage (or with one that is not a number)', () => {
    expect(withinRollout(0, low)).toBe(false);
    expect(withinRollout(100, high)).toBe(true);
    expect(withinRollout(undefined, high)).toBe(true);
    expect(withinRollout(null, high)).toBe(true);
    expect(withinRollout('soon', high)).toBe(true);
    // electron-updater parses the yml's value with parseInt: "30" and 30.9 read as 30.
    expect(withinRollout('30', low)).toBe(true);
    const atTenAndAHalf = '00000000-0000-5000-8000-00001ae147ae';
    expect(withinRollout(10.9, atTenAndAHalf)).toBe(false);
    expect(withinRollout(11, atTenAndAHalf)).toBe(true);
  });

  it('only ever adds stores as the percentage rises', () => {
    const stores = Array.from({ length: 200 }, (_, n) => stagingId({ chain: 'acme', store: `loja-${n}` })!.id);
    let reached = new Set<string>();
    for (const percentage of [0, 5, 10, 25, 50, 75, 100]) {
      const now = new Set(stores.filter((id) => withinRollout(percentage, id)));
      for (const id of reached) expect(now.has(id)).toBe(true);
      reached = now;
    }
    expect(reached.size).toBe(200);
    // A hash spreads stores evenly: about a quarter at 25 %.
    const quarter = stores.filter((id) => withinRollout(25, id)).length;
    expect(quarter).toBeGreaterThan(30);
    expect(quarter).toBeLessThan(70);
  });
});

describe('the maintenance window', () => {
  it('is HH:MM-HH:MM on a 24-hour clock, start included and end not', () => {
    const window = parseInstallWindow('02:00-05:00')!;
    expect(window).toEqual({ start: 120, end: 300, text: '02:00-05:00' });
    expect(insideWindow(window, 119)).toBe(false);
    expect(insideWindow(window, 120)).toBe(true);
    expect(insideWindow(window, 299)).toBe(true);
    expect(insideWindow(window, 300)).toBe(false);
    expect(clockText(window.start)).toBe('02:00');
  });

  it('may cross midnight', () => {
    const window = parseInstallWindow('22:30-01:15')!;
    expect(insideWindow(window, 22 * 60 + 29)).toBe(false);
    expect(insideWindow(window, 23 * 60)).toBe(true);
    expect(insideWindow(window, 0)).toBe(true);
    expect(insideWindow(window, 75)).toBe(false);
  });

  it('refuses what is not one, and an empty one', () => {
    for (const text of ['2:00-5:00', '24:00-05:00', '02:00', '02:00-02:00', '02:00 - 05:00'])
      expect(parseInstallWindow(text)).toBeUndefined();
  });
});

describe('installing a downloaded update while Pinbridge runs', () => {
  const window = parseInstallWindow('02:00-05:00');
  const at3 = 180;

  it('happens inside the window when no sale is in progress', () => {
    expect(decideInstall({ pending: '1.4.0', window, minute: at3, activity: NO_SALE })).toEqual({ install: true });
  });

  it('waits while a PINPAD runs a payment or an approval waits for the POS, even inside the window', () => {
    expect(
      decideInstall({
        pending: '1.4.0',
        window,
        minute: at3,
        activity: { busyPinpads: ['8000151'], awaitingConfirmation: 0 },
      }),
    ).toEqual({ install: false, reason: 'SALE_IN_PROGRESS' });
    expect(
      decideInstall({ pending: '1.4.0', window, minute: at3, activity: { busyPinpads: [], awaitingConfirmation: 1 } }),
    ).toEqual({ install: false, reason: 'SALE_IN_PROGRESS' });
  });

  it('waits outside the window, never happens without one (only at quit), and needs something downloaded', () => {
    expect(decideInstall({ pending: '1.4.0', window, minute: 600, activity: NO_SALE })).toEqual({
      install: false,
      reason: 'OUTSIDE_WINDOW',
    });
    expect(decideInstall({ pending: '1.4.0', window: undefined, minute: at3, activity: NO_SALE })).toEqual({
      install: false,
      reason: 'NO_WINDOW',
    });
    // A version whose install in the window failed once waits for a quit: no restart loop.
    expect(decideInstall({ pending: '1.4.0', window, minute: at3, activity: NO_SALE, failed: '1.4.0' })).toEqual({
      install: false,
      reason: 'FAILED_BEFORE',
    });
    expect(decideInstall({ pending: '1.4.1', window, minute: at3, activity: NO_SALE, failed: '1.4.0' })).toEqual({
      install: true,
    });
    expect(decideInstall({ pending: undefined, window, minute: at3, activity: NO_SALE })).toEqual({
      install: false,
      reason: 'NOTHING_PENDING',
    });
  });
});

describe('downloading an available update', () => {
  it('starts when no sale is in progress, once', () => {
    const facts = { available: '1.4.0', downloading: false, downloaded: undefined, activity: NO_SALE };
    expect(shouldDownload(facts)).toBe(true);
    expect(shouldDownload({ ...facts, activity: { busyPinpads: ['8000151'], awaitingConfirmation: 0 } })).toBe(false);
    expect(shouldDownload({ ...facts, downloading: true })).toBe(false);
    expect(shouldDownload({ ...facts, downloaded: '1.4.0' })).toBe(false);
    expect(shouldDownload({ ...facts, available: undefined })).toBe(false);
  });
});

describe('the feed of a store', () => {
  it('replaces {chain}, {store} and {checkout} with the fleet ids, URL-encoded', () => {
    expect(feedUrl('https://updates.acme.example/{chain}/{store}/', { chain: 'acme', store: 'loja:42' })).toEqual({
      url: 'https://updates.acme.example/acme/loja%3A42/',
    });
    expect(feedUrl('https://updates.acme.example/pinbridge/', {})).toEqual({
      url: 'https://updates.acme.example/pinbridge/',
    });
  });

  it('names the ids it lacks', () => {
    expect(feedUrl('https://u.example/{store}/{checkout}/', { store: 'x' })).toEqual({ missing: ['checkout'] });
  });
});
