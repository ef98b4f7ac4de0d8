/**
 * The cashier's window — Pinbridge's own page, in its Electron window or served headless at
 * http://127.0.0.1:PORT/#key=OPERATOR_KEY. It logs in with the operator key (session.operator,
 * on every reconnection), then shows six pages on hash routes: #/status (home), #/payment,
 * #/transactions, #/clients, #/settings, #/support. Without a key, or with a refused one, it
 * says where the right address is. The shell here owns the login, the connection, the
 * navigation, the status line and the training banner on top of every page, the language switch
 * and the notices that follow the cashier across pages.
 */
import { PinbridgeClient, isPinbridgeError } from '../client/index.js';
import { ClientsPage } from './clients-page.js';
import type { Mode, WindowContext } from './context.js';
import { byId, h } from './dom.js';
import {
  currentLanguage,
  onLanguageChange,
  plural,
  setLanguage,
  setTimeZone,
  t,
  translateStatic,
  type MessageKey,
} from './i18n.js';
import { forgetOperatorKey, takeOperatorKey } from './login.js';
import { PaymentPage } from './payment-page.js';
import { PixPanel } from './pix-panel.js';
import { readiness, type Readiness } from './readiness.js';
import { ReprintLast } from './reprint-last.js';
import { SettingsPage } from './settings-page.js';
import { StatusPage } from './status-page.js';
import { SupportPage } from './support-page.js';
import { Toast } from './toast.js';
import { TransactionsPage } from './transactions-page.js';

const ROUTES = ['status', 'payment', 'transactions', 'clients', 'settings', 'support'] as const;
type Route = (typeof ROUTES)[number];
const ROUTE_TITLES: Readonly<Record<Route, MessageKey>> = {
  status: 'nav.status',
  payment: 'nav.payment',
  transactions: 'nav.transactions',
  clients: 'nav.clients',
  settings: 'nav.settings',
  support: 'nav.support',
};
/** While the agent is not answering, the page looks again this often. */
const RETRY_WHEN_DOWN_MS = 5_000;

type LoginProblem = 'missing' | 'refused' | 'unreachable';
const LOGIN_TEXTS: Readonly<Record<LoginProblem, readonly [MessageKey, MessageKey]>> = {
  missing: ['login.missing.title', 'login.missing.text'],
  refused: ['login.refused.title', 'login.refused.text'],
  unreachable: ['login.unreachable.title', 'login.unreachable.text'],
};

function currentRoute(): Route {
  const name = /^#\/([a-z]+)/.exec(location.hash)?.[1];
  return ROUTES.find((route) => route === name) ?? 'status';
}

// ---------------------------------------------------------------------------------------------
// Language

document.documentElement.lang = currentLanguage();
translateStatic(document);
for (const id of ['language', 'login-language']) {
  byId(id).addEventListener('click', () => setLanguage(currentLanguage() === 'en' ? 'pt-BR' : 'en'));
}

function renderLanguageSwitches(): void {
  // Each switch is labelled "Idioma" (in the window's language) beside both languages' names, each
  // in its own language (lang): the one in use is marked.
  const current = currentLanguage();
  for (const name of document.querySelectorAll<HTMLElement>('.language-name')) {
    if (name.lang === current) name.dataset.current = 'true';
    else delete name.dataset.current;
  }
}
renderLanguageSwitches();

// The status line and the training banner stick on top: what the page scrolls to is placed below
// them (window.css reads --banner-height for scroll-padding-top), however many lines they take.
const topBar = byId('top-bar');
new ResizeObserver(() => {
  if (topBar.offsetHeight > 0)
    document.documentElement.style.setProperty('--banner-height', `${topBar.offsetHeight}px`);
}).observe(topBar);

// The skip link moves the focus without touching the hash (the hash is the route).
byId('skip-link').addEventListener('click', (event) => {
  event.preventDefault();
  byId('main').focus();
});

/**
 * The status line on top of every page: "Pronto para vender" or what is missing, in words and
 * colour. A live region (role="status"): a change is read out politely, the focus never moves;
 * the same text again is not touched, so it is not read again.
 */
function renderReadyLine(ready: Readiness): void {
  const line = byId('ready-line');
  line.dataset.level = ready.level;
  line.dataset.missing = ready.missing.map((item) => item.what).join(' ');
  const text = byId('ready-text');
  if (text.textContent !== ready.text) text.textContent = ready.text;
}

// ---------------------------------------------------------------------------------------------
// Login

let loginProblem: LoginProblem | null = null;

function showLogin(problem: LoginProblem): void {
  loginProblem = problem;
  const [title, text] = LOGIN_TEXTS[problem];
  const login = byId('login');
  login.dataset.problem = problem;
  byId('login-title').textContent = t(title);
  byId('login-text').textContent = t(text);
  byId('login-retry').hidden = problem !== 'unreachable';
  byId('app').hidden = true;
  login.hidden = false;
  document.title = `Pinbridge — ${t(title)}`;
}

function showApp(): void {
  loginProblem = null;
  byId('login').hidden = true;
  byId('app').hidden = false;
}

const key = takeOperatorKey();
if (key === null) showLogin('missing');
else startWindow(key);

onLanguageChange(() => {
  renderLanguageSwitches();
  if (loginProblem !== null) showLogin(loginProblem);
});

// ---------------------------------------------------------------------------------------------
// The window, logged in

