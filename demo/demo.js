/* global document, location */
/**
 * The demo POS page's behaviour: connect to the Pinbridge that serves this page, pair (the token
 * lives in localStorage), charge on the PINPAD, follow the progress, show the result and the
 * receipts, confirm or undo. The sale on screen is kept in localStorage too, so a page opened again
 * (the tab closed mid-sale, a reload) finds it: it follows a sale still running to its result with
 * the same reference, or shows the last result. Plain browser module, no build step: the client
 * comes from the agent at /client/index.js. Cashier texts are pt-BR.
 */
import { PinbridgeClient, pairingCodeDigits } from '/client/index.js';
import { cardLabel, typeLabel } from './labels.js';
import { formatCentavos, parseCentavos, parseInstallments } from './money.js';

const TOKEN_KEY = 'pinbridge-demo:token';
/** The last sale this page started: {params, paying} — payment.start's params, and whether it was still waiting. */
const SALE_KEY = 'pinbridge-demo:sale';
/** After "Pinbridge is not running", the page looks again this often. */
const RETRY_WHEN_DOWN_MS = 5_000;

const STATUS_LABELS = { approved: 'APROVADA', declined: 'NEGADA', failed: 'FALHOU', cancelled: 'CANCELADA' };
const CONFIRMATION_LABELS = {
  pending: 'aguardando confirmação',
  confirmed: 'venda confirmada',
  undone: 'venda desfeita',
};
/** Problem codes of an approval undone before its confirmation ("desfeita"); any other undone approval was voided ("cancelada"). */
const UNDONE_BEFORE_CONFIRMATION = new Set(['UNDONE_BY_POS', 'NOT_CONFIRMED']);

/** As TEF says it: an unconfirmed approval is undone ("desfeita"), a confirmed one voided ("cancelada"). */
function confirmationLabel(outcome) {
  if (outcome.confirmation === 'undone' && outcome.problem && !UNDONE_BEFORE_CONFIRMATION.has(outcome.problem.code))
    return 'venda cancelada';
  return CONFIRMATION_LABELS[outcome.confirmation];
}

/** Each connection state as the cashier reads it: headline and what to do. */
const STATE_TEXTS = {
  idle: ['Iniciando…', ''],
  connecting: ['Conectando ao Pinbridge…', ''],
  open: ['Conectado — caixa não pareado', 'Pareie este caixa para poder cobrar.'],
  ready: ['Conectado e pareado', 'Pronto para cobrar.'],
  reconnecting: [
    'Conexão perdida — reconectando…',
    'O Pinbridge parou ou foi reiniciado. Um pagamento em andamento será recuperado.',
  ],
  blocked: [
    'Bloqueado pelo Pinbridge',
    'O Pinbridge recusou esta página (origem bloqueada). Desbloqueie-a na janela do Pinbridge e clique em Tentar de novo.',
  ],
  closed: [
    'Pinbridge não está em execução',
    'Inicie o Pinbridge neste computador (pinbridge start). A página tenta de novo a cada 5 segundos.',
  ],
};
const NOT_ALLOWED_TEXT = 'O Pinbridge não aceita esta página: abra-a pelo endereço http:// que o Pinbridge mostra.';

function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`The page has no #${id}`);
  return element;
}

const ui = {
  body: document.body,
  state: byId('state'),
  stateDetail: byId('state-detail'),
  retry: byId('retry'),
  agentInfo: byId('agent-info'),
  unpaired: byId('unpaired'),
  pairForm: byId('pair-form'),
  pairName: byId('pair-name'),
  pairStart: byId('pair-start'),
  pairCodeForm: byId('pair-code-form'),
  pairServerMessage: byId('pair-server-message'),
  pairCode: byId('pair-code'),
  pairConfirm: byId('pair-confirm'),
  pairError: byId('pair-error'),
  paired: byId('paired'),
  pairedName: byId('paired-name'),
  unpair: byId('unpair'),
  payForm: byId('pay-form'),
  payFields: byId('pay-fields'),
  amount: byId('amount'),
  paymentType: byId('payment-type'),
  installments: byId('installments'),
  description: byId('description'),
  notification: byId('notification'),
  notificationCount: byId('notification-count'),
  reference: byId('reference'),
  newReference: byId('new-reference'),
  pay: byId('pay'),
  cancel: byId('cancel'),
  statusCheck: byId('status-check'),
  newSale: byId('new-sale'),
  payError: byId('pay-error'),
  log: byId('log'),
  result: byId('result'),
  resultStatus: byId('result-status'),
  resultDetails: byId('result-details'),
  resultAmount: byId('result-amount'),
  resultType: byId('result-type'),
  resultNsu: byId('result-nsu'),
  resultAuthorization: byId('result-authorization'),
  resultCard: byId('result-card'),
  resultReference: byId('result-reference'),
  resultConfirmation: byId('result-confirmation'),
  resultProblem: byId('result-problem'),
  confirmationActions: byId('confirmation-actions'),
  confirm: byId('confirm'),
  undo: byId('undo'),
  resultError: byId('result-error'),
  receiptNote: byId('receipt-note'),
  receiptCustomer: byId('receipt-customer'),
  receiptMerchant: byId('receipt-merchant'),
};

