/**
 * The POS clients: pairing requests as they arrive (pairing.requested; operator.pairings at
 * load) with their 6-digit code in very large type, the POS's name and origin, the program behind
 * it (the browser, for a page), a countdown and "Recusar" (operator.rejectPairing) — gone on
 * pairing.ended; "Bloquear o programa" for a program (behind a confirmation,
 * operator.blockProgram) and "Bloquear o site" for a page (operator.blockOrigin); the paired
 * clients (operator.clients, then pos.clients events) with their connections, last seen and
 * "Revogar" (behind a confirmation, operator.revokeClient); and the blocked origins and programs
 * with "Desbloquear".
 */
import type { EventPayload, ResultOf } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { confirmAction } from './dialog.js';
import { button, byId, h, keepFocus } from './dom.js';
import { formatCountdown, formatDateTime, formatTime, t } from './i18n.js';

type PairingRequest = EventPayload<'pairing.requested'>;
type ClientRecord = EventPayload<'pos.clients'>['clients'][number];
type BlockedOrigin = ResultOf<'operator.clients'>['blocked_origins'][number];
type BlockedProgram = ResultOf<'operator.clients'>['blocked_programs'][number];
type PairingGuard = ResultOf<'operator.pairingGuard'>;

export class ClientsPage {
  readonly #context: WindowContext;
  readonly #pairings = new Map<string, PairingRequest>();
  #clients: ClientRecord[] = [];
  #anonymous = 0;
  #blocked: BlockedOrigin[] = [];
  #blockedPrograms: BlockedProgram[] = [];
  #guard: PairingGuard | null = null;

  readonly #pairingList = byId('pairings');
  readonly #pairingsEmpty = byId('pairings-empty');
  readonly #pairedBody = byId('paired-body');
  readonly #pairedTable = byId('paired-table');
  readonly #pairedEmpty = byId('paired-empty');
  readonly #revoked = byId<HTMLDetailsElement>('revoked');
  readonly #revokedSummary = byId('revoked-summary');
  readonly #revokedList = byId('revoked-list');
  readonly #blockedList = byId('blocked-list');
  readonly #blockedEmpty = byId('blocked-empty');
  readonly #blockedProgramsList = byId('blocked-programs-list');
  readonly #blockedProgramsEmpty = byId('blocked-programs-empty');
  readonly #guardBox = byId('pairing-guard');
  readonly #guardText = byId('pairing-guard-text');
  readonly #guardOrigins = byId('pairing-guard-origins');
  readonly #message = byId('clients-message');
  readonly #error = byId('clients-error');