function startWindow(operatorKey: string): void {
  const client = new PinbridgeClient({
    // The agent serves this page: its WebSocket is on the same host and port.
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/pos`,
    operatorKey,
  });
  let mode: Mode | null = null;
  let route: Route = currentRoute();
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const context: WindowContext = {
    client,
    mode: () => mode,
    changed: () => renderShell(),
    printer: (name) => statusPage.printer(name),
  };
  const clientsPage = new ClientsPage(context);
  const statusPage = new StatusPage(context, () => clientsPage.counts());
  const paymentPage = new PaymentPage(context);
  const transactionsPage = new TransactionsPage(context);
  // Its buttons are on the Pagamento and Vendas pages; its key (F8) works on every page, and its
  // outcome is said in the toast at the bottom of the window, whatever the page.
  const toast = new Toast();
  new ReprintLast(context, toast);
  const settingsPage = new SettingsPage(context);
  const supportPage = new SupportPage(context, () => statusPage.devices());
  // Over whatever page is on while a Pix QR is shown (pix.show); it hides the page under it.
  const pixPanel = new PixPanel(context, toast, () => paymentPage.runningSummary() !== null);

  function renderShell(): void {
    const state = client.state;
    document.body.dataset.connection = state;
    byId('training-banner').hidden = mode !== 'training';
    renderReadyLine(readiness({ connection: state, mode, devices: statusPage.devices() }));
    // The disk (issue 33): a banner on every page while it refuses the agent's writes.
    const disk = statusPage.disk();
    byId('notice-disk').hidden = disk === null || disk.state !== 'full';
    if (disk !== null && disk.state === 'full')
      byId('notice-disk-text').textContent = t(disk.sales_refused ? 'notice.diskFull' : 'notice.diskFailing');
    const version = client.operator?.version ?? client.agentInfo?.version;
    byId('agent-version').textContent = version === undefined ? '' : version;

    const running = paymentPage.runningSummary();
    const paymentBadge = byId('nav-payment-badge');
    paymentBadge.hidden = running === null;
    paymentBadge.replaceChildren(
      h('span', { attrs: { 'aria-hidden': 'true' } }, '●'),
      h('span', { className: 'visually-hidden' }, t('nav.paymentBadge')),
    );
    const paymentNotice = byId('notice-payment');
    paymentNotice.hidden = running === null || route === 'payment';
    if (running !== null)
      byId('notice-payment-text').textContent = t('notice.payment', {
        amount: running.amount,
        message: running.message,
      });

    const pairings = clientsPage.pairings();
    const pairingBadge = byId('nav-clients-badge');
    pairingBadge.hidden = pairings.length === 0;
    pairingBadge.replaceChildren(
      h('span', { attrs: { 'aria-hidden': 'true' } }, String(pairings.length)),
      h('span', { className: 'visually-hidden' }, plural(pairings.length, 'nav.pairingsOne', 'nav.pairingsMany')),
    );
    const first = pairings[0];
    const pairingNotice = byId('notice-pairing');
    pairingNotice.hidden = first === undefined || route === 'clients';
    if (first !== undefined)
      byId('notice-pairing-text').textContent = t('notice.pairing', {
        name: first.name,
        code: `${first.code.slice(0, 3)} ${first.code.slice(3)}`,
      });

    statusPage.render();
    supportPage.renderAbout();
  }

  function showRoute(next: Route, moveFocus: boolean): void {
    route = next;
    for (const name of ROUTES) {
      byId(`page-${name}`).hidden = name !== next;
      const link = byId(`nav-${name}`);
      if (name === next) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    document.title = `${t(ROUTE_TITLES[next])} — Pinbridge`;
    // Going to a page puts a Pix QR away (the notice on top brings it back).
    if (moveFocus) pixPanel.tuck();
    // A page the cashier goes to reads its data again: it is shown current.
    if (moveFocus && client.state === 'ready') {
      if (next === 'transactions') void transactionsPage.load();
      if (next === 'clients') void clientsPage.load();
      // Read again unless the cashier has unsaved changes there (the page keeps those).
      if (next === 'settings') void settingsPage.load();
    }
    renderShell();
    if (moveFocus) byId(`${next}-title`).focus();
  }

  window.addEventListener('hashchange', () => showRoute(currentRoute(), true));
  // A link to the page already shown changes no hash: it still takes the cashier to the page's title.
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href^="#/"]')) {
    link.addEventListener('click', (event) => {
      if (link.getAttribute('href') !== location.hash) return;
      event.preventDefault();
      showRoute(currentRoute(), true);
    });
  }

  onLanguageChange(() => {
    showRoute(route, false);
    statusPage.render();
    paymentPage.render();
    transactionsPage.render();
    clientsPage.render();
    settingsPage.render();
    supportPage.render();
    pixPanel.render();
  });

  client.on('state', (state) => {
    if (state === 'ready') {
      mode = client.operator?.mode ?? mode;
      setTimeZone(client.operator?.time_zone);
      showApp();
      showRoute(route, false);
      supportPage.render();
      void Promise.all([
        statusPage.load(),
        paymentPage.load(),
        transactionsPage.load(),
        clientsPage.load(),
        settingsPage.load(),
        pixPanel.load(),
      ]).then(() => renderShell());
    } else if (state !== 'open') {
      // Lost (reconnecting or closed): the devices' last states are no longer known to be true.
      statusPage.connectionLost();
    }
    if (state === 'open' && client.operator === null) {
      // Connected but not the window: the key was refused on a reconnection (a new agent key).
      refused();
    }
    renderShell();
  });

  function refused(): void {
    forgetOperatorKey();
    client.close();
    showLogin('refused');
  }

  async function connect(): Promise<void> {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
    try {
      await client.connect();
    } catch (error) {
      if (isPinbridgeError(error, 'OPERATOR_ONLY')) {
        refused();
      } else if (client.state === 'closed' || client.state === 'blocked') {
        showLogin('unreachable');
        retryTimer = setTimeout(() => void connect(), RETRY_WHEN_DOWN_MS);
      }
    }
  }

  byId('login-retry').addEventListener('click', () => void connect());
  showRoute(route, false);
  void connect();
}
