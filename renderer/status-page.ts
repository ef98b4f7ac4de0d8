/**
 * Status at a glance, the window's home: the PINPADs (model, serial number, how they are
 * connected in words, connected, busy, their EMV tables) and, while the PINPAD in use is not
 * ready, why (“PINPAD não encontrado em /dev/ttyACM0…”), the receipt printers (what each is, in
 * words: the address is on Suporte), the payments API, the POS clients connected and the mode.
 * Read with agent.status at each (re)connection, then kept current by the pinpad.*,
 * printer.status, pinpad.link, api.health and pos.clients events; under the version, the desktop
 * app's update on its way (operator.updates, agent.update). What it hears it also hands the
 * shell (`devices()`): the status line on top of every page and the disk's banner.
 */
import type { EventPayload } from '../client/index.js';
import type { WindowContext } from './context.js';
import { byId, fill, h } from './dom.js';
import { currentLanguage, formatDateTime, formatTime, plural, t } from './i18n.js';
import { apiErrorText, isSystemPrinter, pinpadKind, printErrorText, printerKind, printerName } from './labels.js';
import type { DeviceStates } from './readiness.js';

type Pinpad = EventPayload<'pinpad.connected'>;
type PinpadLink = EventPayload<'pinpad.link'>;
type Printer = EventPayload<'printer.status'>;
type ApiHealth = EventPayload<'api.health'>;
type Disk = EventPayload<'agent.disk'>;
type Update = EventPayload<'agent.update'>;
type Level = 'ok' | 'warn' | 'bad' | 'off';

export interface PosCounts {
  readonly paired: number;
  readonly connected: number;
  readonly anonymous: number;
}

/** A line saying a state with a dot: the colour repeats what the text says, never alone. */
function stateLine(level: Level, text: string, className = 'state-line'): HTMLParagraphElement {
  return h(
    'p',
    { className, attrs: { 'data-level': level } },
    h('span', { className: 'dot', attrs: { 'aria-hidden': 'true' } }),
    text,
  );
}

function details(entries: readonly (readonly [string, string])[]): HTMLDListElement {
  return h(
    'dl',
    { className: 'details' },
    ...entries.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
  );
}

/**
 * The PINPAD's EMV tables: a load in progress, the version held, or sales refused for want of them
 * — and, when the copy kept on this computer was changed outside Pinbridge, that it was refused.
 */
function tablesLines(tables: Pinpad['tables']): HTMLParagraphElement[] {
  if (tables === null) return [];
  const lines = [tablesLine(tables)];
  if (tables.cache_tampered) lines.push(stateLine('warn', t('status.tablesTampered'), 'state-line tables-tampered'));
  return lines;
}

function tablesLine(tables: NonNullable<Pinpad['tables']>): HTMLParagraphElement {
  const line =
    tables.state === 'loading'
      ? stateLine('warn', t('status.tablesLoading', { version: tables.version ?? '' }), 'state-line tables')
      : tables.state === 'current'
        ? stateLine('ok', t('status.tablesCurrent', { version: tables.version ?? '' }), 'state-line tables')
        : stateLine('bad', t('status.tablesFailed'), 'state-line tables');
  line.dataset['tables'] = tables.state;
  return line;
}

export class StatusPage {
  readonly #context: WindowContext;
  readonly #posCounts: () => PosCounts;
  readonly #pinpads = new Map<string, Pinpad>();
  readonly #printers = new Map<string, Printer>();
  #api: ApiHealth | null = null;
  #disk: Disk | null = null;
  /** The desktop app's update (operator.updates, agent.update); null until read. */
  #update: Update | null = null;
  #link: PinpadLink | null = null;
  #loaded = false;
  /**
   * When the connection to the agent was lost (null while connected): what the page last heard
   * is no longer known to be true, so the devices are not shown green under "Conexão perdida".
   */
  #lostAt: Date | null = null;

  readonly #pinpadsBox = byId('status-pinpads');
  readonly #printersBox = byId('status-printers');
  readonly #apiBox = byId('status-api');
  readonly #posBox = byId('status-pos');
  readonly #modeBox = byId('status-mode');

  constructor(context: WindowContext, posCounts: () => PosCounts) {
    this.#context = context;
    this.#posCounts = posCounts;
    const { client } = context;
    // Every change also reaches the shell (context.changed renders the status line, then this page).
    const pinpadChanged = (pinpad: Pinpad): void => {
      this.#pinpads.set(pinpad.serial_number, pinpad);
      context.changed();
    };
    client.on('pinpad.connected', pinpadChanged);
    client.on('pinpad.disconnected', pinpadChanged);
    client.on('pinpad.busy', pinpadChanged);
    client.on('pinpad.tables', pinpadChanged);
    client.on('pinpad.link', (link) => {
      this.#link = link;
      context.changed();
    });
    client.on('printer.status', (printer) => {
      this.#printers.set(printer.name, printer);
      context.changed();
    });
    client.on('api.health', (health) => {
      this.#api = health;
      context.changed();
    });
    // The shell's banner shows it on every page.
    client.on('agent.disk', (disk) => {
      this.#disk = disk;
      context.changed();
    });
    client.on('agent.update', (update) => {
      this.#update = update;
      this.render();
    });
  }

