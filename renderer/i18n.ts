/**
 * The window's texts in Brazilian Portuguese (the default: it is for a cashier in Brazil) and
 * English, the language switch (remembered in localStorage), and dates and times in the chosen
 * language. Static texts in index.html name their key in `data-i18n` (and attributes in
 * `data-i18n-attr="aria-label:key"`); the pages call `t()` when they render.
 */

export type Language = 'pt-BR' | 'en';

const PT_BR = {
  'skip': 'Pular para o conteúdo',
  'nav.label': 'Páginas',
  'nav.status': 'Situação',
  'nav.payment': 'Pagamento',
  'nav.transactions': 'Vendas de hoje',
  'nav.clients': 'Caixas (PDV)',
  'nav.paymentBadge': 'pagamento em andamento',
  'nav.pairingsOne': '1 pedido de pareamento',
  'nav.pairingsMany': '{n} pedidos de pareamento',
  'language.switch': 'English',
  'connection.connecting': 'Conectando ao Pinbridge…',
  'connection.ready': 'Conectado ao Pinbridge',
  'connection.reconnecting': 'Conexão perdida — reconectando…',
  'connection.closed': 'Desconectado do Pinbridge',
  'training.banner': 'TREINAMENTO',
  'training.bannerDetail': 'nada é cobrado de verdade (PINPAD e pagamentos simulados).',

  'login.missing.title': 'Abra esta janela pelo endereço do Pinbridge',
  'login.missing.text':
    'Esta página precisa da chave de acesso que o Pinbridge põe no endereço. Abra o endereço que o Pinbridge mostrou ao iniciar (a linha “ui”, parecida com http://127.0.0.1:17301/#key=…) ou use o aplicativo Pinbridge deste computador.',
  'login.refused.title': 'O Pinbridge não aceitou esta chave de acesso',
  'login.refused.text':
    'A chave do endereço não vale mais (o Pinbridge gerou uma chave nova) ou esta página não foi aberta pelo Pinbridge. Abra de novo o endereço que o Pinbridge mostrou ao iniciar ou use o aplicativo Pinbridge deste computador.',
  'login.unreachable.title': 'O Pinbridge não está respondendo',
  'login.unreachable.text': 'Verifique se o Pinbridge está aberto neste computador. Esta página tenta de novo a cada 5 segundos.',
  'login.hint': 'Sem o aplicativo? Em um terminal: pinbridge start --headless. A chave também fica no arquivo ~/.pinbridge/operator.key.',
  'login.retry': 'Tentar de novo',

  'status.title': 'Situação',
  'status.pinpads': 'PINPAD',
  'status.noPinpad': 'Nenhum PINPAD encontrado. Verifique o cabo ou a conexão do PINPAD.',
  'status.connected': 'Conectado',
  'status.disconnected': 'Desconectado',
  'status.free': 'livre',
  'status.busy': 'ocupado',
  'status.busyWith': 'Ocupado com a venda {reference}',
  'status.serial': 'Número de série',
  'status.firmware': 'Firmware',
  'status.address': 'Porta',
  'status.printers': 'Impressoras',
  'status.noPrinter': 'Nenhuma impressora de comprovantes configurada.',
  'status.printerUnknown': 'Ainda não verificada',
  'status.printerReady': 'Pronta',
  'status.paperOut': 'Sem papel',
  'status.paperLow': 'Papel acabando',
  'status.coverOpen': 'Tampa aberta',
  'status.printerOffline': 'Desconectada',
  'status.printerError': 'Erro: {error}',
  'status.api': 'Serviço de pagamentos',
  'status.apiUp': 'Respondendo',
  'status.apiDown': 'Sem comunicação',
  'status.apiUnknown': 'Ainda não consultado',
  'status.since': 'Desde {time}',
  'status.lastError': 'Último erro: {message}',
  'status.pos': 'Sistemas de vendas (PDV)',
  'status.posNone': 'Nenhum caixa conectado',
  'status.posOne': '1 caixa conectado',
  'status.posMany': '{n} caixas conectados',
  'status.posPaired': 'Caixas pareados: {n}',
  'status.posAnonymous': 'Conexões ainda sem pareamento: {n}',
  'status.mode': 'Modo',
  'mode.training': 'Treinamento',
  'mode.live': 'Produção',
  'mode.trainingDetail': 'Nada é cobrado de verdade. Os comprovantes saem marcados como treinamento.',
  'mode.liveDetail': 'As vendas são cobradas de verdade.',
  'status.version': 'Pinbridge {version}',

  'payment.title': 'Pagamento em andamento',
  'payment.empty': 'Nenhum pagamento em andamento. Quando o sistema de vendas iniciar um pagamento, ele aparece aqui, passo a passo.',
  'payment.cancel': 'Cancelar pagamento',
  'payment.cancelling': 'Cancelando…',
  'payment.steps': 'Etapas',
  'payment.reference': 'Referência',
  'payment.terminal': 'PINPAD',
  'payment.type': 'Tipo',
  'payment.card': 'Cartão',
  'payment.nsu': 'NSU',
  'payment.authorization': 'Autorização',
  'payment.reason': 'Motivo',
  'payment.time': 'Hora',
  'payment.confirmation': 'Confirmação',
  'payment.others': 'Outros pagamentos em andamento',
  'payment.show': 'Mostrar {amount} ({message})',
  'payment.pinpadSays': 'PINPAD: {text}',
  'notice.payment': 'Pagamento em andamento: {amount} — {message}',
  'notice.pairing': 'Pedido de pareamento de “{name}”: código {code}',
  'notice.see': 'Ver',

  'result.approved': 'APROVADA',
  'result.declined': 'NEGADA',
  'result.failed': 'NÃO REALIZADA',
  'result.cancelled': 'CANCELADA',
  'confirmation.pending': 'aguardando confirmação',
  'confirmation.confirmed': 'venda confirmada',
  'confirmation.undone': 'venda estornada',

  'type.credit': 'Crédito',
  'type.debit': 'Débito',
  'type.creditInstallments': 'Crédito em {n}x',

  'state.inProgress': 'Em andamento',
  'state.awaitingConfirmation': 'Aprovada — aguardando confirmação',
  'state.confirmed': 'Aprovada',
  'state.declined': 'Negada',
  'state.failed': 'Não realizada',
  'state.cancelled': 'Cancelada',
  'state.undone': 'Estornada',
  'state.undoing': 'Estornando…',
  'state.reversed': 'Desfeita (nada cobrado)',
  'state.reversing': 'Desfazendo…',
  'state.aborting': 'Cancelando…',

  'filter.label': 'Situação',
  'filter.all': 'Todas',
  'filter.approved': 'Aprovadas',
  'filter.declined': 'Negadas',
  'filter.failed': 'Não realizadas',
  'filter.cancelled': 'Canceladas e estornadas',
  'filter.inProgress': 'Em andamento',

  'transactions.title': 'Vendas de hoje',
  'transactions.refresh': 'Atualizar',
  'transactions.caption': 'Vendas de hoje, da mais recente para a mais antiga',
  'transactions.countOne': '1 venda hoje',
  'transactions.countMany': '{n} vendas hoje',
  'transactions.countFiltered': '{shown} de {total} vendas hoje',
  'transactions.truncated': 'Mostrando as {n} mais recentes.',
  'transactions.empty': 'Nenhuma venda hoje.',
  'transactions.emptyFilter': 'Nenhuma venda com esta situação hoje.',
  'transactions.open': 'Abrir',
  'transactions.openLabel': 'Abrir a venda de {amount} das {time}',
  'col.time': 'Hora',
  'col.amount': 'Valor',
  'col.type': 'Tipo',
  'col.status': 'Situação',
  'col.card': 'Cartão',
  'col.actions': 'Ações',
  'col.name': 'Nome',
  'col.origin': 'Origem',
  'col.connection': 'Conexão',
  'col.lastSeen': 'Visto por último',
  'col.pairedAt': 'Pareado em',

  'sale.title': 'Venda de {amount}',
  'sale.close': 'Fechar',
  'sale.reprint': 'Reimprimir esta via',
  'sale.printQueued': 'Enviado para a impressora.',
  'sale.printPrinted': 'Impresso.',
  'sale.printFailed': 'A impressão falhou: {error}',
  'sale.void': 'Cancelar venda',
  'sale.confirm': 'Confirmar venda',
  'sale.undo': 'Desfazer venda',
  'sale.cancelRunning': 'Cancelar pagamento',
  'sale.voided': 'Venda cancelada: o valor foi estornado no cartão do cliente.',
  'sale.confirmed': 'Venda confirmada.',
  'sale.cancelled': 'Pagamento cancelado.',
  'receipt.copy': 'Via',
  'receipt.customer': 'Via do cliente',
  'receipt.merchant': 'Via do estabelecimento',
  'receipt.cancellation': 'Comprovante de cancelamento',
  'receipt.loading': 'Carregando o comprovante…',
  'receipt.none': 'Esta venda não tem comprovante (o cartão não chegou a ser lido).',
  'receipt.error': 'Comprovante indisponível: {message}',
  'receipt.frameTitle': 'Comprovante — {copy}',

  'confirm.back': 'Voltar',
  'void.title': 'Cancelar esta venda?',
  'void.text': 'A venda de {amount} ({type}, {card}) será cancelada e o valor estornado no cartão do cliente. O cancelamento não pode ser desfeito.',
  'void.yes': 'Sim, cancelar venda',
  'undo.title': 'Desfazer esta venda?',
  'undo.text': 'A venda de {amount} ainda não foi confirmada pelo sistema de vendas. Desfazer cancela a autorização: nada fica cobrado do cliente.',
  'undo.yes': 'Sim, desfazer',
  'cancelRunning.title': 'Cancelar o pagamento em andamento?',
  'cancelRunning.text': 'O pagamento de {amount} será interrompido no PINPAD. Se já tiver sido aprovado, ele será estornado.',
  'cancelRunning.yes': 'Sim, cancelar pagamento',
  'revoke.title': 'Revogar “{name}”?',
  'revoke.text': 'Este sistema de vendas deixa de poder cobrar neste Pinbridge e é desconectado agora. Para usá-lo de novo, será preciso pareá-lo outra vez.',
  'revoke.yes': 'Sim, revogar',

  'pending.title': 'Aguardando confirmação',
  'pending.text': 'Vendas aprovadas que o sistema de vendas ainda não confirmou. Sem confirmação até o prazo, o Pinbridge desfaz a venda sozinho.',
  'pending.confirm': 'Confirmar',
  'pending.confirmLabel': 'Confirmar a venda de {amount} das {time}',
  'pending.undo': 'Desfazer',
  'pending.undoLabel': 'Desfazer a venda de {amount} das {time}',
  'pending.undos': 'Cancelamentos aguardando o serviço de pagamentos',
  'pending.undosText': 'O Pinbridge repete estes cancelamentos sozinho até o serviço de pagamentos responder.',

  'training.title': 'Venda de teste',
  'training.text': 'Faça uma venda de treinamento do começo ao fim: o cliente simulado apresenta o cartão sozinho.',
  'training.amount': 'Valor (R$)',
  'training.amountHint': 'Use vírgula para os centavos, por exemplo 12,34.',
  'training.type': 'Tipo',
  'training.debitHint': 'O cartão simulado é de crédito: no débito, a venda termina com “cartão não aceito”.',
  'training.start': 'Iniciar venda de teste',
  'training.badAmount': 'Valor inválido: digite reais e centavos com vírgula, por exemplo 12,34.',

  'clients.title': 'Caixas (PDV)',
  'pairings.title': 'Pedidos de pareamento',
  'pairings.empty': 'Nenhum pedido agora. Quando um sistema de vendas pedir para parear, o código aparece aqui.',
  'pairings.instructions': 'Digite este código no sistema de vendas.',
  'pairings.codeLabel': 'Código: {digits}',
  'pairings.origin': 'Origem: {origin}',
  'pairings.program': 'Programa neste computador',
  'pairings.expiresIn': 'Expira em {time}',
  'pairings.expired': 'Expirado',
  'pairings.reject': 'Recusar',
  'pairings.rejectLabel': 'Recusar o pedido de “{name}”',
  'paired.title': 'Caixas pareados',
  'paired.empty': 'Nenhum caixa pareado ainda.',
  'paired.caption': 'Caixas pareados com este Pinbridge',
  'paired.connectedOne': 'Conectado',
  'paired.connectedMany': 'Conectado ({n} conexões)',
  'paired.offline': 'Desconectado',
  'paired.never': 'Nunca',
  'paired.program': 'Programa neste computador',
  'paired.revoke': 'Revogar',
  'paired.revokeLabel': 'Revogar “{name}”',
  'paired.revoked': 'Revogados ({n})',
  'paired.revokedAt': '{name} ({origin}) — revogado em {time}',
  'paired.revokedDone': '“{name}” foi revogado.',
  'blocked.title': 'Origens bloqueadas',
  'blocked.empty': 'Nenhuma origem bloqueada.',
  'blocked.since': 'bloqueada em {time}',
  'blocked.unblock': 'Desbloquear',
  'blocked.unblockLabel': 'Desbloquear {origin}',
  'blocked.unblocked': '{origin} foi desbloqueada.',
} as const;

