/**
 * The `printers` check: every printer in the settings' `printers` section is reached the way the
 * agent reaches it (the same transport, from the same address) and, where the link can carry the
 * question (TCP, serial), asked for its status with DLE EOT: paper out and an open cover are
 * failures (receipts would wait in the queue), paper near its end is a warning. Nothing is
 * printed. A device file or the system print command cannot report a status; for those,
 * reaching them is all there is to check.
 */
import type { PrinterStatus } from '../../drivers/printers/status.js';
import { ReceiptPrinter } from '../../drivers/printers/printer.js';
import { createTransport, parsePrinterAddress, type PrinterAddress } from '../../drivers/printers/transport.js';
import type { PrintersSettings, PrinterSettings } from '../receipts/printers.js';
import { codeOf, DeadlineError, formatSeconds, messageOf, shellQuote, withDeadline, worstStatus, type CheckResult, type CheckStatus, type JsonValue } from './check.js';

export interface PrintersCheckOptions {
  /** The `printers` section; undefined when the settings file did not load. */
  readonly printers: PrintersSettings | undefined;
  /** The settings file they come from (named in fixes). */
  readonly settingsPath: string;
  /** For each printer: connecting and reading its status. */
  readonly timeoutMs: number;
  /** The user's name, for the dialout command in a fix. */
  readonly username?: string;
}

interface PrinterFinding {
  readonly name: string;
  readonly address: string;
  readonly status: CheckStatus;
  /** What was found, for the summary ("ready", "out of paper"…). */
  readonly state: string;
  readonly fix?: string;
  readonly printerStatus?: PrinterStatus;
  readonly error?: { readonly code: string; readonly message: string };
}

function unreachableFix(name: string, address: PrinterAddress, settingsPath: string, code: string | undefined, username: string): string {
  const field = `\`printers.${name}.address\` in ${settingsPath}`;
  switch (address.kind) {
    case 'tcp':
      return `Check that the printer is switched on and on the network (\`ping ${address.host}\`; its self-test page shows its IP address), or correct ${field}.`;
    case 'serial':
      return code === 'PERMISSION_DENIED'
        ? `Run \`sudo usermod -aG dialout ${username}\`, then log out and in again.`
        : `Check the printer's cable and that it is switched on (\`ls -l ${address.path}\` shows whether the port exists), or correct ${field}.`;
    case 'file':
      return code === 'PERMISSION_DENIED'
        ? `Run \`sudo usermod -aG lp ${username}\`, then log out and in again.`
        : `Check the printer's USB cable and that it is switched on (\`ls -l ${address.path}\`), or correct ${field}.`;
    case 'folder':
      return `Make the folder writable (\`mkdir -p ${shellQuote(address.path)}\`), or correct ${field}.`;
    case 'system':
      return `Check the system printer (\`${address.printer === null ? 'lpstat -d' : `lpstat -p ${address.printer}`}\`), or correct ${field}.`;
  }
}

function statusFinding(name: string, address: string, status: PrinterStatus): Omit<PrinterFinding, 'name' | 'address'> {
  const base = { printerStatus: status };
  if (status.paperOut) return { ...base, status: 'fail', state: 'out of paper', fix: `Load a new paper roll in printer "${name}" (${address}).` };
  if (status.coverOpen) return { ...base, status: 'fail', state: 'cover open', fix: `Close the cover of printer "${name}" (${address}).` };
  if (status.error !== null && status.error !== 'AUTO_RECOVERABLE') {
    return {
      ...base,
      status: 'fail',
      state: `printer error (${status.error})`,
      fix: `Check printer "${name}" (${address}) for a paper jam or a stuck cutter, then switch it off and on.`,
    };
  }
  if (status.paperNearEnd) return { ...base, status: 'warn', state: 'paper near its end', fix: `Have a new paper roll ready for printer "${name}" (${address}).` };
  if (!status.online) {
    return { ...base, status: 'warn', state: 'offline', fix: `Printer "${name}" (${address}) says it is offline: check its lights, close its cover and press FEED once.` };
  }
  return { ...base, status: 'ok', state: 'ready' };
}

