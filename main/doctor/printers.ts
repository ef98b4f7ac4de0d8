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
import {
  bilingual,
  checkResult,
  codeOf,
  DeadlineError,
  formatDuration,
  joinBilingual,
  messageOf,
  shellQuote,
  withDeadline,
  worstStatus,
  type Bilingual,
  type CheckResult,
  type CheckStatus,
  type JsonValue,
} from './check.js';

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
  /** What was found, for the summary ("ready", "out of paper"…; the English also goes in the details). */
  readonly state: Bilingual;
  readonly fix?: Bilingual;
  readonly printerStatus?: PrinterStatus;
  readonly error?: { readonly code: string; readonly message: string };
}

/** Why a printer could not be reached, in Portuguese, by the transport's error code (its English sentence stays in the English text and the details). */
const UNREACHABLE_PT: Readonly<Record<string, string>> = {
  UNREACHABLE: 'a impressora não atende nesse endereço: veja se está ligada e conectada',
  DISCONNECTED: 'a impressora foi desconectada',
  TIMEOUT: 'a impressora não respondeu a tempo',
  PERMISSION_DENIED: 'o computador não deu acesso à impressora',
  NOT_OPEN: 'a conexão com a impressora não abriu',
  IO_ERROR: 'erro de comunicação com a impressora',
  COMMAND_FAILED: 'o comando de impressão do sistema falhou',
};

function unreachableReasonPt(code: string): string {
  return UNREACHABLE_PT[code] ?? `erro ${code}`;
}

/** The settings' printer "default" is, to a Brazilian technician, the receipt printer. */
function printerNamePt(name: string): string {
  return name === 'default' ? 'padrão' : `"${name}"`;
}

function unreachableFix(
  name: string,
  address: PrinterAddress,
  settingsPath: string,
  code: string | undefined,
  username: string,
): Bilingual {
  const setting = `\`printers.${name}.address\``;
  const field = bilingual(`${setting} in ${settingsPath}`, `${setting} em ${settingsPath}`);
  const relogin = (command: string): Bilingual =>
    bilingual(
      `Run \`${command}\`, then log out and in again.`,
      `Execute \`${command}\` e depois saia da sessão e entre de novo.`,
    );
  switch (address.kind) {
    case 'tcp':
      return bilingual(
        `Check that the printer is switched on and on the network (\`ping ${address.host}\`; its self-test page shows its IP address), or correct ${field.en}.`,
        `Verifique se a impressora está ligada e na rede (\`ping ${address.host}\`; a página de autoteste dela mostra o endereço IP) ou corrija ${field.pt}.`,
      );
    case 'serial':
      return code === 'PERMISSION_DENIED'
        ? relogin(`sudo usermod -aG dialout ${username}`)
        : bilingual(
            `Check the printer's cable and that it is switched on (\`ls -l ${address.path}\` shows whether the port exists), or correct ${field.en}.`,
            `Verifique o cabo da impressora e se ela está ligada (\`ls -l ${address.path}\` mostra se a porta existe) ou corrija ${field.pt}.`,
          );
    case 'file':
      return code === 'PERMISSION_DENIED'
        ? relogin(`sudo usermod -aG lp ${username}`)
        : bilingual(
            `Check the printer's USB cable and that it is switched on (\`ls -l ${address.path}\`), or correct ${field.en}.`,
            `Verifique o cabo USB da impressora e se ela está ligada (\`ls -l ${address.path}\`) ou corrija ${field.pt}.`,
          );
    case 'folder': {
      const mkdir = `\`mkdir -p ${shellQuote(address.path)}\``;
      return bilingual(
        `Make the folder writable (${mkdir}), or correct ${field.en}.`,
        `Libere a gravação na pasta (${mkdir}) ou corrija ${field.pt}.`,
      );
    }
    case 'system': {
      const lpstat = `\`${address.printer === null ? 'lpstat -d' : `lpstat -p ${address.printer}`}\``;
      return bilingual(
        `Check the system printer (${lpstat}), or correct ${field.en}.`,
        `Verifique a impressora do sistema (${lpstat}) ou corrija ${field.pt}.`,
      );
    }
  }
}