// ---------------------------------------------------------------------------------------------
// Page state

/** The reference of the payment in progress (pay() not settled yet), or null. */
let payingReference = null;
/** The outcome on screen, for confirm / undo. */
let shownOutcome = null;
/** Why the last connect() failed (tells "blocked" from "origin not allowed"). */
let lastConnectError = null;
let retryTimer = null;
/** A request in flight that should keep its buttons disabled (pair, confirm, undo…). */
let busy = false;
/** Whether the sale kept from an earlier visit was looked up (once, at the first connection that said hello). */
let saleRecovered = false;

function readStoredToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // Storage disabled: the page still works, it just pairs again next time.
  }
}

function storeToken(token) {
  try {
    if (token === null) localStorage.removeItem(TOKEN_KEY);
    else localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage disabled: nothing to keep.
  }
}

function readStoredSale() {
  try {
    const sale = JSON.parse(localStorage.getItem(SALE_KEY) ?? 'null');
    return typeof sale?.params?.reference_id === 'string' ? sale : null;
  } catch {
    return null;
  }
}

function storeSale(params, paying) {
  try {
    localStorage.setItem(SALE_KEY, JSON.stringify({ params, paying }));
  } catch {
    // Storage disabled: a page opened again starts blank.
  }
}

const client = new PinbridgeClient({
  // The agent serves this page: its WebSocket is on the same host and port.
  url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/pos`,
  token: readStoredToken(),
  onToken: storeToken,
});

// ---------------------------------------------------------------------------------------------
// Rendering

function render() {
  const state = client.state;
  const [headline, detail] = STATE_TEXTS[state];
  ui.body.dataset.state = state;
  ui.state.dataset.state = state;
  ui.state.textContent = headline;
  ui.stateDetail.textContent =
    state === 'blocked' && lastConnectError?.code === 'ORIGIN_NOT_ALLOWED'
      ? NOT_ALLOWED_TEXT
      : state === 'ready' && client.clientName
        ? `Caixa “${client.clientName}”. ${detail}`
        : detail;
  ui.retry.hidden = state !== 'blocked' && state !== 'closed';

  const info = client.agentInfo;
  ui.agentInfo.textContent = info
    ? `Pinbridge ${info.version}${info.mode === 'training' ? ' — modo treinamento (nada é cobrado de verdade)' : ''}`
    : 'Pinbridge';

  const ready = state === 'ready';
  const connected = state === 'open' || ready;
  ui.unpaired.hidden = client.paired;
  ui.paired.hidden = !client.paired;
  ui.pairedName.textContent = client.clientName ?? '';
  ui.pairStart.disabled = !connected || busy;
  ui.pairConfirm.disabled = !connected || busy;

  const paying = payingReference !== null;
  ui.payFields.disabled = !ready || paying;
  ui.installments.disabled = !ready || paying || ui.paymentType.value !== 'credit';
  ui.pay.disabled = !ready || paying || busy;
  ui.cancel.disabled = !ready || !paying;
  ui.statusCheck.disabled = !ready || busy;
  ui.newSale.disabled = paying;
  const pending = shownOutcome?.status === 'approved' && shownOutcome.confirmation === 'pending';
  ui.confirmationActions.hidden = !pending;
  ui.confirm.disabled = !ready || busy;
  ui.undo.disabled = !ready || busy;
}

function timeOf(isoTime) {
  const date = isoTime ? new Date(isoTime) : new Date();
  return date.toLocaleTimeString('pt-BR');
}

/** One line in the status log: time, text; `kind` "error" shows it in red. */
function log(text, { at, kind = 'info', step } = {}) {
  const item = document.createElement('li');
  item.dataset.kind = kind;
  if (step) item.dataset.step = step;
  const time = document.createElement('time');
  time.dateTime = at ?? new Date().toISOString();
  time.textContent = timeOf(at);
  const message = document.createElement('span');
  message.textContent = text;
  item.append(time, message);
  ui.log.append(item);
  ui.log.scrollTop = ui.log.scrollHeight;
}

function showError(element, error) {
  element.textContent = error?.cashierMessage ?? error?.message ?? String(error);
}

function clearErrors() {
  for (const element of [ui.pairError, ui.payError, ui.resultError]) element.textContent = '';
  for (const input of [ui.amount, ui.installments, ui.description, ui.notification, ui.reference])
    input.removeAttribute('aria-invalid');
}

function showOutcome(outcome) {
  shownOutcome = outcome;
  ui.result.dataset.status = outcome.status;
  ui.result.dataset.confirmation = outcome.confirmation ?? '';
  const confirmation = outcome.confirmation ? ` — ${confirmationLabel(outcome)}` : '';
  ui.resultStatus.textContent = `${STATUS_LABELS[outcome.status] ?? outcome.status.toUpperCase()}${confirmation}`;
  ui.resultDetails.hidden = false;
  ui.resultAmount.textContent = formatCentavos(outcome.amount);
  ui.resultType.textContent = typeLabel(outcome.payment_type, outcome.installments);
  ui.resultNsu.textContent = outcome.nsu ?? '—';
  ui.resultAuthorization.textContent = outcome.authorization_code ?? '—';
  ui.resultCard.textContent = cardLabel(outcome.card);
  ui.resultReference.textContent = outcome.reference_id;
  ui.resultConfirmation.textContent = outcome.confirmation ? confirmationLabel(outcome) : '—';
  ui.resultProblem.textContent = outcome.problem?.cashier_message ?? '—';
  render();
}

/** A sale still running, found again after the page was opened anew: its reference, no details yet. */
function showPaying(referenceId) {
  shownOutcome = null;
  ui.result.dataset.status = 'paying';
  ui.result.dataset.confirmation = '';
  ui.resultStatus.textContent = `Venda ${referenceId} em andamento…`;
  ui.resultDetails.hidden = true;
  render();
}

function clearOutcome() {
  shownOutcome = null;
  ui.result.dataset.status = 'none';
  ui.result.dataset.confirmation = '';
  ui.resultStatus.textContent = 'Nenhum pagamento ainda.';
  ui.resultDetails.hidden = true;
  ui.receiptCustomer.srcdoc = '';
  ui.receiptMerchant.srcdoc = '';
  ui.receiptNote.textContent = 'Os comprovantes aparecem aqui depois do pagamento.';
  render();
}

function receiptText(receipt) {
  if (receipt.encoding !== 'base64') return receipt.content;
  const bytes = Uint8Array.from(atob(receipt.content), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Both copies as HTML, each in a sandboxed frame (no scripts, no access to this page). */
async function loadReceipts(referenceId) {
  ui.receiptNote.textContent = 'Carregando comprovantes…';
  try {
    const [customer, merchant] = await Promise.all(
      ['customer', 'merchant'].map((copy) =>
        client.call('receipt.get', { reference_id: referenceId, copy, format: 'html' }),
      ),
    );
    ui.receiptCustomer.srcdoc = receiptText(customer);
    ui.receiptMerchant.srcdoc = receiptText(merchant);
    ui.receiptNote.textContent = `Comprovantes da venda ${referenceId}.`;
  } catch (error) {
    ui.receiptCustomer.srcdoc = '';
    ui.receiptMerchant.srcdoc = '';
    ui.receiptNote.textContent =
      error?.code === 'NO_RECEIPT'
        ? 'Esta venda não tem comprovante.'
        : `Comprovantes indisponíveis: ${error?.cashierMessage ?? error}`;
  }
}

function newReference() {
  // Date + time to the second, and a few random letters for two sales in the same second.
  const now = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `demo-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

function updateNotificationCount() {
  ui.notificationCount.textContent = `${ui.notification.value.length}/32 caracteres`;
}

// ---------------------------------------------------------------------------------------------
// Connection

async function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  try {
    await client.connect();
    lastConnectError = null;
    if (client.state === 'ready' && !saleRecovered) {
      saleRecovered = true;
      void recoverSale();
    }
  } catch (error) {
    lastConnectError = error;
    if (error?.code === 'TOKEN_INVALID') {
      ui.pairError.textContent = 'O Pinbridge não reconhece mais este caixa. Pareie de novo.';
    } else if (client.state === 'closed') {
      retryTimer = setTimeout(() => void connect(), RETRY_WHEN_DOWN_MS);
    }
  }
  render();
}

client.on('state', render);

client.on('closed', ({ code, reason }) => {
  if (code === 1000) return; // This page closed it.
  if (code === 4004) {
    log('A autorização deste caixa foi revogada no Pinbridge. Pareie de novo.', { kind: 'error' });
    ui.pairError.textContent = 'A autorização deste caixa foi revogada no Pinbridge. Pareie de novo.';
    return;
  }
  log(`Conexão com o Pinbridge encerrada (${code}${reason ? `: ${reason}` : ''}).`, { kind: 'error' });
});

client.on('payment.progress', (progress) => {
  const prefix = progress.reference_id === ui.reference.value.trim() ? '' : `[${progress.reference_id}] `;
  log(`${prefix}${progress.cashier_message}`, { at: progress.at, step: progress.step });
});

client.on('payment.result', (outcome) => {
  // The answer of our own pay() is shown when it resolves; here: results that came another way
  // (ended while this page was away, or started in another tab).
  if (outcome.reference_id === payingReference) return;
  log(`Resultado da venda ${outcome.reference_id}: ${STATUS_LABELS[outcome.status] ?? outcome.status}.`, {
    at: outcome.finished_at ?? undefined,
  });
  if (outcome.reference_id === ui.reference.value.trim()) {
    showOutcome(outcome);
    void loadReceipts(outcome.reference_id);
  }
});

// ---------------------------------------------------------------------------------------------
// Pairing

ui.pairForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearErrors();
  const name = ui.pairName.value.trim();
  if (name === '') {
    ui.pairError.textContent = 'Informe um nome para este caixa.';
    ui.pairName.focus();
    return;
  }
  busy = true;
  render();
  try {
    const started = await client.pair(name);
    ui.pairServerMessage.textContent = started.message;
    ui.pairCodeForm.hidden = false;
    ui.pairCode.value = '';
    ui.pairCode.focus();
  } catch (error) {
    showError(ui.pairError, error);
  } finally {
    busy = false;
    render();
  }
});

