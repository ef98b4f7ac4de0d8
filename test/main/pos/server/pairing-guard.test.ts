/**
 * Pairing under a guessing attack (issue 18, item 4), over real WebSockets: many origins, many
 * connections, each request guessed at until it dies. Every wrong code reaches the cashier's
 * window with where it came from; after the day's budget pairing locks for everyone, with the
 * code checked no more; the cashier blocks the origin in one click and unlocks pairing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedCall, checkedFailure, posRig, type PosRig } from '../pos-rig.js';

let pos: PosRig;
beforeAll(async () => {
  pos = await posRig({ noPinpad: true, rateLimit: { capacity: 10_000, refillPerSecond: 10_000 } });
});
afterAll(async () => pos.close());

describe('guessing pairing codes', () => {
  it('is seen by the cashier guess by guess, and locks after the budget whatever the origin', async () => {
    const window = await pos.operator();
    const honest = await pos.connect({ origin: 'https://pdv.loja.example' });
    const { pairing_id: honestId } = await honest.call<{ pairing_id: string }>('session.pair', { name: 'Caixa 1' });
    const honestCode = pos.announced.find((a) => a.pairingId === honestId)!.code;

    let guesses = 0;
    let locked: Record<string, unknown> | undefined;
    for (let origin = 0; origin < 40 && locked === undefined; origin++) {
      const attacker = await pos.connect({ origin: `http://127.0.0.1:${20_000 + origin}` });
      for (let request = 0; request < 3 && locked === undefined; request++) {
        const started = await attacker.request('session.pair', { name: `Guess ${origin}-${request}` });
        if (started.error) {
          locked = { ...started.error.data, message: started.error.message };
          break;
        }
        const { pairing_id: pairingId } = started.result as { pairing_id: string };
        const real = pos.announced.find((a) => a.pairingId === pairingId)!.code;
        for (let attempt = 0; attempt < 5; attempt++) {
          const answer = await attacker.request('session.confirmPairing', {
            pairing_id: pairingId,
            code: real === '000000' ? '000001' : '000000',
          });
          const code = answer.error?.data.code;
          if (code === 'WRONG_CODE') guesses++;
          if (code === 'PAIRING_LOCKED') {
            locked = { ...answer.error!.data, message: answer.error!.message };
            break;
          }
          if (code !== 'WRONG_CODE') break;
        }
      }
    }
    // 50 wrong codes were checked, not one more.
    expect(guesses).toBe(50);
    expect(locked).toMatchObject({ code: 'PAIRING_LOCKED' });
    expect((locked as { retry_after_ms?: number }).retry_after_ms).toBeGreaterThan(23 * 60 * 60 * 1000);

    // The window heard every one, with its origin and the count.
    const failed = window.events('pairing.failed') as {
      origin: string | null;
      guard: { wrong_codes: number; locked: boolean };
    }[];
    expect(failed).toHaveLength(50);
    expect(failed.at(-1)!.guard).toMatchObject({ wrong_codes: 50, locked: true });
    expect(new Set(failed.map((event) => event.origin)).size).toBeGreaterThan(1);

    // Even the honest POS with the right code waits: nothing is checked while locked.
    expect(
      await checkedFailure(honest, 'session.confirmPairing', { pairing_id: honestId, code: honestCode }),
    ).toMatchObject({ code: 'PAIRING_LOCKED' });

    // The cashier blocks an origin that guessed, in one click, and unlocks pairing.
    const guard = await checkedCall(window, 'operator.pairingGuard', {});
    expect(guard.origins[0]!.origin).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await checkedCall(window, 'operator.blockOrigin', { origin: guard.origins[0]!.origin! });
    expect(await checkedCall(window, 'operator.unlockPairing', {})).toMatchObject({ wrong_codes: 0, locked: false });
    const paired = await checkedCall(honest, 'session.confirmPairing', { pairing_id: honestId, code: honestCode });
    expect(paired.name).toBe('Caixa 1');
  });
});

describe('connections that never log in', () => {
  it('are closed a fixed time after they connected, whatever they send — except one waiting for its pairing code, and those that logged in', async () => {
    const rig = await posRig({ noPinpad: true, unauthenticated: { max: 10, lifetimeMs: 300 } });
    try {
      const loggedIn = await rig.paired('Caixa 1');
      const pairing = await rig.connect();
      await pairing.call('session.pair', { name: 'Caixa 2' });
      const silent = await rig.connect();
      const chatty = await rig.connect();
      // agent.info every 50 ms does not keep a connection that never logs in.
      const ping = setInterval(() => void chatty.request('agent.info').catch(() => {}), 50);
      try {
        expect(await silent.closed).toEqual({ code: 4008, reason: 'IDLE' });
        expect(await chatty.closed).toEqual({ code: 4008, reason: 'IDLE' });
      } finally {
        clearInterval(ping);
      }
      // The one waiting for its code, and the logged-in one, are still there.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await pairing.call<{ authenticated: boolean }>('agent.info')).authenticated).toBe(false);
      expect((await loggedIn.call<{ authenticated: boolean }>('agent.info')).authenticated).toBe(true);
    } finally {
      await rig.close();
    }
  });

  it('make room for a newcomer rather than turn it away: the oldest goes, the one waiting for its code last', async () => {
    const rig = await posRig({ noPinpad: true, unauthenticated: { max: 3, lifetimeMs: 60_000 } });
    try {
      const paired = await rig.paired('Caixa 1');
      const token = paired.token!;
      await paired.close();
      const pairing = await rig.connect();
      await pairing.call('session.pair', { name: 'Caixa 2' });
      const older = await rig.connect();
      const newer = await rig.connect();
      // Three open without a login: the fourth — a paired POS coming back — gets in, and the oldest
      // without a pairing request goes (all four are this test's process: one program).
      const back = await rig.connect();
      expect((await back.call<{ name: string }>('session.hello', { token })).name).toBe('Caixa 1');
      expect(await older.closed).toEqual({ code: 4009, reason: 'TOO_MANY_CONNECTIONS' });
      expect((await newer.call<{ authenticated: boolean }>('agent.info')).authenticated).toBe(false);
      expect((await pairing.call<{ authenticated: boolean }>('agent.info')).authenticated).toBe(false);
    } finally {
      await rig.close();
    }
  });
});
