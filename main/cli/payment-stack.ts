/**
 * The command-line options of every command that runs payments (`pay`, `start`): the API (or
 * training mode), the journal, the settings. The stack itself is main/agent/payment-stack.ts.
 */
import type { Command } from 'commander';
import { apiOptionsProblem, type ApiOptions } from '../agent/payment-stack.js';
import { UsageError } from './errors.js';

/** The options of every command that runs payments: the API (or training mode), the journal, the settings. */
export function addPaymentStackOptions(command: Command): Command {
  return command
    .option('--api <url>', 'payments API base URL (with --token, --marketplace and --seller); without them an embedded sandbox (training mode)')
    .option('--token <token>', 'payments API bearer token')
    .option('--marketplace <id>', 'marketplace id')
    .option('--seller <id>', 'seller id (on_behalf_of)')
    .option('--journal <path>', 'journal file (SQLite); default ~/.pinbridge/journal.db, or ~/.pinbridge/training/journal.db in training mode')
    .option(
      '--settings <file>',
      'payment settings (JSON: confirmation, installments, timeouts, pending_poll_ms); default ~/.pinbridge/settings.json when it exists',
    );
}

/** Refuses a partial set of API options before anything is opened. */
export function checkApiOptions(options: ApiOptions): void {
  if (apiOptionsProblem(options) !== undefined) {
    throw new UsageError('--api, --token, --marketplace and --seller go together (or none of them, for the embedded sandbox)');
  }
}