export type MessageKey = keyof typeof PT_BR;

const EN: Readonly<Record<MessageKey, string>> = {
  'skip': 'Skip to content',
  'nav.label': 'Pages',
  'nav.status': 'Status',
  'nav.payment': 'Payment',
  'nav.transactions': "Today's sales",
  'nav.clients': 'POS clients',
  'nav.paymentBadge': 'payment in progress',
  'nav.pairingsOne': '1 pairing request',
  'nav.pairingsMany': '{n} pairing requests',
  'language.switch': 'Português',
  'connection.connecting': 'Connecting to Pinbridge…',
  'connection.ready': 'Connected to Pinbridge',
  'connection.reconnecting': 'Connection lost — reconnecting…',
  'connection.closed': 'Disconnected from Pinbridge',
  'training.banner': 'TRAINING',
  'training.bannerDetail': 'nothing is really charged (simulated PINPAD and payments).',

  'login.missing.title': "Open this window from Pinbridge's address",
  'login.missing.text':
    'This page needs the access key Pinbridge puts in its address. Open the address Pinbridge printed when it started (the “ui” line, like http://127.0.0.1:17301/#key=…) or use the Pinbridge app on this computer.',
  'login.refused.title': 'Pinbridge did not accept this access key',
  'login.refused.text':
    'The key in the address is no longer valid (Pinbridge made a new one) or this page was not opened by Pinbridge. Open the address Pinbridge printed when it started again, or use the Pinbridge app on this computer.',
  'login.unreachable.title': 'Pinbridge is not answering',
  'login.unreachable.text': 'Check that Pinbridge is running on this computer. This page tries again every 5 seconds.',
  'login.hint': 'No app? In a terminal: pinbridge start --headless. The key is also in the file ~/.pinbridge/operator.key.',
  'login.retry': 'Try again',

  'status.title': 'Status',
  'status.pinpads': 'PINPAD',
  'status.noPinpad': 'No PINPAD found. Check the PINPAD cable or connection.',
  'status.connected': 'Connected',
  'status.disconnected': 'Disconnected',
  'status.free': 'free',
  'status.busy': 'busy',
  'status.busyWith': 'Busy with sale {reference}',
  'status.serial': 'Serial number',
  'status.firmware': 'Firmware',
  'status.address': 'Port',
  'status.printers': 'Printers',
  'status.noPrinter': 'No receipt printer configured.',
  'status.printerUnknown': 'Not checked yet',
  'status.printerReady': 'Ready',
  'status.paperOut': 'Out of paper',
  'status.paperLow': 'Paper running low',
  'status.coverOpen': 'Cover open',
  'status.printerOffline': 'Disconnected',
  'status.printerError': 'Error: {error}',
  'status.api': 'Payments service',
  'status.apiUp': 'Answering',
  'status.apiDown': 'Unreachable',
  'status.apiUnknown': 'Not asked yet',
  'status.since': 'Since {time}',
  'status.lastError': 'Last error: {message}',
  'status.pos': 'Point-of-sale systems (POS)',
  'status.posNone': 'No POS connected',
  'status.posOne': '1 POS connected',
  'status.posMany': '{n} POS connected',
  'status.posPaired': 'Paired POS: {n}',
  'status.posAnonymous': 'Connections not paired yet: {n}',
  'status.mode': 'Mode',
  'mode.training': 'Training',
  'mode.live': 'Live',
  'mode.trainingDetail': 'Nothing is really charged. Receipts are marked as training.',
  'mode.liveDetail': 'Sales are really charged.',
  'status.version': 'Pinbridge {version}',

  'payment.title': 'Payment in progress',
  'payment.empty': 'No payment in progress. When the POS starts a payment, it shows here step by step.',
  'payment.cancel': 'Cancel payment',
  'payment.cancelling': 'Cancelling…',
  'payment.steps': 'Steps',
  'payment.reference': 'Reference',
  'payment.terminal': 'PINPAD',
  'payment.type': 'Type',
  'payment.card': 'Card',
  'payment.nsu': 'NSU',
  'payment.authorization': 'Authorization',
  'payment.reason': 'Reason',
  'payment.time': 'Time',
  'payment.confirmation': 'Confirmation',
  'payment.others': 'Other payments in progress',
  'payment.show': 'Show {amount} ({message})',
  'payment.pinpadSays': 'PINPAD: {text}',
  'notice.payment': 'Payment in progress: {amount} — {message}',
  'notice.pairing': 'Pairing request from “{name}”: code {code}',
  'notice.see': 'Show',

  'result.approved': 'APPROVED',
  'result.declined': 'DECLINED',
  'result.failed': 'FAILED',
  'result.cancelled': 'CANCELLED',
  'confirmation.pending': 'waiting for confirmation',
  'confirmation.confirmed': 'sale confirmed',
  'confirmation.undone': 'sale voided',

  'type.credit': 'Credit',
  'type.debit': 'Debit',
  'type.creditInstallments': 'Credit in {n} installments',

  'state.inProgress': 'In progress',
  'state.awaitingConfirmation': 'Approved — waiting for confirmation',
  'state.confirmed': 'Approved',
  'state.declined': 'Declined',
  'state.failed': 'Failed',
  'state.cancelled': 'Cancelled',
  'state.undone': 'Voided',
  'state.undoing': 'Voiding…',
  'state.reversed': 'Reversed (nothing charged)',
  'state.reversing': 'Reversing…',
  'state.aborting': 'Cancelling…',

  'filter.label': 'Status',
  'filter.all': 'All',
  'filter.approved': 'Approved',
  'filter.declined': 'Declined',
  'filter.failed': 'Failed',
  'filter.cancelled': 'Cancelled and voided',
  'filter.inProgress': 'In progress',

  'transactions.title': "Today's sales",
  'transactions.refresh': 'Refresh',
  'transactions.caption': "Today's sales, newest first",
  'transactions.countOne': '1 sale today',
  'transactions.countMany': '{n} sales today',
  'transactions.countFiltered': '{shown} of {total} sales today',
  'transactions.truncated': 'Showing the {n} newest.',
  'transactions.empty': 'No sales today.',
  'transactions.emptyFilter': 'No sales with this status today.',
  'transactions.open': 'Open',
  'transactions.openLabel': 'Open the {amount} sale of {time}',
  'col.time': 'Time',
  'col.amount': 'Amount',
  'col.type': 'Type',
  'col.status': 'Status',
  'col.card': 'Card',
  'col.actions': 'Actions',
  'col.name': 'Name',
  'col.origin': 'Origin',
  'col.connection': 'Connection',
  'col.lastSeen': 'Last seen',
  'col.pairedAt': 'Paired on',

  'sale.title': 'Sale of {amount}',
  'sale.close': 'Close',
  'sale.reprint': 'Reprint this copy',
  'sale.printQueued': 'Sent to the printer.',
  'sale.printPrinted': 'Printed.',
  'sale.printFailed': 'Printing failed: {error}',
  'sale.void': 'Cancel sale',
  'sale.confirm': 'Confirm sale',
  'sale.undo': 'Undo sale',
  'sale.cancelRunning': 'Cancel payment',
  'sale.voided': "Sale cancelled: the amount was refunded to the customer's card.",
  'sale.confirmed': 'Sale confirmed.',
  'sale.cancelled': 'Payment cancelled.',
  'receipt.copy': 'Copy',
  'receipt.customer': 'Customer copy',
  'receipt.merchant': 'Merchant copy',
  'receipt.cancellation': 'Cancellation receipt',
  'receipt.loading': 'Loading the receipt…',
  'receipt.none': 'This sale has no receipt (the card was never read).',
  'receipt.error': 'Receipt unavailable: {message}',
  'receipt.frameTitle': 'Receipt — {copy}',

  'confirm.back': 'Go back',
  'void.title': 'Cancel this sale?',
  'void.text': "The {amount} sale ({type}, {card}) will be cancelled and the amount refunded to the customer's card. The cancellation cannot be undone.",
  'void.yes': 'Yes, cancel the sale',
  'undo.title': 'Undo this sale?',
  'undo.text': 'The POS has not confirmed the {amount} sale yet. Undoing cancels the authorization: nothing stays charged to the customer.',
  'undo.yes': 'Yes, undo',
  'cancelRunning.title': 'Cancel the payment in progress?',
  'cancelRunning.text': 'The {amount} payment will be stopped on the PINPAD. If it was approved already, it will be voided.',
  'cancelRunning.yes': 'Yes, cancel the payment',
  'revoke.title': 'Revoke “{name}”?',
  'revoke.text': 'This POS can no longer charge through this Pinbridge and is disconnected now. To use it again, it must be paired again.',
  'revoke.yes': 'Yes, revoke',

  'pending.title': 'Waiting for confirmation',
  'pending.text': 'Approved sales the POS has not confirmed yet. Without a confirmation by the deadline, Pinbridge undoes the sale by itself.',
  'pending.confirm': 'Confirm',
  'pending.confirmLabel': 'Confirm the {amount} sale of {time}',
  'pending.undo': 'Undo',
  'pending.undoLabel': 'Undo the {amount} sale of {time}',
  'pending.undos': 'Cancellations waiting for the payments service',
  'pending.undosText': 'Pinbridge repeats these cancellations by itself until the payments service answers.',

  'training.title': 'Test sale',
  'training.text': 'Run a training sale from start to end: the simulated customer presents the card by itself.',
  'training.amount': 'Amount (R$)',
  'training.amountHint': 'Use a comma before the centavos, e.g. 12,34.',
  'training.type': 'Type',
  'training.debitHint': 'The simulated card is a credit card: on debit, the sale ends with “card not accepted”.',
  'training.start': 'Start test sale',
  'training.badAmount': 'Invalid amount: type reais and centavos with a comma, e.g. 12,34.',

  'clients.title': 'POS clients',
  'pairings.title': 'Pairing requests',
  'pairings.empty': 'No requests now. When a POS asks to pair, its code shows here.',
  'pairings.instructions': 'Type this code in the POS.',
  'pairings.codeLabel': 'Code: {digits}',
  'pairings.origin': 'Origin: {origin}',
  'pairings.program': 'A program on this computer',
  'pairings.expiresIn': 'Expires in {time}',
  'pairings.expired': 'Expired',
  'pairings.reject': 'Reject',
  'pairings.rejectLabel': 'Reject the request from “{name}”',
  'paired.title': 'Paired POS',
  'paired.empty': 'No POS paired yet.',
  'paired.caption': 'POS paired with this Pinbridge',
  'paired.connectedOne': 'Connected',
  'paired.connectedMany': 'Connected ({n} connections)',
  'paired.offline': 'Disconnected',
  'paired.never': 'Never',
  'paired.program': 'A program on this computer',
  'paired.revoke': 'Revoke',
  'paired.revokeLabel': 'Revoke “{name}”',
  'paired.revoked': 'Revoked ({n})',
  'paired.revokedAt': '{name} ({origin}) — revoked on {time}',
  'paired.revokedDone': '“{name}” was revoked.',
  'blocked.title': 'Blocked origins',
  'blocked.empty': 'No blocked origins.',
  'blocked.since': 'blocked on {time}',
  'blocked.unblock': 'Unblock',
  'blocked.unblockLabel': 'Unblock {origin}',
  'blocked.unblocked': '{origin} was unblocked.',
};