function statusFinding(name: string, address: string, status: PrinterStatus): Omit<PrinterFinding, 'name' | 'address'> {
  const base = { printerStatus: status };
  const printer = bilingual(`printer "${name}" (${address})`, `impressora "${name}" (${address})`);
  if (status.paperOut) {
    return {
      ...base,
      status: 'fail',
      state: bilingual('out of paper', 'sem papel'),
      fix: bilingual(`Load a new paper roll in ${printer.en}.`, `Coloque uma bobina de papel nova na ${printer.pt}.`),
    };
  }
  if (status.coverOpen) {
    return {
      ...base,
      status: 'fail',
      state: bilingual('cover open', 'com a tampa aberta'),
      fix: bilingual(`Close the cover of ${printer.en}.`, `Feche a tampa da ${printer.pt}.`),
    };
  }
  if (status.error !== null && status.error !== 'AUTO_RECOVERABLE') {
    return {
      ...base,
      status: 'fail',
      state: bilingual(`printer error (${status.error})`, `com erro (${status.error})`),
      fix: bilingual(
        `Check ${printer.en} for a paper jam or a stuck cutter, then switch it off and on.`,
        `Veja se há papel enroscado ou a guilhotina travada na ${printer.pt} e depois desligue e ligue a impressora.`,
      ),
    };
  }
  if (status.paperNearEnd) {
    return {
      ...base,
      status: 'warn',
      state: bilingual('paper near its end', 'com o papel acabando'),
      fix: bilingual(
        `Have a new paper roll ready for ${printer.en}.`,
        `Deixe uma bobina de papel nova à mão para a ${printer.pt}.`,
      ),
    };
  }
  if (!status.online) {
    return {
      ...base,
      status: 'warn',
      state: bilingual('offline', 'desconectada (offline)'),
      fix: bilingual(
        `Printer "${name}" (${address}) says it is offline: check its lights, close its cover and press FEED once.`,
        `A impressora "${name}" (${address}) diz que está offline: confira as luzes dela, feche a tampa e aperte FEED uma vez.`,
      ),
    };
  }
  return { ...base, status: 'ok', state: bilingual('ready', 'pronta') };
}

