/**
 * Pinbridge's own window: it logs in with the agent's operator key (never a POS token), then
 * reads the pairing codes it shows the cashier, refuses a request, and manages the paired
 * clients. Everything else the window does (status, payments, receipts) it does with the same
 * methods as a POS, seeing every payment.
 */
import { timingSafeEqual } from 'node:crypto';
import { normalizeOrigin } from '../../clients/client-store.js';
import { PosError } from '../../protocol/index.js';
import type { OperatorServices } from '../agent.js';
import type { CallContext, Handlers } from '../dispatch.js';
import type { SupervisorGuard, SupervisorLock } from '../supervisor.js';
import {
  blockedProgramView,
  clientRecordView,
  pairingGuardView,
  pairingRequestView,
  printJobView,
  updateView,
} from '../views.js';
import { wireSettingsViolationCode } from '../wire-adapter.js';
import { storeTimeZone } from '../../../locale/store-time.js';

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function originArgument(origin: string): string {
  const normalized = normalizeOrigin(origin);
  if (normalized === undefined) {
    throw new PosError('INVALID_PARAMS', `"${origin.slice(0, 100)}" is not a web origin (scheme://host[:port]).`, {
      violations: [{ field: 'origin', message: 'Must be scheme://host[:port]' }],
    });
  }
  return normalized;
}

function services(context: CallContext): OperatorServices {
  const found = context.agent.operator;
  if (found === undefined)
    throw new PosError('INVALID_STATE', 'This agent has no settings or diagnostics to manage.', {
      reason: 'NO_OPERATOR_SERVICES',
    });
  return found;
}

/** When wrong PINs' lock ends (ISO), or null (none, or a tampered file's lock, said by `tampered`). */
const lockedUntil = (lock: SupervisorLock | null): string | null => (lock?.reason === 'WRONG_PINS' ? lock.until : null);

function supervisorOf(context: CallContext): SupervisorGuard {
  const found = context.agent.supervisor;
  if (found === undefined)
    throw new PosError('INVALID_STATE', 'This agent has no supervisor PIN to manage.', { reason: 'NO_SUPERVISOR' });
  return found;
}

/** A secret the agent takes from an environment variable, which the window cannot change. */
function fromEnvironment(secret: 'token' | 'passphrase', variable: string): PosError {
  const english = secret === 'token' ? 'payments API token' : 'client certificate passphrase';
  const portuguese = secret === 'token' ? 'O token do serviço de pagamentos' : 'A senha do certificado digital';
  return new PosError(
    'INVALID_STATE',
    `The ${english} is set by the environment variable ${variable}, which wins over the window: change it there and restart Pinbridge.`,
    { reason: 'SET_BY_ENVIRONMENT' },
    `${portuguese} é definid${secret === 'token' ? 'o' : 'a'} pela variável de ambiente ${variable} e não pode ser trocad${secret === 'token' ? 'o' : 'a'} pela janela: mude a variável e reinicie o Pinbridge.`,
  );
}

export const operatorHandlers: Handlers<
  | 'session.operator'
  | 'operator.pairings'
  | 'operator.rejectPairing'
  | 'operator.pairingGuard'
  | 'operator.unlockPairing'
  | 'operator.clients'
  | 'operator.revokeClient'
  | 'operator.blockOrigin'
  | 'operator.unblockOrigin'
  | 'operator.blockProgram'
  | 'operator.unblockProgram'
  | 'operator.settings'
  | 'operator.saveSettings'
  | 'operator.restart'
  | 'operator.updates'
  | 'operator.setApiToken'
  | 'operator.setCertificatePassphrase'
  | 'operator.setSupervisorPin'
  | 'operator.supervisor'
  | 'operator.doctor'
  | 'operator.detectPinpads'
  | 'operator.exportLogs'
  | 'operator.supportBundle'
  | 'operator.sendSupportBundle'
  | 'operator.testPrint'
  | 'operator.scanBle'
  | 'operator.systemPrinters'