ui.pairCodeForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearErrors();
  // As the window shows it ("422 105"), with a hyphen, or in wide digits: the same six digits.
  const code = pairingCodeDigits(ui.pairCode.value);
  if (code === null) {
    ui.pairError.textContent = 'O código tem 6 dígitos.';
    ui.pairCode.setAttribute('aria-invalid', 'true');
    ui.pairCode.focus();
    return;
  }
  busy = true;
  render();
  try {
    await client.confirmPairing(code);
    ui.pairCodeForm.hidden = true;
    ui.pairServerMessage.textContent = '';
    log(`Caixa pareado como “${client.clientName}”.`);
    ui.amount.focus();
  } catch (error) {
    if (error?.code === 'WRONG_CODE') {
      const left = error.data?.attempts_left;
      ui.pairError.textContent =
        left === undefined ? 'Código incorreto.' : `Código incorreto. Tentativas restantes: ${left}.`;
      ui.pairCode.setAttribute('aria-invalid', 'true');
      ui.pairCode.select();
    } else if (error?.code === 'PAIRING_INVALID') {
      ui.pairError.textContent = 'O pareamento expirou ou foi recusado. Clique em Parear para receber outro código.';
      ui.pairCodeForm.hidden = true;
    } else {
      showError(ui.pairError, error);
    }
  } finally {
    busy = false;
    render();
  }
});

