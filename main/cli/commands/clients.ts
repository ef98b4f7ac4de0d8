/**
 * `pinbridge clients list|revoke|block|unblock|unblock-program|unlock`: the paired POS clients, for
 * a technician (or a store without the window). A program is blocked from the window (only the
 * running agent can tell which program is behind a request); it can be unblocked here too. They work on ~/.pinbridge/clients.db while the agent runs: the
 * agent checks a client's standing at every request, so a revocation cuts its sessions off at
 * their next message.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { ClientStore, ClientStoreError, normalizeOrigin } from '../../pos/clients/client-store.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { emit } from '../output.js';
import { clientsPath } from '../../paths.js';

interface ClientsOptions {
  file?: string;
  json?: boolean;
}

function withStore<T>(io: CliIo, options: ClientsOptions, use: (store: ClientStore) => T): T {
  const store = ClientStore.open(options.file ?? clientsPath(io.env.HOME));
  try {
    return use(store);
  } catch (error) {
    if (error instanceof ClientStoreError && (error.code === 'NOT_FOUND' || error.code === 'INVALID_INPUT'))
      throw new UsageError(error.message);
    throw error;
  } finally {
    store.close();
  }
}

function originArgument(text: string): string {
  const origin = normalizeOrigin(text);
  if (origin === undefined)
    throw new UsageError(`"${text}" is not an origin (scheme://host[:port], e.g. https://pos.example.com)`);
  return origin;
}

export function registerClientsCommand(program: Command, io: CliIo): void {
  const clients = program.command('clients').description(COMMAND_LINES.clients.description);
  const common = (command: Command): Command =>
    command
      .option('--file <path>', 'the clients file (default ~/.pinbridge/clients.db)')
      .option('--json', 'one JSON line instead of text');

  common(
    clients
      .command('list')
      .description('Paired clients (active and revoked), pending pairing requests and blocked origins.'),
  ).action((options: ClientsOptions) => {
    // Listing reads: with no file yet (no agent has run) there is nothing to list, and no file to make.
    const file = options.file ?? clientsPath(io.env.HOME);
    if (!existsSync(file)) {
      emit(
        io,
        options.json,
        { clients: [], pending: [], blocked: [], blockedPrograms: [] },
        'No POS client has paired yet.',
      );
      return;
    }
    withStore(io, options, (store) => {
      const guard = store.pairingGuard();
      const data = {
        clients: store.list(),
        pending: store.pendingPairings(),
        blocked: store.blockedOrigins(),
        blockedPrograms: store.blockedPrograms(),
        pairingGuard: guard,
      };
      const lines = [
        ...(guard.wrongCodes === 0
          ? []
          : [
              `${guard.locked ? 'PAIRING LOCKED' : 'warning'}  ${guard.wrongCodes} wrong pairing codes in 24 h (locks at ${guard.budget})${guard.locked ? `; unlocks at ${guard.unlocksAt ?? '?'} or with \`pinbridge clients unlock\`` : ''}`,
              ...guard.origins.map((entry) => `wrong codes  ${entry.wrongCodes}  from ${entry.origin ?? '(program)'}`),
            ]),
        ...data.clients.map(
          (c) =>
            `${c.id}  ${c.revokedAt === null ? 'active ' : 'revoked'}  ${c.name}  ${c.origin ?? '(program)'}  last seen ${c.lastSeenAt ?? 'never'}`,
        ),
        ...data.pending.map(
          (p) =>
            `${p.id}  pending  ${p.name}  ${p.origin ?? '(program)'}${p.program === null ? '' : `  ${p.program.name} PID ${p.program.pid}`}  expires ${p.expiresAt}`,
        ),
        ...data.blocked.map((b) => `blocked  ${b.origin}  since ${b.blockedAt}`),
        ...data.blockedPrograms.map((b) => `${b.id}  blocked program  ${b.program}  since ${b.blockedAt}`),
      ];
      emit(io, options.json, data, lines.length > 0 ? lines.join('\n') : 'No POS client has paired yet.');
    });
  });

  common(
    clients
      .command('revoke')
      .argument('<client-id>', 'the id from `pinbridge clients list`')
      .description('Revoke a client: its token stops working at once.'),
  ).action((clientId: string, options: ClientsOptions) =>
    withStore(io, options, (store) => {
      const client = store.revoke(clientId);
      emit(io, options.json, { client }, `Revoked ${client.name} (${client.id}).`);
    }),
  );

  common(
    clients
      .command('block')
      .argument('<origin>', 'a web origin, e.g. https://pos.example.com')
      .description('Refuse every connection and pairing request from a web origin.'),
  ).action((origin: string, options: ClientsOptions) =>
    withStore(io, options, (store) => {
      const normalized = originArgument(origin);
      store.blockOrigin(normalized);
      emit(
        io,
        options.json,
        { blocked: normalized },
        `Blocked ${normalized}. Its paired clients keep their tokens until revoked, but cannot connect.`,
      );
    }),
  );

  common(
    clients
      .command('unlock')
      .description(
        'Unlock pairing after too many wrong codes (block the origins that guessed first: `pinbridge clients list` names them).',
      ),
  ).action((options: ClientsOptions) =>
    withStore(io, options, (store) => {
      const before = store.pairingGuard();
      const guard = store.unlockPairing();
      emit(io, options.json, { pairingGuard: guard }, `Pairing unlocked (${before.wrongCodes} wrong codes forgotten).`);
    }),
  );

  common(
    clients
      .command('unblock-program')
      .argument('<program-id>', 'the prg_… id from `pinbridge clients list`')
      .description('Allow a program blocked in the window to connect again.'),
  ).action((programId: string, options: ClientsOptions) =>
    withStore(io, options, (store) => {
      const unblocked = store.unblockProgram(programId);
      emit(io, options.json, { unblockedProgram: unblocked }, `Unblocked the program ${unblocked.program}.`);
    }),
  );

  common(
    clients
      .command('unblock')
      .argument('<origin>', 'a blocked web origin')
      .description('Allow a blocked web origin again.'),
  ).action((origin: string, options: ClientsOptions) =>
    withStore(io, options, (store) => {
      const normalized = originArgument(origin);
      store.unblockOrigin(normalized);
      emit(io, options.json, { unblocked: normalized }, `Unblocked ${normalized}.`);
    }),
  );
}