async function probePrinter(name: string, settings: PrinterSettings, options: PrintersCheckOptions): Promise<PrinterFinding> {
  const address = settings.address;
  const username = options.username ?? '$USER';
  let parsed: PrinterAddress;
  try {
    parsed = parsePrinterAddress(address);
  } catch (error) {
    return { name, address, status: 'fail', state: messageOf(error), fix: `Correct \`printers.${name}.address\` in ${options.settingsPath}.` };
  }
  const device = new ReceiptPrinter(createTransport(parsed, { tcp: { connectTimeoutMs: options.timeoutMs } }), { statusTimeoutMs: options.timeoutMs });
  // One time limit for reaching the printer and reading its status together.
  const until = performance.now() + options.timeoutMs;
  const remaining = (): number => Math.max(1, Math.round(until - performance.now()));
  try {
    try {
      await withDeadline(device.open(), options.timeoutMs, `Reaching the printer at ${address}`);
    } catch (error) {
      const code = error instanceof DeadlineError ? 'TIMEOUT' : (codeOf(error) ?? 'ERROR');
      return {
        name,
        address,
        status: 'fail',
        state: `unreachable (${messageOf(error)})`,
        fix: unreachableFix(name, parsed, options.settingsPath, code, username),
        error: { code, message: messageOf(error) },
      };
    }
    const asksStatus = settings.format !== 'pdf' && settings.check_status !== false && device.canReportStatus;
    if (!asksStatus) {
      const why =
        settings.format === 'pdf' ? 'PDF printers do not report it' : settings.check_status === false ? 'check_status is off' : 'this link cannot report it';
      return { name, address, status: 'ok', state: parsed.kind === 'system' ? `sent through the system print command (status not checked: ${why})` : `reachable (status not checked: ${why})` };
    }
    try {
      const status = await withDeadline(device.status(), remaining(), `Reading the status of the printer at ${address}`);
      return { name, address, ...statusFinding(name, address, status) };
    } catch (error) {
      const code = error instanceof DeadlineError ? 'TIMEOUT' : (codeOf(error) ?? 'ERROR');
      if (code === 'TIMEOUT' || code === 'INVALID_STATUS') {
        // Reached, but it does not answer DLE EOT: it may print fine and just not speak status.
        return {
          name,
          address,
          status: 'warn',
          state: code === 'TIMEOUT' ? `reachable, but it did not answer the status request within ${formatSeconds(options.timeoutMs)}` : 'reachable, but its status answer is not ESC/POS',
          fix: `If printer "${name}" prints but does not report its status, set \`"check_status": false\` under \`printers.${name}\` in ${options.settingsPath}; otherwise switch it off and on.`,
          error: { code, message: messageOf(error) },
        };
      }
      return {
        name,
        address,
        status: 'fail',
        state: `lost while reading its status (${messageOf(error)})`,
        fix: unreachableFix(name, parsed, options.settingsPath, code, username),
        error: { code, message: messageOf(error) },
      };
    }
  } finally {
    await device.close().catch(() => undefined);
  }
}

function statusJson(status: PrinterStatus | undefined): JsonValue {
  if (status === undefined) return null;
  return {
    online: status.online,
    paper_out: status.paperOut,
    paper_near_end: status.paperNearEnd,
    cover_open: status.coverOpen,
    error: status.error,
  };
}

export async function checkPrinters(options: PrintersCheckOptions): Promise<CheckResult> {
  if (options.printers === undefined) {
    return { id: 'printers', status: 'skip', summary: 'Not checked: the settings file did not load (see the settings check)', details: {} };
  }
  const entries = Object.entries(options.printers);
  if (entries.length === 0) {
    return {
      id: 'printers',
      status: 'skip',
      summary: `No printer in the settings (${options.settingsPath}, section \`printers\`): receipts are not printed`,
      details: { printers: [] },
    };
  }
  const findings = await Promise.all(entries.map(([name, settings]) => probePrinter(name, settings, options)));
  const status = worstStatus(findings.map((f) => f.status));
  const fixes = findings.filter((f) => f.fix !== undefined && f.status !== 'ok').map((f) => f.fix!);
  const summary = findings.map((f) => `"${f.name}" (${f.address}) ${f.state}`).join('; ');
  return {
    id: 'printers',
    status,
    summary: `Printer${findings.length === 1 ? '' : 's'}: ${summary}`,
    details: {
      printers: findings.map((f) => ({
        name: f.name,
        address: f.address,
        status: f.status,
        state: f.state,
        printer_status: statusJson(f.printerStatus),
        ...(f.error ? { error: { code: f.error.code, message: f.error.message } } : {}),
      })),
    },
    ...(fixes.length > 0 ? { fix: fixes.join(' ') } : {}),
  };
}