ui.unpair.addEventListener('click', async () => {
  clearErrors();
  busy = true;
  render();
  try {
    await client.unpair();
    log('Caixa despareado neste navegador. Para revogar de vez, remova-o na janela do Pinbridge.');
  } catch (error) {
    showError(ui.pairError, error);
  } finally {
    busy = false;
    render();
  }
});

ui.retry.addEventListener('click', () => void connect());

// ---------------------------------------------------------------------------------------------
// Payment

/** The sale from the form as payment.start params, or null after marking what is wrong. */
function readSale() {
  const problems = [];
  const invalid = (input, message) => {
    input.setAttribute('aria-invalid', 'true');
    problems.push([input, message]);
  };
  const amount = parseCentavos(ui.amount.value);
  if (amount === null) invalid(ui.amount, 'Valor inválido: digite reais e centavos com vírgula, por exemplo 12,34.');
  const paymentType = ui.paymentType.value === 'debit' ? 'debit' : 'credit';
  const installments = paymentType === 'credit' ? parseInstallments(ui.installments.value) : undefined;
  if (installments === null)
    invalid(ui.installments, 'Parcelas: de 1 a 12, ou vazio para o cliente escolher no PINPAD.');
  const description = ui.description.value.trim();
  if (description === '') invalid(ui.description, 'Informe a descrição da venda.');
  const notification = ui.notification.value.trim();
  if (notification.length > 32) invalid(ui.notification, 'A mensagem no PINPAD tem no máximo 32 caracteres.');
  const referenceId = ui.reference.value.trim();
  if (referenceId === '') invalid(ui.reference, 'Informe a referência da venda.');
  if (problems.length > 0) {
    ui.payError.textContent = problems.map(([, message]) => message).join(' ');
    problems[0][0].focus();
    return null;
  }
  const params = { reference_id: referenceId, amount, payment_type: paymentType, description };
  if (installments !== undefined) params.installments = installments;
  if (notification !== '') params.notification = notification;
  return params;
}