  constructor(context: WindowContext) {
    this.#context = context;
    const { client } = context;
    client.on('pairing.requested', (pairing) => {
      this.#pairings.set(pairing.pairing_id, pairing);
      this.#renderPairings();
      this.#context.changed();
    });
    client.on('pairing.ended', ({ pairing_id: pairingId }) => {
      this.#pairings.delete(pairingId);
      this.#renderPairings();
      this.#context.changed();
    });
    client.on('pairing.failed', ({ guard }) => {
      this.#guard = guard;
      this.#renderGuard();
      this.#context.changed();
    });
    client.on('pos.clients', ({ clients, anonymous_sessions: anonymous }) => {
      this.#clients = clients;
      this.#anonymous = anonymous;
      this.#renderClients();
      this.#context.changed();
    });
    // The countdowns tick in place: re-rendering every second would take the focus off "Recusar".
    setInterval(() => this.#tick(), 1_000);
  }

  async load(): Promise<void> {
    const { client } = this.#context;
    try {
      const [{ pairings }, clients, guard] = await Promise.all([
        client.call('operator.pairings', {}),
        client.call('operator.clients', {}),
        client.call('operator.pairingGuard', {}),
      ]);
      this.#guard = guard;
      this.#pairings.clear();
      for (const pairing of pairings) this.#pairings.set(pairing.pairing_id, pairing);
      this.#clients = clients.clients;
      this.#blocked = clients.blocked_origins;
      this.#blockedPrograms = clients.blocked_programs;
    } catch (error) {
      this.#error.textContent = errorText(error);
      return;
    }
    this.render();
    this.#context.changed();
  }

  /** The requests waiting for their code, oldest first. */
  pairings(): PairingRequest[] {
    return [...this.#pairings.values()];
  }

  /** Paired clients not revoked, with how many of them are connected, and connections not paired yet. */
  counts(): { paired: number; connected: number; anonymous: number } {
    const active = this.#clients.filter((client) => client.revoked_at === null);
    return {
      paired: active.length,
      connected: active.filter((client) => client.connected > 0).length,
      anonymous: this.#anonymous,
    };
  }

  render(): void {
    this.#renderPairings();
    this.#renderGuard();
    this.#renderClients();
  }

  /** Wrong pairing codes: how many, from where (each origin blockable in one click), and the lock. */
  #renderGuard(): void {
    const guard = this.#guard;
    this.#guardBox.hidden = guard === null || guard.wrong_codes === 0;
    if (guard === null || guard.wrong_codes === 0) return;
    this.#guardBox.dataset.locked = String(guard.locked);
    this.#guardText.textContent = guard.locked
      ? t('guard.locked', { n: guard.wrong_codes })
      : t('guard.wrong', { n: guard.wrong_codes, budget: guard.budget });
    const blocked = new Set(this.#blocked.map((entry) => entry.origin));
    keepFocus(this.#guardOrigins, () =>
      this.#guardOrigins.replaceChildren(
        ...guard.origins.map((entry) => {
          const name = entry.origin ?? t('pairings.program');
          const item = h(
            'li',
            { attrs: { 'data-origin': entry.origin ?? '' } },
            h('span', {}, t('guard.origin', { origin: name, n: entry.wrong_codes })),
          );
          if (entry.origin !== null && !blocked.has(entry.origin)) {
            const origin = entry.origin;
            item.append(
              ' ',
              button(t('guard.block'), {
                variant: 'danger',
                label: t('guard.blockLabel', { origin }),
                focusKey: `guard-block:${origin}`,
                onClick: () => void this.#block(origin),
              }),
            );
          }
          return item;
        }),
        ...(guard.locked
          ? [
              h(
                'li',
                {},
                button(t('guard.unlock'), { focusKey: 'guard-unlock', onClick: () => void this.#unlockPairing() }),
              ),
            ]
          : []),
      ),
    );
  }

  async #block(origin: string): Promise<void> {
    this.#clearMessages();
    try {
      await this.#context.client.call('operator.blockOrigin', { origin });
    } catch (error) {
      this.#error.textContent = errorText(error);
    }
    await this.load();
  }

  async #unlockPairing(): Promise<void> {
    this.#clearMessages();
    try {
      this.#guard = await this.#context.client.call('operator.unlockPairing', {});
      this.#message.textContent = t('guard.unlocked');
    } catch (error) {
      this.#error.textContent = errorText(error);
    }
    this.render();
  }

  #renderPairings(): void {
    const now = Date.now();
    const live = this.pairings().filter((pairing) => Date.parse(pairing.expires_at) > now);
    this.#pairingsEmpty.hidden = live.length > 0;
    keepFocus(this.#pairingList, () =>
      this.#pairingList.replaceChildren(...live.map((pairing) => this.#pairingItem(pairing, now))),
    );
  }