const CATALOGS: Readonly<Record<Language, Readonly<Record<MessageKey, string>>>> = { 'pt-BR': PT_BR, en: EN };
const LANGUAGE_STORAGE = 'pinbridge-window:language';

function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE) === 'en' ? 'en' : 'pt-BR';
  } catch {
    return 'pt-BR';
  }
}

let language: Language = storedLanguage();
const listeners = new Set<() => void>();

export function currentLanguage(): Language {
  return language;
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(PT_BR, key);
}

/** The text of `key` in the current language, `{name}` placeholders filled from `vars`. */
export function t(key: MessageKey, vars: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : whole));
}

/** `one` for 1, `many` (with {n}) otherwise. */
export function plural(count: number, one: MessageKey, many: MessageKey): string {
  return count === 1 ? t(one, { n: count }) : t(many, { n: count });
}

/** Switches the language, remembers it, and tells the pages to render again. */
export function setLanguage(next: Language): void {
  language = next;
  try {
    localStorage.setItem(LANGUAGE_STORAGE, next);
  } catch {
    // Storage disabled: the choice lasts until the page is reloaded.
  }
  document.documentElement.lang = next;
  translateStatic(document);
  for (const listener of listeners) listener();
}

export function onLanguageChange(listener: () => void): void {
  listeners.add(listener);
}

/**
 * Fills the static texts of index.html: `data-i18n="key"` sets the text, and
 * `data-i18n-attr="aria-label:key;title:key"` sets attributes. An unknown key is a bug in the
 * page: it is reported on the console (the browser tests fail on console errors).
 */
export function translateStatic(root: ParentNode): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    const key = element.dataset.i18n ?? '';
    if (isMessageKey(key)) element.textContent = t(key);
    else console.error(`The window has no text "${key}"`);
  }
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n-attr]')) {
    for (const pair of (element.dataset.i18nAttr ?? '').split(';')) {
      const [attribute, key] = pair.split(':').map((part) => part.trim());
      if (attribute === undefined || key === undefined || attribute === '') continue;
      if (isMessageKey(key)) element.setAttribute(attribute, t(key));
      else console.error(`The window has no text "${key}"`);
    }
  }
}

/** "14:05:09" in the current language's clock. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "21/11/2026 14:05" (pt-BR) or "11/21/2026, 02:05 PM" (en). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(language, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Seconds left as "1:05". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