> = {
  'session.operator': ({ key }, { agent, session, hub, operatorKey, ownOrigins, refused }) => {
    // A web page other than the agent's own never becomes the window, whatever key it found.
    const fromOwnPage = session.origin === null || ownOrigins.has(session.origin);
    if (operatorKey === undefined || !fromOwnPage || !sameKey(key, operatorKey)) {
      // Counted for the log's summary: a flood of wrong keys must not flush the log.
      refused('OPERATOR_REFUSED', session);
      throw new PosError(
        'OPERATOR_ONLY',
        'This key does not open the Pinbridge window (or the page is not served by Pinbridge).',
      );
    }
    session.operator = true;
    hub.clientsChanged();
    return {
      name: 'Pinbridge',
      version: agent.version,
      mode: agent.mode,
      time_zone: agent.timeZone ?? storeTimeZone(undefined),
      installments: {
        max: agent.engine.config.installments.max,
        min_installment_amount: agent.engine.config.installments.minInstallmentAmount,
      },
    };
  },

  'operator.pairings': (_params, { hub }) => ({ pairings: hub.pendingPairings().map(pairingRequestView) }),

  // An unknown or completed request is PAIRING_INVALID (with the store's reason).
  'operator.rejectPairing': ({ pairing_id }, { agent, hub, log }) => {
    agent.clients.rejectPairing(pairing_id);
    log.info({ pairing: pairing_id }, 'pairing rejected by the cashier');
    hub.pairingEnded(pairing_id, 'rejected', null);
    hub.audit({ kind: 'pairing.rejected', pairing: pairing_id, by: 'cashier' });
    return {};
  },

  'operator.pairingGuard': (_params, { agent }) => pairingGuardView(agent.clients.pairingGuard()),

  'operator.unlockPairing': (_params, { agent, hub, log }) => {
    const before = agent.clients.pairingGuard();
    const after = agent.clients.unlockPairing();
    log.warn({ wrongCodes: before.wrongCodes, origins: before.origins }, 'pairing unlocked by the cashier');
    hub.audit({ kind: 'pairing.unlocked', wrong_codes: before.wrongCodes });
    return pairingGuardView(after);
  },

  'operator.clients': (_params, { agent, hub }) => ({
    clients: hub.clientsView().clients,
    blocked_origins: agent.clients
      .blockedOrigins()
      .map((blocked) => ({ origin: blocked.origin, blocked_at: blocked.blockedAt })),
    blocked_programs: agent.clients.blockedPrograms().map(blockedProgramView),
  }),

  'operator.revokeClient': (params, context) => {
    const { agent, hub, log } = context;
    const revoked = agent.clients.revoke(params.client_id);
    log.info({ client: revoked.id, name: revoked.name }, 'POS client revoked from the window');
    hub.audit({ kind: 'client.revoked', client: revoked.id, name: revoked.name, origin: revoked.origin });
    hub.revoked(revoked.id);
    hub.clientsChanged();
    return clientRecordView(revoked, hub.openSessions(revoked.id));
  },

  'operator.blockOrigin': ({ origin }, { agent, hub, log }) => {
    const normalized = originArgument(origin);
    agent.clients.blockOrigin(normalized);
    log.info({ origin: normalized }, 'origin blocked from the window');
    hub.audit({ kind: 'client.blocked', origin: normalized });
    hub.blockedOrigin(normalized);
    hub.clientsChanged();
    return { origin: normalized };
  },

  'operator.settings': (_params, context) => {
    const operator = services(context);
    const { path, json, problem, notApplied, remote } = operator.readSettings();
    const settings =
      typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
    return {
      path,
      settings,
      problem:
        problem === null
          ? null
          : {
              message: problem.message,
              violations: problem.violations.map(({ field, code, message, cashier_message }) => ({
                field,
                code: wireSettingsViolationCode(code),
                message,
                cashier_message,
              })),
            },
      api_token: operator.apiToken(),
      certificate_passphrase: operator.certificatePassphrase(),
      supervisor_pin: {
        stored: context.agent.supervisor?.isStored() ?? false,
        tampered: context.agent.supervisor?.tampered() ?? false,
      },
      not_applied: notApplied,
      remote,
    };
  },

  'operator.saveSettings': ({ settings }, context) => {
    const saved = services(context).saveSettings(settings);
    if (!saved.saved) {
      throw new PosError(
        'INVALID_PARAMS',
        `The settings have ${saved.violations.length} mistake(s): ${saved.violations.map((v) => `${v.field}: ${v.message}`).join('; ')}`,
        {
          violations: saved.violations.map((v) => ({
            field: `settings.${v.field}`,
            code: wireSettingsViolationCode(v.code),
            message: v.message,
            cashier_message: v.cashier_message,
          })),
        },
      );
    }
    context.log.info({}, 'settings saved from the window');
    return { saved: true as const, restart_required: true as const };
  },

  'operator.restart': (_params, context) => {
    const restart = services(context).restart;
    if (restart === undefined) {
      throw new PosError('INVALID_STATE', 'This agent cannot restart itself: stop it and start it again.', {
        reason: 'NO_RESTART',
      });
    }
    // A restart in the middle of a sale would leave the customer at the PINPAD mid-way: refused.
    const busy = context.agent.pinpads.list().filter((pinpad) => pinpad.busy);
    if (busy.length > 0) {
      const terminals = busy.map((pinpad) => pinpad.serialNumber).join(', ');
      throw new PosError(
        'BUSY',
        `The PINPAD ${terminals} is running a payment or waiting for the customer: restart once it ends.`,
        { reason: 'PAYMENT_IN_PROGRESS' },
      );
    }
    context.log.info({}, 'restart asked from the window');
    restart();
    return { restarting: true as const };
  },

  'operator.updates': (_params, { agent }) => updateView(agent.updates?.state),

  'operator.setApiToken': ({ token }, context) => {
    const kept = services(context).setApiToken(token);
    if (!kept.stored) throw fromEnvironment('token', kept.fromEnvironment);
    context.log.info({}, 'payments API token stored from the window');
    return { stored: true as const };
  },

  'operator.setCertificatePassphrase': ({ passphrase }, context) => {
    const kept = services(context).setCertificatePassphrase(passphrase);
    if (!kept.stored) throw fromEnvironment('passphrase', kept.fromEnvironment);
    context.log.info({}, 'client certificate passphrase stored from the window');
    return { stored: true as const };
  },

  'operator.setSupervisorPin': ({ pin }, context) => {
    supervisorOf(context).set(pin);
    // Never the PIN, nor its length.
    context.log.info({}, 'supervisor PIN stored from the window');
    return { stored: true as const };
  },

  'operator.supervisor': (_params, context) => {
    const guard = supervisorOf(context);
    const { policy } = guard;
    return {
      required_for: policy.requiredFor,
      min_amount_centavos: policy.minAmountCentavos,
      entry: policy.entry,
      pos_voids: policy.posVoids,
      pin_set: guard.isStored(),
      training_pin: context.agent.mode === 'training',
      locked_until: lockedUntil(guard.lock('window')),
      pos_locked_until: lockedUntil(guard.lock('pos')),
      tampered: guard.tampered(),
    };
  },

  'operator.doctor': async (_params, context) => {
    const report = await services(context).doctor();
    return { ok: report.ok, checks: [...report.checks] };
  },

  'operator.exportLogs': ({ max_lines }, context) => {
    const exported = services(context).exportLogs(max_lines ?? 2_000);
    context.log.info({ lines: exported.lines, masked: exported.masked }, 'logs exported from the window');
    return exported;
  },

  'operator.supportBundle': async (_params, context) => {
    const { archive, ...made } = await services(context).supportBundle();
    return { ...made, files: [...made.files], archive_base64: archive.toString('base64') };
  },

  // The window asks only after the cashier's yes (its dialog says what goes and where).
  'operator.sendSupportBundle': async ({ bundle_id }, context) => services(context).sendSupportBundle(bundle_id),

  'operator.testPrint': ({ printer }, { agent }) => {
    const receipts = agent.receipts;
    if (receipts === undefined)
      throw new PosError('PRINTING_OFF', 'Receipts are off: the store (receipts.merchant) is not in the settings.');
    if (printer !== undefined && !agent.printers.has(printer))
      throw new PosError('NOT_FOUND', `There is no printer "${printer}" in the settings.`);
    return printJobView(receipts.printTestPage(printer === undefined ? {} : { printer }));
  },

  // No Bluetooth on this machine is PINPAD_ERROR with reason BLE_UNAVAILABLE (a driver error).
  'operator.scanBle': async ({ seconds }, context) => ({
    devices: [...(await services(context).scanBle(seconds ?? 5))],
  }),

  'operator.systemPrinters': async (_params, context) => ({
    printers: [...(await services(context).systemPrinters())],
  }),

  'operator.detectPinpads': async (_params, context) => ({ ports: [...(await services(context).detectPinpads())] }),

  'operator.unblockOrigin': ({ origin }, { agent, hub, log }) => {
    const normalized = originArgument(origin);
    agent.clients.unblockOrigin(normalized);
    log.info({ origin: normalized }, 'origin unblocked from the window');
    hub.audit({ kind: 'client.unblocked', origin: normalized });
    hub.clientsChanged();
    return { origin: normalized };
  },

  'operator.blockProgram': async ({ pairing_id }, { agent, hub, log }) => {
    const pairing = agent.clients.pairing(pairing_id);
    if (pairing === undefined) throw new PosError('NOT_FOUND', `There is no pairing request ${pairing_id}.`);
    if (pairing.origin !== null) {
      throw new PosError(
        'INVALID_STATE',
        `This request came from the web page ${pairing.origin}: block its origin instead (its program is the browser, with every other page in it).`,
        { reason: 'WEB_PAGE' },
      );
    }
    const program = pairing.program;
    if (program === null)
      throw new PosError('INVALID_STATE', 'Pinbridge could not tell which program made this request.', {
        reason: 'PROGRAM_UNKNOWN',
      });
    if (program.pid === process.pid)
      throw new PosError('INVALID_STATE', 'This request came from Pinbridge itself.', { reason: 'OWN_PROGRAM' });
    const pending = agent.clients.pendingPairings().filter((other) => other.program?.program === program.program);
    const blocked = agent.clients.blockProgram({ name: program.name, program: program.program });
    // Its requests were rejected with the block: gone from the window.
    for (const other of pending) hub.pairingEnded(other.id, 'rejected', null);
    const closed = await hub.blockedProgram(blocked.program);
    log.warn(
      { program: blocked.name, pid: program.pid, command: blocked.program, closed },
      'program blocked from the window',
    );
    hub.audit({ kind: 'program.blocked', program: blocked.name, pid: program.pid, command: blocked.program, closed });
    hub.clientsChanged();
    return blockedProgramView(blocked);
  },

  'operator.unblockProgram': ({ program_id }, { agent, hub, log }) => {
    const unblocked = agent.clients.unblockProgram(program_id);
    log.info({ program: unblocked.name, command: unblocked.program }, 'program unblocked from the window');
    hub.audit({ kind: 'program.unblocked', program: unblocked.name, command: unblocked.program });
    hub.clientsChanged();
    return blockedProgramView(unblocked);
  },
};