  #pairingItem(pairing: PairingRequest, now: number): HTMLLIElement {
    const grouped = `${pairing.code.slice(0, 3)} ${pairing.code.slice(3)}`;
    return h(
      'li',
      { className: 'pairing', attrs: { 'data-pairing-id': pairing.pairing_id } },
      h('p', { className: 'pairing-name' }, pairing.name),
      h(
        'p',
        { className: 'pairing-origin' },
        pairing.origin === null ? t('pairings.program') : t('pairings.origin', { origin: pairing.origin }),
      ),
      // Who is behind it: a request nobody at the checkout made shows its program here.
      h(
        'p',
        {
          className: 'pairing-program',
          attrs: { 'data-pid': String(pairing.program?.pid ?? ''), title: pairing.program?.command ?? '' },
        },
        pairing.program === null
          ? t('pairings.unknownProgram')
          : t(pairing.origin === null ? 'pairings.viaProgram' : 'pairings.viaBrowser', {
              name: pairing.program.name,
              pid: pairing.program.pid,
            }),
      ),
      h(
        'p',
        { className: 'pairing-code', attrs: { 'data-code': pairing.code } },
        h('span', { attrs: { 'aria-hidden': 'true' } }, grouped),
        // Read digit by digit, not as "eight hundred ninety-four thousand…".
        h('span', { className: 'visually-hidden' }, t('pairings.codeLabel', { digits: [...pairing.code].join(' ') })),
      ),
      h('p', { className: 'pairing-instructions' }, t('pairings.instructions')),
      h(
        'p',
        { className: 'pairing-expiry' },
        h(
          'span',
          { className: 'countdown', attrs: { 'data-expires-at': pairing.expires_at } },
          this.#countdownText(pairing.expires_at, now),
        ),
      ),
      h(
        'p',
        { className: 'pairing-actions' },
        button(t('pairings.reject'), {
          variant: 'danger',
          label: t('pairings.rejectLabel', { name: pairing.name }),
          focusKey: `reject:${pairing.pairing_id}`,
          onClick: () => void this.#reject(pairing),
        }),
        ...this.#blockButtons(pairing),
      ),
    );
  }

  /**
   * A program is blocked as a program; a page by its site (its program is the browser, with every
   * other page in it, the store's POS perhaps among them).
   */
  #blockButtons(pairing: PairingRequest): HTMLButtonElement[] {
    const origin = pairing.origin;
    if (origin !== null) {
      if (this.#blocked.some((blocked) => blocked.origin === origin)) return [];
      return [
        button(t('pairings.blockSite'), {
          label: t('pairings.blockSiteLabel', { origin }),
          focusKey: `block-site:${pairing.pairing_id}`,
          onClick: () => void this.#block(origin),
        }),
      ];
    }
    const program = pairing.program;
    if (program === null) return [];
    return [
      button(t('pairings.blockProgram'), {
        label: t('pairings.blockProgramLabel', { name: program.name, pid: program.pid }),
        focusKey: `block-program:${pairing.pairing_id}`,
        onClick: () => void this.#blockProgram(pairing, program),
      }),
    ];
  }

  async #blockProgram(pairing: PairingRequest, program: NonNullable<PairingRequest['program']>): Promise<void> {
    this.#clearMessages();
    const confirmed = await confirmAction({
      title: t('blockProgram.title', { name: program.name }),
      text: t('blockProgram.text', { command: program.command }),
      confirm: t('blockProgram.yes'),
    });
    if (!confirmed) return;
    try {
      await this.#context.client.call('operator.blockProgram', { pairing_id: pairing.pairing_id });
      this.#message.textContent = t('blockProgram.done', { name: program.name });
    } catch (error) {
      this.#error.textContent = errorText(error);
    }
    await this.load();
    byId('blocked-programs-title').focus();
  }

  #countdownText(expiresAt: string, now: number): string {
    const left = (Date.parse(expiresAt) - now) / 1000;
    // The clock time on the store's clock (as its receipts print it), never the API's UTC ISO.
    return left > 0
      ? t('pairings.expiresIn', { time: formatCountdown(left), at: formatTime(expiresAt) })
      : t('pairings.expired');
  }

  #tick(): void {
    const now = Date.now();
    let expired = false;
    for (const countdown of this.#pairingList.querySelectorAll<HTMLElement>('.countdown')) {
      const expiresAt = countdown.dataset.expiresAt ?? '';
      countdown.textContent = this.#countdownText(expiresAt, now);
      if (Date.parse(expiresAt) <= now) expired = true;
    }
    if (!expired) return;
    for (const [id, pairing] of this.#pairings) if (Date.parse(pairing.expires_at) <= now) this.#pairings.delete(id);
    this.#renderPairings();
    this.#context.changed();
  }

  #renderClients(): void {
    const active = this.#clients.filter((client) => client.revoked_at === null);
    const revoked = this.#clients.filter((client) => client.revoked_at !== null);
    this.#pairedTable.hidden = active.length === 0;
    this.#pairedEmpty.hidden = active.length > 0;
    keepFocus(this.#pairedBody, () =>
      this.#pairedBody.replaceChildren(...active.map((client) => this.#clientRow(client))),
    );
    this.#revoked.hidden = revoked.length === 0;
    this.#revokedSummary.textContent = t('paired.revoked', { n: revoked.length });
    this.#revokedList.replaceChildren(
      ...revoked.map((client) =>
        h(
          'li',
          {},
          t('paired.revokedAt', {
            name: client.name,
            origin: client.origin ?? t('paired.program'),
            time: formatDateTime(client.revoked_at ?? ''),
          }),
        ),
      ),
    );
    this.#blockedEmpty.hidden = this.#blocked.length > 0;
    keepFocus(this.#blockedList, () =>
      this.#blockedList.replaceChildren(
        ...this.#blocked.map((blocked) =>
          h(
            'li',
            { attrs: { 'data-origin': blocked.origin } },
            h(
              'span',
              { className: 'blocked-origin' },
              blocked.origin,
              ' ',
              h('span', { className: 'hint' }, t('blocked.since', { time: formatDateTime(blocked.blocked_at) })),
            ),
            button(t('blocked.unblock'), {
              label: t('blocked.unblockLabel', { origin: blocked.origin }),
              focusKey: `unblock:${blocked.origin}`,
              onClick: () => void this.#unblock(blocked.origin),
            }),
          ),
        ),
      ),
    );
    this.#blockedProgramsEmpty.hidden = this.#blockedPrograms.length > 0;
    keepFocus(this.#blockedProgramsList, () =>
      this.#blockedProgramsList.replaceChildren(
        ...this.#blockedPrograms.map((blocked) =>
          h(
            'li',
            { attrs: { 'data-program-id': blocked.program_id } },
            h(
              'span',
              { className: 'blocked-origin' },
              blocked.name,
              ' ',
              h('span', { className: 'hint' }, blocked.command),
              ' ',
              h(
                'span',
                { className: 'hint' },
                t('blockedPrograms.since', { time: formatDateTime(blocked.blocked_at) }),
              ),
            ),
            button(t('blocked.unblock'), {
              label: t('blockedPrograms.unblockLabel', { name: blocked.name }),
              focusKey: `unblock-program:${blocked.program_id}`,
              onClick: () => void this.#unblockProgram(blocked),
            }),
          ),
        ),
      ),
    );
  }

  #clientRow(client: ClientRecord): HTMLTableRowElement {
    const connection =
      client.connected === 0
        ? t('paired.offline')
        : client.connected === 1
          ? t('paired.connectedOne')
          : t('paired.connectedMany', { n: client.connected });
    return h(
      'tr',
      { attrs: { 'data-client-id': client.client_id, 'data-connected': String(client.connected) } },
      h('td', { className: 'client-name' }, client.name),
      h('td', { className: 'origin-cell' }, client.origin ?? t('paired.program')),
      h(
        'td',
        {},
        h(
          'span',
          { className: 'connection-state', attrs: { 'data-level': client.connected > 0 ? 'ok' : 'off' } },
          connection,
        ),
      ),
      // A client connected now is seen now, whatever the last recorded visit says ("Conectado" beside "Nunca" read as a contradiction).
      // data-label names the value where the row is shown as a card (a narrow window: window.css).
      h(
        'td',
        { attrs: { 'data-label': t('col.lastSeen') } },
        client.connected > 0
          ? t('paired.now')
          : client.last_seen_at === null
            ? t('paired.never')
            : formatDateTime(client.last_seen_at),
      ),
      h('td', { attrs: { 'data-label': t('col.pairedAt') } }, formatDateTime(client.created_at)),
      h(
        'td',
        {},
        button(t('paired.revoke'), {
          variant: 'danger',
          label: t('paired.revokeLabel', { name: client.name }),
          focusKey: `revoke:${client.client_id}`,
          onClick: () => void this.#revoke(client),
        }),
      ),
    );
  }

  async #reject(pairing: PairingRequest): Promise<void> {
    this.#clearMessages();
    try {
      await this.#context.client.call('operator.rejectPairing', { pairing_id: pairing.pairing_id });
    } catch (error) {
      this.#error.textContent = errorText(error);
    }
    // pairing.ended removes it; an unknown or expired one is gone anyway.
    this.#pairings.delete(pairing.pairing_id);
    this.#renderPairings();
    this.#context.changed();
    byId('pairings-title').focus();
  }

  async #revoke(client: ClientRecord): Promise<void> {
    this.#clearMessages();
    const confirmed = await confirmAction({
      title: t('revoke.title', { name: client.name }),
      text: t('revoke.text'),
      confirm: t('revoke.yes'),
    });
    if (!confirmed) return;
    try {
      await this.#context.client.call('operator.revokeClient', { client_id: client.client_id });
      this.#message.textContent = t('paired.revokedDone', { name: client.name });
    } catch (error) {
      this.#error.textContent = errorText(error);
    }
    await this.load();
    byId('paired-title').focus();
  }

  async #unblockProgram(blocked: BlockedProgram): Promise<void> {
    this.#clearMessages();
    try {
      await this.#context.client.call('operator.unblockProgram', { program_id: blocked.program_id });
      this.#message.textContent = t('blockedPrograms.unblocked', { name: blocked.name });
    } catch (error) {
      this.#error.textContent = errorText(error);
    }
    await this.load();
    byId('blocked-programs-title').focus();
  }

  async #unblock(origin: string): Promise<void> {
    this.#clearMessages();
    try {
      await this.#context.client.call('operator.unblockOrigin', { origin });
      this.#message.textContent = t('blocked.unblocked', { origin });
    } catch (error) {
      this.#error.textContent = errorText(error);
    }
    await this.load();
    byId('blocked-title').focus();
  }

  #clearMessages(): void {
    this.#message.textContent = '';
    this.#error.textContent = '';
  }
}
