/**
 * The support page: which Pinbridge this is (version and mode from session.operator; the PINPAD
 * and the printers in words, each with its technical address as a detail for the technician), the
 * diagnostics (operator.doctor: each check with its state in words and an icon, what was found,
 * and the fix in a monospace block the cashier can copy for whoever helps them — both in the
 * window's language, as the doctor words them in pt-BR and English), the support bundle
 * (support-bundle.ts: made by the agent, downloaded, sent after a confirmation), and the log
 * export (operator.exportLogs) offered as a pinbridge-logs.txt download and as text to copy.
 */
import type { ResultOf } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { button, byId, fill, h, keepFocus } from './dom.js';
import { currentLanguage, formatTime, t, type MessageKey } from './i18n.js';
import { pinpadKind, printerKind, printerName } from './labels.js';
import type { DeviceStates } from './readiness.js';
import { SupportBundleCard } from './support-bundle.js';

type DoctorReport = ResultOf<'operator.doctor'>;
type Check = DoctorReport['checks'][number];
type CheckStatus = Check['status'];
type LogExport = ResultOf<'operator.exportLogs'>;

const LOG_FILE_NAME = 'pinbridge-logs.txt';

const STATUS_TEXTS: Readonly<Record<CheckStatus, MessageKey>> = {
  ok: 'support.statusOk',
  warn: 'support.statusWarn',
  fail: 'support.statusFail',
  skip: 'support.statusSkip',
};
/** Beside the words, never instead of them. */
const STATUS_ICONS: Readonly<Record<CheckStatus, string>> = { ok: '✓', warn: '!', fail: '✕', skip: '–' };
const STATUS_LEVELS: Readonly<Record<CheckStatus, string>> = { ok: 'ok', warn: 'warn', fail: 'bad', skip: 'off' };

/** The checks of `pinbridge doctor` by id (main/doctor/check.ts); an id not listed shows as it is. */
const CHECK_TITLES: Readonly<Record<string, MessageKey>> = {
  settings: 'support.checkSettings',
  'serial-permissions': 'support.checkSerial',
  pinpads: 'support.checkPinpads',
  printers: 'support.checkPrinters',
  'payments-api': 'support.checkApi',
  'client-certificate': 'support.checkCertificate',
  'pos-ports': 'support.checkPorts',
  disk: 'support.checkDisk',
  'remote-settings': 'support.checkRemoteSettings',
  updates: 'support.checkUpdates',
};

type CopyResult = 'copied' | 'selected';

/**
 * Puts `text` on the clipboard. The window may be refused the clipboard (the desktop app denies
 * every permission): then the text is selected in `source` and copied the old way, or left
 * selected for Ctrl+C.
 */
