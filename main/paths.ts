/**
 * Where the agent keeps its files when nothing says otherwise: `~/.pinbridge/` (the agent and
 * the support commands must agree, so both ask here).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultDataDir(home: string = homedir()): string {
  return join(home, '.pinbridge');
}

/** The payment journal's SQLite file: `~/.pinbridge/journal.db`. */
export function defaultJournalPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'journal.db');
}

/** Training mode's journal, beside its embedded sandbox: `~/.pinbridge/training/journal.db`. */
export function trainingJournalPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'training', 'journal.db');
}

/** The paired POS clients (hashed tokens, blocked origins): `~/.pinbridge/clients.db`, for both modes. */
export function clientsPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'clients.db');
}

/** The telemetry batches not pushed yet (main/telemetry/queue.ts): `~/.pinbridge/telemetry-queue/`, for both modes. */
export function telemetryQueueDir(home: string = homedir()): string {
  return join(defaultDataDir(home), 'telemetry-queue');
}

/** The OTLP batches not pushed yet, a folder per signal: `~/.pinbridge/telemetry-traces/`, `telemetry-logs/`. */
export function otlpQueueDir(signal: 'traces' | 'logs', home: string = homedir()): string {
  return join(defaultDataDir(home), `telemetry-${signal}`);
}

/** The key of Pinbridge's own window on the POS API: `~/.pinbridge/operator.key` (private to its user). */
export function operatorKeyPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'operator.key');
}

/** Headless, the payments API token's file when PINBRIDGE_API_TOKEN is not set: `~/.pinbridge/api-token` (0600). */
export function apiTokenPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'api-token');
}

/** Headless, the PKCS#12 passphrase's file when PINBRIDGE_CERT_PASSPHRASE is not set: `~/.pinbridge/cert-passphrase` (0600). */
export function certificatePassphrasePath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'cert-passphrase');
}

/** The agent's log file (also on stderr headless): `~/.pinbridge/logs/pinbridge.log`. */
export function logFilePath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'logs', 'pinbridge.log');
}

/** The supervisor PIN's salted hash and its lock on wrong guesses: `~/.pinbridge/supervisor-pin` (0600; never the PIN). */
export function supervisorPinPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'supervisor-pin');
}

/**
 * The simulated PINPADs' DUKPT counters, so a restarted simulator never repeats a KSN (a host
 * refuses one that does not advance, as the sandbox does): `~/.pinbridge/simulator/ksn-counters.json`.
 */
export function simulatorCountersPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'simulator', 'ksn-counters.json');
}

/** The security audit trail (pairing, blocks, supervisor, tampering, disk), apart from the log: `~/.pinbridge/logs/audit.log`. */
export function auditLogPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'logs', 'audit.log');
}

/** Headless, the key that seals the EMV tables cache and the supervisor PIN file: `~/.pinbridge/integrity.key` (0600). */
export function integrityKeyPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'integrity.key');
}

/** The desktop app's sealing key, encrypted by the OS (safeStorage): `~/.pinbridge/integrity-key.enc`. */
export function sealedIntegrityKeyPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'integrity-key.enc');
}

/**
 * The agent's own PINPAD traces, masked, the newest few (main/support/trace-folder.ts), which a
 * support bundle carries: `~/.pinbridge/traces/`, for both modes.
 */
export function tracesDir(home: string = homedir()): string {
  return join(defaultDataDir(home), 'traces');
}

/** The support bundles the window made, the newest few: `~/.pinbridge/support/`. */
export function supportBundlesDir(home: string = homedir()): string {
  return join(defaultDataDir(home), 'support');
}

/**
 * The chain's Ed25519 public key that signs remote settings, pinned at install
 * (`pinbridge remote-settings pin`): `~/.pinbridge/remote-settings.pub`. Not a setting: no window
 * and no remote document can change it.
 */
export function remoteSettingsKeyPath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'remote-settings.pub');
}

/** The remote settings documents (running, on trial) and what was refused: `~/.pinbridge/remote-settings/state.json`. */
export function remoteSettingsStatePath(home: string = homedir()): string {
  return join(defaultDataDir(home), 'remote-settings', 'state.json');
}