/**
 * Runs a sale to its outcome with pay(), which also recovers it across a lost connection. Called
 * again with the same params for a sale found running after the page was opened anew: the agent
 * joins it (payment.start is idempotent by reference_id) — never a second charge.
 */
async function runPayment(params) {
  payingReference = params.reference_id;
  storeSale(params, true);
  render();
  try {
    const outcome = await client.pay(params);
    showOutcome(outcome);
    log(`Resultado: ${STATUS_LABELS[outcome.status] ?? outcome.status}.`, {
      kind: outcome.status === 'approved' ? 'info' : 'error',
    });
    void loadReceipts(outcome.reference_id);
  } catch (error) {
    showError(ui.payError, error);
    log(`Pagamento não concluído: ${error?.cashierMessage ?? error}`, { kind: 'error' });
  } finally {
    payingReference = null;
    storeSale(params, false);
    render();
  }
}

ui.payForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearErrors();
  const params = readSale();
  if (params === null) return;
  clearOutcome();
  // "no crédito à vista", "no crédito em 3x", "no débito"; "no crédito" when the customer chooses on the PINPAD.
  const how = typeLabel(params.payment_type, params.installments).toLowerCase();
  log(`Venda ${params.reference_id}: ${formatCentavos(params.amount)} no ${how}.`);
  await runPayment(params);
});

/** The form as it was for a sale kept from an earlier visit. */
function fillForm(params) {
  ui.amount.value = formatCentavos(params.amount).replace(/^R\$\s*/, '');
  ui.paymentType.value = params.payment_type;
  ui.installments.value = params.installments === undefined ? '' : String(params.installments);
  ui.description.value = params.description;
  ui.notification.value = params.notification ?? '';
  ui.reference.value = params.reference_id;
  updateNotificationCount();
}

/**
 * The page was opened again (a closed tab, a reload): the POS API's recovery, by reference. The
 * sale this page started last is asked for with payment.status — Processed: its result is shown;
 * InProgress: it is followed to its result with the same reference; NotFound while it was
 * starting: the start never reached Pinbridge, and the form is left filled for the cashier to
 * charge it (same reference: no double charge). Without a kept sale, the newest payment of this
 * POS (payment.list) is shown.
 */