async function copyText(text: string, source: HTMLElement): Promise<CopyResult> {
  try {
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    // Falls back to the selection below.
  }
  if (source instanceof HTMLTextAreaElement) {
    source.focus();
    source.select();
  } else {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
  try {
    // Deprecated, but the one copy that needs no permission.
    return document.execCommand('copy') ? 'copied' : 'selected';
  } catch {
    return 'selected';
  }
}

export class SupportPage {
  readonly #context: WindowContext;
  readonly #devices: () => DeviceStates | null;
  readonly #bundle: SupportBundleCard;
  #report: DoctorReport | null = null;
  #reportAt: string | null = null;
  #running = false;
  #logs: LogExport | null = null;
  #downloadUrl: string | null = null;

  readonly #about = byId('support-about');
  readonly #run = byId<HTMLButtonElement>('support-doctor-run');
  readonly #doctorStatus = byId('support-doctor-status');
  readonly #doctorError = byId('support-doctor-error');
  readonly #checks = byId('support-checks');
  readonly #export = byId<HTMLButtonElement>('support-logs-export');
  readonly #download = byId<HTMLAnchorElement>('support-logs-download');
  readonly #copyLogs = byId<HTMLButtonElement>('support-logs-copy');
  readonly #logsStatus = byId('support-logs-status');
  readonly #logsError = byId('support-logs-error');
  readonly #logsBox = byId('support-logs-box');
  readonly #logsText = byId<HTMLTextAreaElement>('support-logs-text');

  constructor(context: WindowContext, devices: () => DeviceStates | null) {
    this.#context = context;
    this.#devices = devices;
    this.#bundle = new SupportBundleCard(context);
    this.#run.addEventListener('click', () => void this.#runDoctor());
    this.#export.addEventListener('click', () => void this.#exportLogs());
    this.#copyLogs.addEventListener('click', () => void this.#copyTheLogs());
  }

  render(): void {
    this.renderAbout();
    this.#renderDoctor();
    this.#bundle.render();
    this.#renderLogs();
  }

  /** Which Pinbridge this is and its devices: rendered again whenever the shell hears of a change. */
  renderAbout(): void {
    const operator = this.#context.client.operator;
    const mode = this.#context.mode();
    const modeText =
      mode === null
        ? '—'
        : `${t(mode === 'training' ? 'mode.training' : 'mode.live')} — ${t(mode === 'training' ? 'mode.trainingDetail' : 'mode.liveDetail')}`;
    this.#about.dataset.mode = mode ?? '';
    const devices = this.#devices();
    // What each device is, in words; its address (what a technician checks first) as a detail.
    const technical = (value: string): HTMLElement =>
      h('span', { className: 'technical-detail' }, t('support.technical', { value }));
    const pinpad = devices?.pinpads.find((found) => found.connected) ?? devices?.pinpads[0];
    const pinpadAddress = pinpad?.address ?? devices?.link?.address;
    fill(
      this.#about,
      h('dt', {}, t('support.version')),
      h('dd', { id: 'support-version' }, operator?.version ?? '—'),
      h('dt', {}, t('support.mode')),
      h('dd', { id: 'support-mode' }, modeText),
      ...(pinpadAddress === undefined
        ? []
        : [
            h('dt', {}, t('support.pinpad')),
            h('dd', { id: 'support-pinpad' }, pinpadKind(pinpadAddress), technical(pinpadAddress)),
          ]),
      ...(devices?.printers ?? []).flatMap((printer) => [
        h('dt', {}, devices !== null && devices.printers.length > 1 ? printerName(printer.name) : t('support.printer')),
        h(
          'dd',
          { attrs: { 'data-printer': printer.name } },
          printerKind(printer.address, mode === 'training'),
          technical(printer.address),
        ),
      ]),
    );
  }

  async #runDoctor(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#doctorError.textContent = '';
    this.#renderDoctor();
    try {
      // The checks talk to devices and the network, each within its own time limit (5 s).
      this.#report = await this.#context.client.call('operator.doctor', {}, { timeoutMs: 60_000 });
      this.#reportAt = new Date().toISOString();
    } catch (error) {
      this.#doctorError.textContent = errorText(error);
    } finally {
      this.#running = false;
      this.#renderDoctor();
    }
  }

  #renderDoctor(): void {
    this.#run.disabled = this.#running;
    const report = this.#report;
    if (this.#running) {
      this.#doctorStatus.dataset.state = 'running';
      this.#doctorStatus.textContent = t('support.doctorRunning');
      return;
    }
    if (report === null) {
      this.#doctorStatus.dataset.state = 'none';
      this.#doctorStatus.textContent = '';
      return;
    }
    const failed = report.checks.filter((check) => check.status === 'fail').length;
    const warned = report.checks.filter((check) => check.status === 'warn').length;
    const time = formatTime(this.#reportAt ?? '');
    this.#doctorStatus.dataset.state = failed > 0 ? 'fail' : warned > 0 ? 'warn' : 'ok';
    this.#doctorStatus.textContent =
      failed === 0 && warned === 0
        ? t('support.doctorAllOk', { time })
        : t('support.doctorProblems', { time, failed, warned });
    keepFocus(this.#checks, () =>
      this.#checks.replaceChildren(...report.checks.map((check) => this.#checkItem(check))),
    );
  }

  #checkItem(check: Check): HTMLLIElement {
    const titleKey = CHECK_TITLES[check.id];
    // The doctor words each check in both of the window's languages.
    const words = currentLanguage() === 'pt-BR' ? check.pt : { summary: check.summary, fix: check.fix };
    const fix = words.fix;
    const title = titleKey === undefined ? check.id : t(titleKey);
    return h(
      'li',
      { className: 'check', attrs: { 'data-check-id': check.id, 'data-status': check.status } },
      h(
        'p',
        { className: 'check-head' },
        h(
          'span',
          { className: 'check-icon', attrs: { 'data-level': STATUS_LEVELS[check.status], 'aria-hidden': 'true' } },
          STATUS_ICONS[check.status],
        ),
        h('span', { className: 'check-title' }, title),
        h(
          'span',
          { className: 'check-status', attrs: { 'data-level': STATUS_LEVELS[check.status] } },
          t(STATUS_TEXTS[check.status]),
        ),
      ),
      h('p', { className: 'check-summary' }, ...withCode(words.summary)),
      fix === undefined ? null : this.#fixBlock(check.id, title, fix),
    );
  }

  /** The fix as the doctor wrote it (commands included) in the window's language, in a block the cashier can copy for support. */
  #fixBlock(checkId: string, title: string, fix: string): HTMLDivElement {
    const code = h('pre', { id: `support-fix-${checkId}`, className: 'fix-code' }, h('code', {}, ...withCode(fix)));
    const note = h('span', { className: 'copy-note', attrs: { role: 'status' } });
    // Copied as shown: the commands without the doctor's backticks.
    const copy = async (): Promise<void> => {
      note.textContent = t(
        (await copyText(withoutBackticks(fix), code)) === 'copied' ? 'support.copied' : 'support.selected',
      );
    };
    return h(
      'div',
      { className: 'fix' },
      h('p', { className: 'fix-label' }, t('support.fix')),
      code,
      h(
        'div',
        { className: 'fix-actions' },
        button(t('support.copy'), {
          label: t('support.copyFixLabel', { check: title }),
          focusKey: `copy:${checkId}`,
          onClick: () => void copy(),
        }),
        note,
      ),
    );
  }

  async #exportLogs(): Promise<void> {
    this.#export.disabled = true;
    this.#logsError.textContent = '';
    this.#logsStatus.textContent = t('support.logsExporting');
    try {
      this.#logs = await this.#context.client.call('operator.exportLogs', {});
      if (this.#downloadUrl !== null) URL.revokeObjectURL(this.#downloadUrl);
      this.#downloadUrl =
        this.#logs.lines === 0
          ? null
          : URL.createObjectURL(new Blob([this.#logs.text], { type: 'text/plain;charset=utf-8' }));
    } catch (error) {
      this.#logsStatus.textContent = '';
      this.#logsError.textContent = errorText(error);
    } finally {
      this.#export.disabled = false;
      this.#renderLogs();
    }
  }

  #renderLogs(): void {
    const logs = this.#logs;
    const hasLines = logs !== null && logs.lines > 0;
    this.#download.hidden = !hasLines || this.#downloadUrl === null;
    if (this.#downloadUrl !== null) this.#download.href = this.#downloadUrl;
    this.#download.download = LOG_FILE_NAME;
    this.#copyLogs.hidden = !hasLines;
    this.#logsBox.hidden = !hasLines;
    if (logs === null) return;
    this.#logsText.value = logs.text;
    this.#logsStatus.dataset.lines = String(logs.lines);
    // The file is not being written (a full disk): said first, the lines in memory are in the text.
    const notWritten =
      logs.not_written === null
        ? ''
        : `${t('support.logsNotWritten', { code: logs.not_written.code, time: formatTime(logs.not_written.since) })} `;
    this.#logsStatus.dataset.notWritten = logs.not_written === null ? '' : logs.not_written.code;
    if (logs.file === null) {
      this.#logsStatus.textContent = t('support.logsNoFile');
      return;
    }
    const lines =
      logs.lines === 0
        ? t('support.logsEmpty')
        : logs.lines === 1
          ? t('support.logsOne')
          : t('support.logsMany', { n: logs.lines.toLocaleString(currentLanguage()) });
    const masked = logs.masked === 0 ? t('support.logsMaskedNone') : t('support.logsMasked', { n: logs.masked });
    this.#logsStatus.textContent = `${notWritten}${lines} ${masked}`;
  }

  async #copyTheLogs(): Promise<void> {
    if (this.#logs === null) return;
    const result = await copyText(this.#logs.text, this.#logsText);
    this.#logsStatus.textContent = t(result === 'copied' ? 'support.logsCopied' : 'support.selected');
  }
}

/**
 * The doctor marks commands, files and keys with backticks (as a terminal shows them): on the
 * page they become code elements, never raw backticks.
 */
function withCode(text: string): (string | HTMLElement)[] {
  return text
    .split(/`([^`]+)`/)
    .map((part, index) => (index % 2 === 1 ? h('code', { className: 'inline-code' }, part) : part))
    .filter((part) => part !== '');
}

function withoutBackticks(text: string): string {
  return text.replace(/`([^`]+)`/g, '$1');
}