async function probePrinter(
  name: string,
  settings: PrinterSettings,
  options: PrintersCheckOptions,
): Promise<PrinterFinding> {
  const address = settings.address;
  const username = options.username ?? '$USER';
  let parsed: PrinterAddress;
  try {
    parsed = parsePrinterAddress(address);
  } catch (error) {
    const setting = `\`printers.${name}.address\``;
    return {
      name,
      address,
      status: 'fail',
      state: bilingual(messageOf(error), 'com endereço inválido'),
      fix: bilingual(
        `Correct ${setting} in ${options.settingsPath}.`,
        `Corrija ${setting} em ${options.settingsPath}.`,
      ),
    };
  }
  const device = new ReceiptPrinter(createTransport(parsed, { tcp: { connectTimeoutMs: options.timeoutMs } }), {
    statusTimeoutMs: options.timeoutMs,
  });
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
        state: bilingual(`unreachable (${messageOf(error)})`, `sem comunicação (${unreachableReasonPt(code)})`),
        fix: unreachableFix(name, parsed, options.settingsPath, code, username),
        error: { code, message: messageOf(error) },
      };
    }
    const asksStatus = settings.format !== 'pdf' && settings.check_status !== false && device.canReportStatus;
    if (!asksStatus) {
      const why =
        settings.format === 'pdf'
          ? bilingual('PDF printers do not report it', 'impressoras PDF não a informam')
          : settings.check_status === false
            ? bilingual('check_status is off', 'check_status está desligado')
            : bilingual('this link cannot report it', 'esta conexão não a informa');
      const state =
        parsed.kind === 'system'
          ? bilingual(
              `sent through the system print command (status not checked: ${why.en})`,
              `enviada pelo comando de impressão do sistema (situação não verificada: ${why.pt})`,
            )
          : bilingual(`reachable (status not checked: ${why.en})`, `acessível (situação não verificada: ${why.pt})`);
      return { name, address, status: 'ok', state };
    }
    try {
      const status = await withDeadline(
        device.status(),
        remaining(),
        `Reading the status of the printer at ${address}`,
      );
      return { name, address, ...statusFinding(name, address, status) };
    } catch (error) {
      const code = error instanceof DeadlineError ? 'TIMEOUT' : (codeOf(error) ?? 'ERROR');
      if (code === 'TIMEOUT' || code === 'INVALID_STATUS') {
        // Reached, but it does not answer DLE EOT: it may print fine and just not speak status.
        const limit = formatDuration(options.timeoutMs);
        const checkStatusOff = `\`"check_status": false\``;
        const section = `\`printers.${name}\``;
        return {
          name,
          address,
          status: 'warn',
          state:
            code === 'TIMEOUT'
              ? bilingual(
                  `reachable, but it did not answer the status request within ${limit.en}`,
                  `acessível, mas não respondeu ao pedido de situação em ${limit.pt}`,
                )
              : bilingual(
                  'reachable, but its status answer is not ESC/POS',
                  'acessível, mas a resposta de situação dela não é ESC/POS',
                ),
          fix: bilingual(
            `If printer "${name}" prints but does not report its status, set ${checkStatusOff} under ${section} in ${options.settingsPath}; otherwise switch it off and on.`,
            `Se a impressora "${name}" imprime mas não informa a situação, coloque ${checkStatusOff} em ${section} no arquivo ${options.settingsPath}; caso contrário, desligue e ligue a impressora.`,
          ),
          error: { code, message: messageOf(error) },
        };
      }
      return {
        name,
        address,
        status: 'fail',
        state: bilingual(
          `lost while reading its status (${messageOf(error)})`,
          `conexão perdida ao ler a situação (${messageOf(error)})`,
        ),
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
    return checkResult({
      id: 'printers',
      status: 'skip',
      summary: bilingual(
        'Not checked: the settings file did not load (see the settings check)',
        'Não verificadas: o arquivo de configurações não carregou (veja a verificação do arquivo de configurações)',
      ),
      details: {},
    });
  }
  const entries = Object.entries(options.printers);
  if (entries.length === 0) {
    return checkResult({
      id: 'printers',
      status: 'skip',
      summary: bilingual(
        `No printer in the settings (${options.settingsPath}, section \`printers\`): receipts are not printed`,
        `Nenhuma impressora nas configurações (${options.settingsPath}, seção \`printers\`): os comprovantes não são impressos`,
      ),
      details: { printers: [] },
    });
  }
  const findings = await Promise.all(entries.map(([name, settings]) => probePrinter(name, settings, options)));
  const status = worstStatus(findings.map((f) => f.status));
  const fixes = findings.filter((f) => f.fix !== undefined && f.status !== 'ok').map((f) => f.fix!);
  const found = joinBilingual(
    findings.map((f) =>
      bilingual(`"${f.name}" (${f.address}) ${f.state.en}`, `${printerNamePt(f.name)} (${f.address}) ${f.state.pt}`),
    ),
    '; ',
  );
  const one = findings.length === 1;
  return checkResult({
    id: 'printers',
    status,
    summary: bilingual(`Printer${one ? '' : 's'}: ${found.en}`, `Impressora${one ? '' : 's'}: ${found.pt}`),
    details: {
      printers: findings.map((f) => ({
        name: f.name,
        address: f.address,
        status: f.status,
        state: f.state.en,
        printer_status: statusJson(f.printerStatus),
        ...(f.error ? { error: { code: f.error.code, message: f.error.message } } : {}),
      })),
    },
    ...(fixes.length > 0 ? { fix: joinBilingual(fixes, ' ') } : {}),
  });
}