async function recoverSale() {
  const stored = readStoredSale();
  try {
    if (stored === null) {
      const { items } = await client.call('payment.list', { limit: 1 });
      const last = items[0];
      if (last !== undefined && last.status !== 'in_progress' && shownOutcome === null && payingReference === null) {
        log(`Última venda: ${last.reference_id} (${STATUS_LABELS[last.status] ?? last.status}).`, {
          at: last.finished_at ?? undefined,
        });
        showOutcome(last);
        void loadReceipts(last.reference_id);
      }
      return;
    }
    const { params } = stored;
    fillForm(params);
    const status = await client.call('payment.status', { reference_id: params.reference_id });
    if (payingReference !== null) return; // The cashier started another sale meanwhile.
    if (status.status === 'Processed') {
      log(`Última venda: ${params.reference_id} (${STATUS_LABELS[status.result.status] ?? status.result.status}).`, {
        at: status.result.finished_at ?? undefined,
      });
      showOutcome(status.result);
      void loadReceipts(params.reference_id);
    } else if (status.status === 'InProgress' && status.result !== undefined) {
      // Stopped before its result (RESULT_PENDING): nothing to join; payment.result follows.
      log(`Venda ${params.reference_id}: resultado sendo confirmado. Não cobre de novo.`, { kind: 'error' });
      showOutcome(status.result);
    } else if (status.status === 'InProgress') {
      log(`Venda ${params.reference_id} em andamento no PINPAD: acompanhando até o resultado.`);
      showPaying(params.reference_id);
      await runPayment(params);
    } else if (stored.paying) {
      log(
        `A venda ${params.reference_id} não chegou ao Pinbridge. Clique em Pagar para cobrá-la (mesma referência: nunca cobra duas vezes).`,
        { kind: 'error' },
      );
    }
  } catch (error) {
    log(`Não foi possível consultar a última venda: ${error?.cashierMessage ?? error}`, { kind: 'error' });
  }
}

ui.cancel.addEventListener('click', async () => {
  if (payingReference === null) return;
  clearErrors();
  log('Cancelamento solicitado.');
  try {
    // pay() resolves with the cancelled outcome by itself; this only asks.
    await client.call('payment.cancel', { reference_id: payingReference });
  } catch (error) {
    showError(ui.payError, error);
  }
});

ui.statusCheck.addEventListener('click', async () => {
  clearErrors();
  const referenceId = ui.reference.value.trim();
  if (referenceId === '') {
    ui.payError.textContent = 'Informe a referência da venda para consultar.';
    ui.reference.focus();
    return;
  }
  try {
    const status = await client.call('payment.status', { reference_id: referenceId });
    if (status.status === 'Processed') {
      log(`Status de ${referenceId}: concluída (${STATUS_LABELS[status.result.status] ?? status.result.status}).`);
      showOutcome(status.result);
      void loadReceipts(referenceId);
    } else if (status.status === 'InProgress') {
      log(`Status de ${referenceId}: em andamento (${status.state}).`);
    } else {
      log(`Status de ${referenceId}: venda não encontrada no Pinbridge.`);
    }
  } catch (error) {
    showError(ui.payError, error);
  }
});

async function settle(method, doneText) {
  if (shownOutcome === null) return;
  clearErrors();
  busy = true;
  render();
  try {
    const outcome = await client.call(method, { reference_id: shownOutcome.reference_id });
    showOutcome(outcome);
    log(doneText);
    void loadReceipts(outcome.reference_id);
  } catch (error) {
    showError(ui.resultError, error);
  } finally {
    busy = false;
    render();
  }
}

ui.confirm.addEventListener('click', () => void settle('payment.confirm', 'Venda confirmada.'));
ui.undo.addEventListener('click', () => void settle('payment.undo', 'Venda desfeita: nada fica cobrado do cliente.'));

ui.newReference.addEventListener('click', () => {
  ui.reference.value = newReference();
});

ui.newSale.addEventListener('click', () => {
  clearErrors();
  clearOutcome();
  ui.log.replaceChildren();
  ui.amount.value = '';
  ui.installments.value = '';
  ui.reference.value = newReference();
  ui.amount.focus();
});

ui.paymentType.addEventListener('change', () => {
  if (ui.paymentType.value !== 'credit') ui.installments.value = '';
  render();
});

ui.notification.addEventListener('input', updateNotificationCount);

// ---------------------------------------------------------------------------------------------
// Start

ui.reference.value = newReference();
updateNotificationCount();
render();
void connect();