  /** The disk as the agent last said (agent.status, agent.disk); null before the first status. */
  disk(): Disk | null {
    return this.#lostAt === null ? this.#disk : null;
  }

  /** What the agent last said of its devices; null before agent.status was read, and while the connection is lost. */
  devices(): DeviceStates | null {
    if (!this.#loaded || this.#lostAt !== null) return null;
    return {
      pinpads: [...this.#pinpads.values()],
      link: this.#link,
      printers: [...this.#printers.values()],
      api: this.#api,
      disk: this.#disk,
    };
  }

  /** A printer as the agent last said (agent.status, printer.status); undefined when unknown or disconnected. */
  printer(name: string): Printer | undefined {
    return this.#lostAt === null ? this.#printers.get(name) : undefined;
  }

  async load(): Promise<void> {
    try {
      const status = await this.#context.client.call('agent.status', {});
      this.#pinpads.clear();
      for (const pinpad of status.pinpads) this.#pinpads.set(pinpad.serial_number, pinpad);
      this.#link = status.pinpad_link;
      this.#printers.clear();
      for (const printer of status.printers) this.#printers.set(printer.name, printer);
      this.#api = status.api;
      this.#disk = status.disk;
      this.#loaded = true;
      this.#lostAt = null;
    } catch {
      // Shown as it was; the events keep it current and the next connection reads it again.
    }
    try {
      this.#update = await this.#context.client.call('operator.updates', {});
    } catch {
      // Not said rather than said wrong; agent.update brings it.
    }
    this.render();
  }

  /** The connection to the agent is gone: nothing shown is current until load() reads it again. */
  connectionLost(at = new Date()): void {
    this.#lostAt ??= at;
    this.render();
  }

  render(): void {
    if (!this.#loaded) return;
    if (this.#lostAt !== null) {
      this.#renderStale(this.#lostAt);
      return;
    }
    for (const box of [this.#pinpadsBox, this.#printersBox, this.#apiBox, this.#posBox]) delete box.dataset.stale;
    this.#renderPinpads();
    this.#renderPrinters();
    this.#renderApi();
    this.#renderPos();
    this.#renderMode();
  }

  /** Why the PINPAD in use is not ready, in the window's language, while it is not; null when it is. */
  #linkLines(): HTMLElement | null {
    const link = this.#link;
    if (link === null || link.state === 'ready') return null;
    const line = stateLine(
      link.state === 'connecting' ? 'warn' : 'bad',
      currentLanguage() === 'en' ? link.message : link.cashier_message,
      'state-line pinpad-link',
    );
    return h(
      'div',
      { className: 'pinpad-link', attrs: { 'data-link-state': link.state } },
      line,
      link.state === 'connecting' ? null : h('p', { className: 'hint' }, t('status.linkRetrying')),
    );
  }

  #renderPinpads(): void {
    const pinpads = [...this.#pinpads.values()];
    const link = this.#linkLines();
    if (pinpads.length === 0) {
      this.#pinpadsBox.replaceChildren(link ?? stateLine('bad', t('status.noPinpad')));
      return;
    }
    this.#pinpadsBox.replaceChildren(
      ...(link === null ? [] : [link]),
      ...pinpads.map((pinpad) => {
        const level: Level = !pinpad.connected ? 'bad' : pinpad.busy ? 'warn' : 'ok';
        const state = pinpad.connected
          ? `${t('status.connected')} · ${pinpad.busy ? t('status.busy') : t('status.free')}`
          : t('status.disconnected');
        return h(
          'article',
          {
            className: 'device',
            attrs: {
              'data-serial': pinpad.serial_number,
              'data-connected': String(pinpad.connected),
              'data-busy': String(pinpad.busy),
            },
          },
          h('h3', {}, `${pinpad.manufacturer} ${pinpad.model}`.trim()),
          stateLine(level, state),
          pinpad.busy && pinpad.payment_reference !== null
            ? h('p', { className: 'hint' }, t('status.busyWith', { reference: pinpad.payment_reference }))
            : null,
          ...tablesLines(pinpad.tables),
          details([
            [t('status.serial'), pinpad.serial_number],
            [t('status.firmware'), pinpad.firmware],
            [t('status.connection'), pinpadKind(pinpad.address)],
          ]),
        );
      }),
    );
  }

  #renderPrinters(): void {
    const printers = [...this.#printers.values()];
    if (printers.length === 0) {
      this.#printersBox.replaceChildren(stateLine('off', t('status.noPrinter')));
      return;
    }
    this.#printersBox.replaceChildren(
      ...printers.map((printer) => {
        const problems = [
          printer.connected === false ? t('status.printerOffline') : null,
          printer.paper_out ? t('status.paperOut') : null,
          printer.cover_open ? t('status.coverOpen') : null,
          printer.error !== null ? t('status.printerError', { error: printErrorText(printer.error) }) : null,
          printer.paper_low && !printer.paper_out ? t('status.paperLow') : null,
        ].filter((problem): problem is string => problem !== null);
        const blocking =
          printer.connected === false || printer.paper_out || printer.cover_open || printer.error !== null;
        const level: Level =
          printer.connected === null && problems.length === 0
            ? 'off'
            : blocking
              ? 'bad'
              : problems.length > 0
                ? 'warn'
                : 'ok';
        // Not known: being checked (the agent looks at each printer as it starts), or a system
        // printer (lp://), whose spooler takes the jobs and answers for it.
        const unknown = isSystemPrinter(printer.address) ? t('status.printerSystem') : t('status.printerUnknown');
        const text =
          problems.length > 0 ? problems.join(' · ') : printer.connected === null ? unknown : t('status.printerReady');
        return h(
          'article',
          { className: 'device', attrs: { 'data-printer': printer.name } },
          h('h3', {}, printerName(printer.name)),
          stateLine(level, text),
          // What it is in words (a folder "printer", training's or a headless store's, says it prints no paper).
          h('p', { className: 'hint printer-kind' }, printerKind(printer.address, this.#context.mode() === 'training')),
        );
      }),
    );
  }

  #renderApi(): void {
    const api = this.#api;
    if (api === null) return;
    const level: Level = api.state === 'up' ? 'ok' : api.state === 'down' ? 'bad' : 'off';
    const text =
      api.state === 'up' ? t('status.apiUp') : api.state === 'down' ? t('status.apiDown') : t('status.apiUnknown');
    this.#apiBox.dataset.state = api.state;
    fill(
      this.#apiBox,
      stateLine(level, text),
      api.since === null ? null : h('p', { className: 'hint' }, t('status.since', { time: formatDateTime(api.since) })),
      api.last_error === null || api.state === 'up'
        ? null
        : h('p', { className: 'hint' }, t('status.lastError', { message: apiErrorText(api.last_error.code) })),
    );
  }

  #renderStale(lostAt: Date): void {
    const since = t('status.staleSince', { time: formatTime(lostAt.toISOString()) });
    for (const box of [this.#pinpadsBox, this.#printersBox, this.#apiBox, this.#posBox]) {
      box.dataset.stale = 'true';
      fill(box, stateLine('off', t('status.stale')), h('p', { className: 'hint' }, since));
    }
  }

  #renderPos(): void {
    const counts = this.#posCounts();
    const connected =
      counts.connected === 0 ? t('status.posNone') : plural(counts.connected, 'status.posOne', 'status.posMany');
    this.#posBox.dataset.connected = String(counts.connected);
    fill(
      this.#posBox,
      stateLine(counts.connected > 0 ? 'ok' : 'off', connected),
      h('p', { className: 'hint' }, t('status.posPaired', { n: counts.paired })),
      counts.anonymous > 0 ? h('p', { className: 'hint' }, t('status.posAnonymous', { n: counts.anonymous })) : null,
    );
  }

  #renderMode(): void {
    const mode = this.#context.mode();
    if (mode === null) return;
    const version = this.#context.client.operator?.version;
    this.#modeBox.dataset.mode = mode;
    fill(
      this.#modeBox,
      stateLine(
        mode === 'training' ? 'warn' : 'ok',
        t(mode === 'training' ? 'mode.training' : 'mode.live'),
        'state-line mode-line',
      ),
      h('p', { className: 'hint' }, t(mode === 'training' ? 'mode.trainingDetail' : 'mode.liveDetail')),
      version === undefined ? null : h('p', { className: 'hint' }, t('status.version', { version })),
      this.#updateLine(),
    );
  }

  /**
   * The desktop app's update, when one is on its way: which version, and when it installs — when
   * Pinbridge is closed, or in the maintenance window outside a sale (never during one). Nothing
   * when none is pending.
   */
  #updateLine(): HTMLParagraphElement | null {
    const update = this.#update;
    if (update === null || update.state === 'none' || update.version === null) return null;
    const version = update.version;
    const [start = '', end = ''] = update.install_window?.split('-') ?? [];
    const text =
      update.state === 'downloading'
        ? t('status.updateDownloading', { version })
        : update.state === 'installing'
          ? t('status.updateInstalling', { version })
          : update.waiting_for_sale
            ? t('status.updateAfterSale', { version })
            : update.install_window !== null
              ? t('status.updateInWindow', { version, start, end })
              : t('status.updateAtQuit', { version });
    return h('p', { className: 'hint update-line', id: 'status-update', attrs: { 'data-update': update.state } }, text);
  }
}
