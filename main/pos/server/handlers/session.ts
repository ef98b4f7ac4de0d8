/**
 * Finding the agent, pairing and logging in: agent.info, session.pair, session.confirmPairing,
 * session.hello — the only methods a session may call before it is authenticated.
 */
import { ClientStoreError } from '../../clients/client-store.js';
import { normalizePairingCode } from '../../clients/pairing-code.js';
import { EVENT_NAMES, METHOD_NAMES, PosError, PROTOCOL_VERSION } from '../../protocol/index.js';
import type { Handlers } from '../dispatch.js';
import { peerGroup } from '../session.js';
import { outcomeView } from '../views.js';

/** Shown by the POS next to its code input (pt-BR: it is for the cashier). */
const PAIRING_MESSAGE = 'Digite aqui o código de 6 dígitos mostrado na janela do Pinbridge.';
const BAD_CODE = 'params.code must be the 6 digits of the pairing code (spaces and hyphens between them are allowed)';

export const sessionHandlers: Handlers<'agent.info' | 'session.pair' | 'session.confirmPairing' | 'session.hello'> = {
  'agent.info': (_params, { agent, session }) => ({
    name: 'Pinbridge',
    version: agent.version,
    protocol: PROTOCOL_VERSION,
    mode: agent.mode,
    authenticated: session.authenticated,
    methods: METHOD_NAMES,
    events: EVENT_NAMES,
  }),

  'session.pair': async ({ name }, { agent, session, hub, announcePairing, log, refused }) => {
    // Who asks: one request per connection and per program (a newer one withdraws the older),
    // so no program can take every place (client-store.ts requestPairing).
    const peer = await session.lookUpPeer();
    let requested: ReturnType<typeof agent.clients.requestPairing>;
    try {
      requested = agent.clients.requestPairing({
        name,
        origin: session.origin,
        from: { connection: session.id, peer: { ...peerGroup(peer), process: peer.process } },
      });
    } catch (error) {
      // Blocked while this connection was open (its closing is on its way): closed now.
      if (error instanceof ClientStoreError && error.code === 'PROGRAM_BLOCKED') {
        refused('PROGRAM_BLOCKED', session);
        session.close('PROGRAM_BLOCKED');
        throw new PosError('INVALID_STATE', 'This program is blocked in Pinbridge.', { reason: 'PROGRAM_BLOCKED' });
      }
      throw error;
    }
    const { pairing, code, withdrawn } = requested;
    hub.pairingsWithdrawn(withdrawn);
    const program = pairing.program;
    if (withdrawn.length > 0) {
      // Asking again is routine for a POS but endless for a squatter: counted, not logged one by one.
      for (let n = 0; n < withdrawn.length; n++) refused('PAIRING_REPLACED', session);
    } else {
      log.info(
        {
          pairing: pairing.id,
          name: pairing.name,
          origin: pairing.origin,
          program: program?.name,
          pid: program?.pid,
          expiresAt: pairing.expiresAt,
        },
        'POS asks to pair',
      );
      hub.audit({
        kind: 'pairing.requested',
        pairing: pairing.id,
        name: pairing.name,
        origin: pairing.origin,
        program: program?.name ?? null,
        pid: program?.pid ?? null,
      });
    }
    // The POS waits for the cashier to read the code out: its connection stays until the request ends.
    announcePairing(
      {
        pairingId: pairing.id,
        name: pairing.name,
        origin: pairing.origin,
        code,
        expiresAt: pairing.expiresAt,
        program,
      },
      session,
    );
    return {
      pairing_id: pairing.id,
      expires_at: pairing.expiresAt,
      code_length: code.length,
      message: PAIRING_MESSAGE,
    };
  },

  'session.confirmPairing': ({ pairing_id, code: typed }, { agent, session, hub, log }) => {
    // The code as the window shows it ("422 105") or as a person types it: read past separators
    // and full-width digits here, so every POS gets the same answer whatever its own input does.
    const code = normalizePairingCode(typed);
    if (code === undefined)
      throw new PosError('INVALID_PARAMS', BAD_CODE, { violations: [{ field: 'code', message: BAD_CODE }] });
    try {
      const { client, token } = agent.clients.completePairing({ pairingId: pairing_id, code, origin: session.origin });
      session.client = client;
      hub.pairingEnded(pairing_id, 'completed', client);
      log.info({ client: client.id, name: client.name, origin: client.origin }, 'POS paired');
      hub.audit({
        kind: 'pairing.approved',
        pairing: pairing_id,
        client: client.id,
        name: client.name,
        origin: client.origin,
      });
      return { client_id: client.id, name: client.name, token };
    } catch (error) {
      if (error instanceof ClientStoreError && (error.code === 'WRONG_CODE' || error.code === 'ORIGIN_MISMATCH')) {
        // Every wrong guess is seen: in the log, and by the cashier, who can block where it came from.
        const guard = agent.clients.pairingGuard();
        log.warn(
          {
            pairing: pairing_id,
            origin: session.origin,
            reason: error.code,
            attemptsLeft: error.attemptsLeft,
            wrongCodes: guard.wrongCodes,
            budget: guard.budget,
          },
          guard.locked ? 'wrong pairing code; pairing is now locked' : 'wrong pairing code',
        );
        hub.pairingFailed(pairing_id, session.origin, error.attemptsLeft ?? 0, guard);
        hub.audit({
          kind: 'pairing.wrong_code',
          pairing: pairing_id,
          origin: session.origin,
          reason: error.code,
          attempts_left: error.attemptsLeft ?? 0,
          wrong_codes: guard.wrongCodes,
          locked: guard.locked,
        });
      }
      // Completing from another origin than the one that asked is a failed attempt at this
      // pairing, not a bad token.
      if (error instanceof ClientStoreError && error.code === 'ORIGIN_MISMATCH') {
        throw new PosError('PAIRING_INVALID', 'This pairing was requested from another origin.', {
          reason: 'ORIGIN_MISMATCH',
          ...(error.attemptsLeft === undefined ? {} : { attempts_left: error.attemptsLeft }),
        });
      }
      throw error;
    }
  },

  'session.hello': ({ token }, { agent, session, hub }) => {
    const client = agent.clients.authenticate(token, session.origin);
    session.client = client;
    hub.clientsChanged();
    return { client_id: client.id, name: client.name, missed_results: hub.takeMissed(client.id).map(outcomeView) };
  },
};
