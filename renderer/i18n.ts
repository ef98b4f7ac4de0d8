/**
 * The window's texts in Brazilian Portuguese (the default: it is for a cashier in Brazil) and
 * English, the language switch (remembered in localStorage), and dates and times in the chosen
 * language. Static texts in index.html name their key in `data-i18n` (and attributes in
 * `data-i18n-attr="aria-label:key"`); the pages call `t()` when they render.
 */

export type Language = 'pt-BR' | 'en';

const PT_BR = {
  skip: 'Pular para o conteúdo',
  'nav.label': 'Páginas',
  'nav.status': 'Situação',
  'nav.payment': 'Pagamento',
  'nav.transactions': 'Vendas de hoje',
  'nav.clients': 'Caixas (PDV)',
  'nav.settings': 'Configurações',
  'nav.support': 'Suporte',
  // The narrow window's navigation rail: a word under each icon (the full name stays the link's name).
  'nav.short.status': 'Situação',
  'nav.short.payment': 'Pagamento',
  'nav.short.transactions': 'Vendas',
  'nav.short.clients': 'Caixas',
  'nav.short.settings': 'Ajustes',
  'nav.short.support': 'Suporte',
  'nav.paymentBadge': 'pagamento em andamento',
  'nav.pairingsOne': '{n} pedido de pareamento',
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
  'login.unreachable.text':
    'Verifique se o Pinbridge está aberto neste computador. Esta página tenta de novo a cada 5 segundos.',
  'login.hint':
    'Sem o aplicativo? Em um terminal: pinbridge start --headless. A chave também fica no arquivo ~/.pinbridge/operator.key.',
  'login.retry': 'Tentar de novo',

  'status.title': 'Situação',
  'status.pinpads': 'PINPAD',
  'status.noPinpad': 'Nenhum PINPAD encontrado. Verifique o cabo ou a conexão do PINPAD.',
  'status.linkRetrying': 'O Pinbridge continua tentando sozinho; o endereço do PINPAD fica em Configurações.',
  'status.connected': 'Conectado',
  'status.disconnected': 'Desconectado',
  'status.free': 'livre',
  'status.busy': 'ocupado',
  'status.busyWith': 'Ocupado com a venda {reference}',
  'status.tablesLoading': 'Atualizando as tabelas EMV (versão {version})…',
  'status.tablesCurrent': 'Tabelas EMV em dia (versão {version})',
  'status.tablesFailed': 'Tabelas EMV indisponíveis: as vendas serão recusadas. Chame o suporte técnico.',
  'status.serial': 'Número de série',
  'status.firmware': 'Firmware',
  'status.address': 'Porta',
  'status.printerAddress': 'Endereço',
  'status.folderPrinter': 'Impressora virtual: cada comprovante é salvo como arquivo nesta pasta, sem papel.',
  'status.printers': 'Impressoras',
  'status.noPrinter': 'Nenhuma impressora de comprovantes configurada.',
  'status.printerUnknown': 'Ainda não verificada',
  'status.printerReady': 'Pronta',
  'status.paperOut': 'Sem papel',
  'status.paperLow': 'Papel acabando',
  'status.coverOpen': 'Tampa aberta',
  'status.printerOffline': 'Desconectada',
  'status.printerError': 'Erro: {error}',
  'printError.UNREACHABLE': 'a impressora não foi encontrada: veja se está ligada e com o cabo (ou a rede) conectado',
  'printError.DISCONNECTED': 'a impressora foi desconectada: confira o cabo e se ela está ligada',
  'printError.TIMEOUT': 'a impressora não respondeu a tempo: veja se está ligada',
  'printError.PERMISSION_DENIED': 'o computador não deu acesso à impressora: chame o suporte',
  'printError.NOT_OPEN': 'a impressora não estava pronta: tente de novo',
  'printError.PAPER_OUT': 'a impressora está sem papel',
  'printError.COVER_OPEN': 'a tampa da impressora está aberta',
  'printError.PRINTER_ERROR': 'a impressora indica um defeito: desligue-a e ligue de novo',
  'printError.COMMAND_FAILED': 'a impressora do sistema recusou o trabalho: veja a fila de impressão do computador',
  'printError.IO_ERROR': 'não foi possível enviar para a impressora: confira a conexão',
  'printError.INVALID_ADDRESS': 'o endereço da impressora nas configurações não é válido',
  'printError.NO_PRINTER': 'nenhuma impressora com esse nome está configurada',
  'printError.UNRECOVERABLE': 'a impressora indica um defeito que não se resolve sozinho: desligue-a e ligue de novo',
  'printError.MECHANICAL': 'a impressora indica um problema mecânico: desligue-a e ligue de novo',
  'printError.AUTOCUTTER': 'o cortador de papel travou: abra a tampa, solte o papel e feche',
  'printError.AUTO_RECOVERABLE':
    'a impressora se recupera sozinha (cabeça quente ou tampa aberta durante a impressão): aguarde',
  'printError.other': 'erro da impressora ({code})',
  'printer.defaultName': 'Impressora de comprovantes',
  'apiError.authentication_failed':
    'o serviço de pagamentos recusou a chave de acesso: confira o token nas configurações',
  'apiError.permission_denied': 'o serviço de pagamentos não permite esta operação para esta loja',
  'apiError.rate_limited': 'o serviço de pagamentos pediu para esperar (muitas chamadas)',
  'apiError.request_timeout': 'o serviço de pagamentos não respondeu a tempo',
  'apiError.timeout': 'o serviço de pagamentos não respondeu a tempo',
  'apiError.server_error': 'o serviço de pagamentos teve um erro interno',
  'apiError.connection_error': 'sem conexão com o serviço de pagamentos: confira a internet',
  'apiError.invalid_response': 'o serviço de pagamentos respondeu algo inesperado',
  'apiError.not_enabled': 'este recurso não está habilitado para a loja no serviço de pagamentos',
  'apiError.not_found': 'o serviço de pagamentos não encontrou o registro pedido',
  'apiError.validation_error': 'o serviço de pagamentos recusou os dados enviados',
  'apiError.invalid_request':
    'os dados não foram enviados ao serviço de pagamentos por estarem incompletos ou inválidos',
  'apiError.conflict': 'o serviço de pagamentos recusou a operação no estado atual do registro',
  'apiError.request_failed': 'o serviço de pagamentos recusou a chamada',
  'apiError.other': 'erro do serviço de pagamentos ({code})',
  'status.api': 'Serviço de pagamentos',
  'status.apiUp': 'Respondendo',
  'status.apiDown': 'Sem comunicação',
  'status.apiUnknown': 'Ainda não consultado',
  'status.stale': 'Sem informação: o Pinbridge não está respondendo',
  'status.staleSince': 'Última informação às {time}; volta sozinha quando a conexão voltar.',
  'status.since': 'Desde {time}',
  'status.lastError': 'Último erro: {message}',
  'status.pos': 'Caixas (PDV)',
  'status.posNone': 'Nenhum caixa conectado',
  'status.posOne': '{n} caixa conectado',
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
  'payment.empty':
    'Nenhum pagamento em andamento. Quando um caixa (PDV) iniciar um pagamento, ele aparece aqui, passo a passo.',
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
  'payment.titleApproved': 'Venda aprovada',
  'payment.titleDeclined': 'Venda negada',
  'payment.titleFailed': 'Pagamento não realizado',
  'payment.titleCancelled': 'Pagamento cancelado',
  'payment.receipts': 'Comprovantes',
  'payment.printCustomer': 'Imprimir via do cliente',
  'payment.printMerchant': 'Imprimir via do estabelecimento',
  'notice.payment': 'Pagamento em andamento: {amount} — {message}',
  'notice.pairing': 'Pedido de pareamento de “{name}”: código {code}',
  'notice.see': 'Ver',

  'result.approved': 'APROVADA',
  'result.declined': 'NEGADA',
  'result.failed': 'NÃO REALIZADA',
  'result.cancelled': 'CANCELADA',
  'result.in_progress': 'EM CONFIRMAÇÃO',
  'confirmation.pending': 'aguardando confirmação',
  'confirmation.confirmed': 'venda confirmada',
  'confirmation.undone': 'venda cancelada ou desfeita',

  'type.credit': 'Crédito',
  'type.creditSingle': 'Crédito à vista',
  'type.debit': 'Débito',
  'type.creditInstallments': 'Crédito em {n}x',

  'state.inProgress': 'Em andamento',
  'state.awaitingConfirmation': 'Aprovada — aguardando confirmação',
  'state.confirmed': 'Aprovada',
  'state.declined': 'Negada',
  'state.failed': 'Não realizada',
  'state.cancelled': 'Cancelada',
  'state.undone': 'Cancelada',
  'state.undoing': 'Cancelando…',
  'state.undoneUnconfirmed': 'Desfeita (nada cobrado)',
  'state.undoingUnconfirmed': 'Desfazendo…',
  'state.reversed': 'Desfeita (nada cobrado)',
  'state.reversing': 'Desfazendo…',
  'state.aborting': 'Cancelando…',

  'filter.label': 'Situação',
  'filter.all': 'Todas',
  'filter.approved': 'Aprovadas',
  'filter.declined': 'Negadas',
  'filter.failed': 'Não realizadas',
  'filter.cancelled': 'Canceladas e desfeitas',
  'filter.inProgress': 'Em andamento',

  'transactions.title': 'Vendas de hoje',
  'transactions.refresh': 'Atualizar',
  'transactions.caption': 'Vendas de hoje, da mais recente para a mais antiga',
  'transactions.countNone': 'Nenhuma venda hoje',
  'transactions.countOne': '{n} venda hoje',
  'transactions.countMany': '{n} vendas hoje',
  'transactions.countFiltered': '{shown} de {total} vendas hoje',
  'transactions.truncated': 'Mostrando as {n} mais recentes.',
  'transactions.empty': 'Nenhuma venda hoje.',
  'transactions.emptyFilter': 'Nenhuma venda com esta situação hoje.',
  'transactions.open': 'Abrir',
  'transactions.openLabel': 'Abrir a venda de {amount} das {time}',

  'search.title': 'Buscar uma venda',
  'search.from': 'De',
  'search.to': 'Até',
  'search.amount': 'Valor (R$)',
  'search.code': 'NSU ou autorização',
  'search.last4': 'Últimos 4 dígitos',
  'search.submit': 'Buscar',
  'search.clear': 'Limpar',
  'search.badAmount': 'Valor inválido: digite reais e centavos com vírgula, por exemplo 12,34.',
  'search.badCode': 'Digite o NSU ou o código de autorização como estão no comprovante: só letras e números, até 20.',
  'search.badLast4': 'Digite os 4 últimos números do cartão, só números.',
  'search.badDates': 'A data final é anterior à data inicial.',
  'search.resultTitle': 'Resultado da busca',
  'search.caption': 'Vendas encontradas, da mais recente para a mais antiga',
  'search.countNone': 'Nenhuma venda encontrada',
  'search.countOne': '{n} venda encontrada',
  'search.countMany': '{n} vendas encontradas',
  'search.countFiltered': '{shown} de {total} vendas encontradas',
  'search.empty': 'Nenhuma venda encontrada com estes dados.',
  'search.emptyFilter': 'Nenhuma venda encontrada com esta situação.',

  'reprintLast.button': 'Reimprimir último comprovante',
  'reprintLast.hint': 'Reimprime a via do cliente da venda mais recente (tecla F8)',
  'reprintLast.which': 'Último comprovante: venda de {amount} às {time}.',
  'reprintLast.none': 'Ainda não há venda com comprovante para reimprimir.',
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
  'sale.printQueued': 'Na fila da impressora…',
  'sale.printPrinting': 'Imprimindo…',
  'sale.printRetrying': 'Ainda não impresso: {error}. O Pinbridge tenta de novo sozinho.',
  'sale.printPrinted': 'Impresso.',
  'sale.printFailed': 'A impressão falhou: {error}',
  'sale.void': 'Cancelar venda',
  'sale.confirm': 'Confirmar venda',
  'sale.undo': 'Desfazer venda',
  'sale.cancelRunning': 'Cancelar pagamento',
  'sale.voided': 'Venda cancelada: o valor volta para o cartão do cliente.',
  'sale.undone': 'Venda desfeita: nada fica cobrado do cliente.',
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
  'void.text':
    'A venda de {amount} ({type}, {card}) será cancelada e o valor volta para o cartão do cliente. Um cancelamento não tem volta.',
  'void.yes': 'Sim, cancelar venda',
  'undo.title': 'Desfazer esta venda?',
  'undo.text':
    'A venda de {amount} ainda não foi confirmada pelo caixa (PDV). Desfazer anula a autorização: nada fica cobrado do cliente.',
  'undo.yes': 'Sim, desfazer',
  'cancelRunning.title': 'Cancelar o pagamento em andamento?',
  'cancelRunning.text':
    'O pagamento de {amount} será interrompido no PINPAD. Se já tiver sido aprovado, a aprovação será desfeita.',
  'cancelRunning.yes': 'Sim, cancelar pagamento',
  'revoke.title': 'Revogar “{name}”?',
  'revoke.text':
    'Este caixa (PDV) deixa de poder cobrar neste Pinbridge e é desconectado agora. Para usá-lo de novo, será preciso pareá-lo outra vez.',
  'revoke.yes': 'Sim, revogar',

  'supervisor.title': 'Supervisor',
  'supervisor.required': 'Pedir a senha do supervisor para cancelar ou desfazer uma venda aprovada',
  'supervisor.requiredHint':
    'Vale para o cancelamento feito nesta janela (Vendas de hoje). Passa a valer depois de salvar e reiniciar.',
  'supervisor.minAmount': 'Só para vendas a partir de (R$)',
  'supervisor.minAmountHint': 'Em branco: todas as vendas.',
  'supervisor.entry': 'Onde o supervisor digita a senha',
  'supervisor.entryWindow': 'Nesta janela',
  'supervisor.entryPinpad': 'No teclado do PINPAD (os números aparecem na tela do PINPAD)',
  'supervisor.entryEither': 'Nos dois: o supervisor escolhe',
  'supervisor.pos': 'Cancelamentos pedidos pelo sistema de vendas (PDV) também pedem a senha, no PINPAD',
  'supervisor.posHint': 'Desligado: o PDV é responsável pela autorização dos cancelamentos que ele pede.',
  'supervisor.pin': 'Senha do supervisor (4 a 8 números)',
  'supervisor.pinSave': 'Guardar senha do supervisor',
  'supervisor.pinHint':
    'A senha nunca é mostrada e não fica no arquivo de configurações. Para trocá-la, digite a nova e guarde. Cinco senhas erradas seguidas bloqueiam a senha por 5 minutos.',
  'supervisor.pinStored': 'Senha do supervisor cadastrada.',
  'supervisor.pinNone': 'Nenhuma senha de supervisor cadastrada.',
  'supervisor.pinNow': 'Já está valendo.',
  'supervisor.pinInvalid': 'A senha do supervisor deve ter de 4 a 8 números.',
  'supervisor.pinLabel': 'Senha do supervisor',
  'supervisor.usePinpad': 'Digitar no PINPAD',
  'supervisor.pinMissing': 'Digite a senha do supervisor.',
  'supervisor.pinShape': 'A senha do supervisor tem de 4 a 8 números.',
  'supervisor.checking': 'Conferindo a senha…',
  'supervisor.waitingPinpad': 'Aguardando o supervisor digitar a senha no PINPAD…',
  'supervisor.trainingHint': 'Treinamento: a senha 1234 também vale (o PINPAD simulado a digita sozinho).',

  'pending.title': 'Aguardando confirmação',
  'pending.text':
    'Vendas aprovadas que o caixa (PDV) ainda não confirmou. Sem confirmação até o prazo, o Pinbridge desfaz a venda sozinho.',
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
  'training.debitHint':
    'O cliente simulado apresenta um cartão do tipo escolhido, crédito ou débito, e a venda é aprovada. Para praticar uma venda negada, termine o valor em ,51 (saldo insuficiente) ou ,55 (senha inválida).',
  'training.start': 'Iniciar venda de teste',
  'training.badAmount': 'Valor inválido: digite reais e centavos com vírgula, por exemplo 12,34.',

  'clients.title': 'Caixas (PDV)',
  'pairings.title': 'Pedidos de pareamento',
  'pairings.empty': 'Nenhum pedido agora. Quando um caixa (PDV) pedir para parear, o código aparece aqui.',
  'pairings.instructions': 'Digite este código no caixa (PDV).',
  'pairings.codeLabel': 'Código: {digits}',
  'pairings.origin': 'Origem: {origin}',
  'pairings.program': 'Programa neste computador',
  'pairings.expiresIn': 'Expira em {time} (às {at})',
  'pairings.expired': 'Expirado',
  'pairings.reject': 'Recusar',
  'guard.wrong':
    'Atenção: {n} código(s) de pareamento errado(s) nas últimas 24 horas (o pareamento trava em {budget}). Se não foi um caixa da loja digitando errado, bloqueie a origem.',
  'guard.locked':
    'Pareamento travado: {n} códigos errados nas últimas 24 horas. Bloqueie as origens abaixo e depois desbloqueie o pareamento.',
  'guard.origin': '{origin}: {n} código(s) errado(s)',
  'guard.block': 'Bloquear a origem',
  'guard.blockLabel': 'Bloquear a origem {origin}',
  'guard.unlock': 'Desbloquear pareamento',
  'guard.unlocked': 'Pareamento desbloqueado.',
  'pairings.rejectLabel': 'Recusar o pedido de “{name}”',
  'paired.title': 'Caixas pareados',
  'paired.empty': 'Nenhum caixa pareado ainda.',
  'paired.caption': 'Caixas pareados com este Pinbridge',
  'paired.connectedOne': 'Conectado',
  'paired.connectedMany': 'Conectado ({n} conexões)',
  'paired.offline': 'Desconectado',
  'paired.never': 'Nunca',
  'paired.now': 'Agora',
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

  'settings.title': 'Configurações',
  'settings.loading': 'Carregando as configurações…',
  'settings.path': 'Arquivo: {path}',
  'settings.noFile':
    'Ainda não há arquivo de configurações ({path}): o Pinbridge usa as configurações padrão, em modo de treinamento. Salvar cria o arquivo.',
  'settings.problemTitle': 'O arquivo de configurações tem erros',
  'settings.problemText':
    'Por causa deles, o Pinbridge começou com as configurações padrão (modo de treinamento). Corrija os campos marcados e salve; as correções valem quando o Pinbridge for reiniciado.',
  'settings.problemSaved': 'Configurações salvas: reinicie o Pinbridge (no fim da página) para que ele as use.',
  'settings.api': 'Serviço de pagamentos',
  'settings.apiHint': 'Os três campos juntos ligam o modo de produção. Os três em branco: modo de treinamento.',
  'settings.baseUrl': 'Endereço do serviço (URL)',
  'settings.marketplaceId': 'ID do marketplace',
  'settings.sellerId': 'ID do vendedor (seller)',
  'settings.token': 'Token do serviço de pagamentos',
  'settings.tokenSave': 'Guardar token',
  'settings.tokenHint':
    'O token nunca é mostrado e não fica no arquivo de configurações. Para trocá-lo, digite o novo e guarde.',
  'settings.tokenNone': 'Nenhum token guardado.',
  'settings.tokenStoredSafe': 'Token guardado, criptografado pelo sistema deste computador.',
  'settings.tokenStoredFile': 'Token guardado em um arquivo privado deste computador.',
  'settings.tokenEnvironment':
    'O token vem da variável de ambiente PINBRIDGE_API_TOKEN: para trocá-lo, mude a variável.',
  'settings.tokenRestart': 'O novo token vale quando o Pinbridge for reiniciado.',
  'settings.tokenShort': 'O token tem pelo menos {n} caracteres.',
  'settings.passphrase': 'Senha do certificado digital',
  'settings.passphraseSave': 'Guardar senha',
  'settings.passphraseHint':
    'Só para o certificado em arquivo .pfx ou .p12 (o A1 do ICP-Brasil). A senha nunca é mostrada e não fica no arquivo de configurações.',
  'settings.passphraseNone': 'Nenhuma senha de certificado guardada.',
  'settings.passphraseStoredSafe': 'Senha do certificado guardada, criptografada pelo sistema deste computador.',
  'settings.passphraseStoredFile': 'Senha do certificado guardada em um arquivo privado deste computador.',
  'settings.passphraseEnvironment':
    'A senha do certificado vem da variável de ambiente PINBRIDGE_CERT_PASSPHRASE: para trocá-la, mude a variável.',
  'settings.passphraseShort': 'Digite a senha do certificado.',
  'settings.passphraseRestart': 'A nova senha vale quando o Pinbridge for reiniciado.',
  'settings.pinpad': 'PINPAD',
  'settings.pinpadAddress': 'Endereço do PINPAD',
  'settings.pinpadHint':
    'Uma porta serial (/dev/ttyACM0, COM3), um PINPAD Bluetooth LE (ble:…, ache com Procurar Bluetooth), um PINPAD na rede (tcp://192.168.0.20:4000) ou “sim” para o simulado. Em branco: o PINPAD simulado.',
  'settings.detect': 'Procurar',
  'settings.detecting': 'Procurando portas seriais…',
  'settings.portsNone':
    'Nenhuma porta serial encontrada. Verifique o cabo do PINPAD; um PINPAD na rede se digita como tcp://endereço:porta.',
  'settings.portsOne': '1 porta serial encontrada:',
  'settings.portsMany': '{n} portas seriais encontradas:',
  'settings.portUnknown': 'aparelho desconhecido',
  'settings.portLikely': 'provável PINPAD',
  'settings.portUse': 'Usar',
  'settings.portUseLabel': 'Usar a porta {address}',
  'settings.portChosen': 'Porta {address} escolhida: salve para usá-la.',
  'settings.bleScan': 'Procurar Bluetooth',
  'settings.bleScanning': 'Procurando PINPADs Bluetooth… ({seconds} s)',
  'settings.bleNone':
    'Nenhum PINPAD Bluetooth encontrado. Ligue o PINPAD, deixe-o perto deste computador e procure de novo.',
  'settings.bleOne': '1 PINPAD Bluetooth encontrado:',
  'settings.bleMany': '{n} PINPADs Bluetooth encontrados:',
  'settings.bleUnavailable':
    'Este computador não tem Bluetooth disponível: ligue o Bluetooth (ou conecte um adaptador) e procure de novo, ou use um PINPAD no cabo USB ou na rede.',
  'settings.bleNoName': 'PINPAD sem nome',
  'settings.bleSignalStrong': 'sinal forte',
  'settings.bleSignalMedium': 'sinal médio',
  'settings.bleSignalWeak': 'sinal fraco',
  'settings.bleSignal': '{signal} ({rssi} dBm)',
  'settings.bleUseLabel': 'Usar o PINPAD Bluetooth {name} ({address})',
  'settings.bleChosen': 'PINPAD Bluetooth {address} escolhido: salve para usá-lo.',
  'settings.sales': 'Vendas',
  'settings.confirmation': 'Confirmação das vendas aprovadas',
  'settings.confirmationAuto': 'Automática: o Pinbridge confirma a venda assim que ela é aprovada',
  'settings.confirmationPos': 'Pelo caixa (PDV): ele confirma ou desfaz; sem confirmação no prazo, a venda é desfeita',
  'settings.training': 'Modo de treinamento',
  'settings.trainingNow':
    'O Pinbridge está em treinamento agora, mesmo com esta chave desligada: o serviço de pagamentos ainda não foi configurado (seção “Serviço de pagamentos”, acima), ou ele foi iniciado com --training.',
  'settings.trainingHint':
    'Ligado: nada é cobrado de verdade, mesmo com o serviço de pagamentos configurado (para treinar um caixa novo).',
  'settings.receipts': 'Comprovantes: a loja',
  'settings.receiptsHint':
    'Como a loja aparece nos comprovantes. Fora do modo de treinamento, nenhum comprovante sai sem nome e CNPJ.',
  'settings.merchantName': 'Nome da loja',
  'settings.cnpj': 'CNPJ',
  'settings.cnpjHint':
    '14 caracteres: números ou, no CNPJ alfanumérico, letras e números; pontos, barra e traço podem ser digitados.',
  'settings.address': 'Endereço (até 4 linhas)',
  'settings.addressLine1': 'Endereço, linha 1',
  'settings.addressLine2': 'Endereço, linha 2',
  'settings.addressLine3': 'Endereço, linha 3',
  'settings.addressLine4': 'Endereço, linha 4',
  'settings.printer': 'Impressora de comprovantes',
  'settings.printerAddress': 'Endereço da impressora padrão',
  'settings.printerHint':
    'Na rede: tcp://192.168.0.50:9100. Serial: serial:///dev/ttyUSB0?baud=9600 (serial:COM3 no Windows). Impressora do sistema: lp://NOME.',
  'settings.systemPrinters': 'Impressoras do sistema',
  'settings.systemPrintersHint':
    'No aplicativo para computador, uma impressora do sistema imprime o comprovante no tamanho do próprio papel: a largura da bobina e a altura do comprovante, não uma folha A4.',
  'settings.systemPrintersLoading': 'Procurando as impressoras do sistema…',
  'settings.systemPrintersNone':
    'Nenhuma impressora do sistema: este computador não tem impressoras instaladas (ou, no Linux, falta o CUPS). Uma impressora na rede se digita como tcp://IP:9100.',
  'settings.systemPrintersOne': '1 impressora do sistema:',
  'settings.systemPrintersMany': '{n} impressoras do sistema:',
  'settings.systemPrinterDefault': 'padrão',
  'settings.systemPrinterUseLabel': 'Usar a impressora {name}',
  'settings.systemPrinterChosen': 'Impressora {address} escolhida: salve para usá-la.',
  'settings.testPrint': 'Imprimir teste',
  'settings.testPrintHint':
    'Imprime uma página de teste (acentos, uma linha de ponta a ponta e um QR code) na impressora padrão com que o Pinbridge começou: um endereço mudado acima vale depois de salvar e reiniciar.',
  'settings.testPrintSending': 'Enviando o teste para a impressora…',
  'settings.testPrintQueued': 'Teste na fila da impressora…',
  'settings.testPrintRetrying': 'Teste na fila: a impressora ainda não respondeu ({error}). O Pinbridge tenta de novo.',
  'settings.testPrintPrinting': 'Imprimindo o teste…',
  'settings.testPrintPrinted': 'Teste impresso. Confira no papel os acentos, a linha e o QR code.',
  'settings.testPrintFailed': 'O teste falhou: {error}',
  'settings.testPrintCancelled': 'A impressão do teste foi cancelada.',
  'settings.testPrintOff':
    'Não há impressora para o teste: preencha o nome e o CNPJ da loja e o endereço da impressora, salve e reinicie o Pinbridge (as configurações valem no próximo início).',
  'settings.clients': 'Caixas (PDV) pareados',
  'settings.clientsText':
    'Os caixas (PDV) pareados com este Pinbridge, e as origens bloqueadas, ficam na página Caixas (PDV).',
  'settings.clientsLink': 'Abrir Caixas (PDV)',
  'settings.save': 'Salvar configurações',
  'settings.saved': 'Configurações salvas. As mudanças valem quando o Pinbridge for reiniciado.',
  'settings.restartTitle': 'Aplicar as mudanças',
  'settings.restartText':
    'As mudanças valem quando o Pinbridge reiniciar. Esta janela e os caixas (PDV) se reconectam sozinhos em alguns segundos.',
  'settings.restartNow': 'Reiniciar o Pinbridge agora',
  'settings.restartConfirmTitle': 'Reiniciar o Pinbridge?',
  'settings.restartConfirmText':
    'Os caixas (PDV) ficam sem o Pinbridge por alguns segundos. Nenhuma venda é interrompida: com o PINPAD ocupado, o reinício é recusado.',
  'settings.restartConfirm': 'Sim, reiniciar',
  'settings.restarting': 'Reiniciando o Pinbridge…',
  'settings.restarted': 'Pinbridge reiniciado: as novas configurações estão em uso.',
  'settings.restartBusy': 'O PINPAD está com uma venda ou pergunta em andamento: reinicie quando ela terminar.',
  'settings.restartByHand': 'Este Pinbridge não se reinicia sozinho: feche-o e abra-o de novo.',
  'settings.notApplied':
    'O Pinbridge reiniciou, mas não conseguiu usar as configurações salvas e voltou às anteriores. Motivo: {reason}',
  'settings.notSavedOne': 'Nada foi salvo: corrija o campo marcado.',
  'settings.notSavedMany': 'Nada foi salvo: corrija os {n} problemas marcados.',
  'settings.violationRequired': 'Preencha este campo.',
  'settings.violationUrl': 'Use um endereço que comece com https:// (ou http://), sem espaços.',
  'settings.violationPinpadAddress':
    'Endereço de PINPAD inválido: use a porta serial (/dev/ttyACM0, COM3), tcp://IP:PORTA de um PINPAD de rede (como tcp://10.0.0.5:4000), ble:<id> de um PINPAD Bluetooth, ou sim para o simulado.',
  'settings.violationAmount': 'Valor inválido: escreva em reais, por exemplo 100,00 (em branco: todas as vendas).',
  'settings.violationPrinterAddress':
    'Endereço de impressora inválido: use tcp://IP:PORTA de uma impressora de rede (como tcp://192.168.0.50:9100), serial:///dev/ttyUSB0?baud=9600 (serial:COM3 no Windows) ou lp://NOME de uma impressora do sistema.',
  'settings.violationTimeZone':
    'Fuso horário inválido: use o nome do fuso, como America/Sao_Paulo, America/Manaus ou America/Rio_Branco.',
  'settings.violationOther': 'Valor não aceito (detalhe técnico: {message}).',
  'settings.violationOtherShort': 'Valor não aceito',
  'settings.violationCnpj':
    'O CNPJ tem 14 caracteres: 12 números ou letras e 2 dígitos verificadores (como 11.222.333/0001-81 ou 12.ABC.345/01DE-35).',
  'settings.violationCnpjDigits': 'Os dígitos verificadores não conferem: confira o CNPJ.',
  'settings.violationChoice': 'Escolha uma das opções.',
  'settings.violationNoToken':
    'Nenhum token guardado: digite o token do serviço de pagamentos neste cartão e guarde-o.',
  'settings.violationPassphrase':
    'A senha do certificado digital está faltando ou errada: digite-a em "Senha do certificado digital" e guarde-a.',
  'settings.violationCertificate':
    'O certificado digital não pôde ser usado; confira os arquivos do certificado nas configurações.',

  'support.title': 'Suporte',
  'support.about': 'Este Pinbridge',
  'support.version': 'Versão',
  'support.mode': 'Modo',
  'support.doctor': 'Diagnóstico',
  'support.doctorText':
    'Verifica o arquivo de configurações, as permissões das portas seriais, o PINPAD, as impressoras, o serviço de pagamentos e as portas do PDV. Leva alguns segundos.',
  'support.doctorRun': 'Executar diagnóstico',
  'support.doctorRunning': 'Executando o diagnóstico…',
  'support.doctorAllOk': 'Diagnóstico das {time}: tudo certo.',
  'support.doctorProblems': 'Diagnóstico das {time}: {failed} com falha, {warned} com atenção.',
  'support.statusOk': 'OK',
  'support.statusWarn': 'Atenção',
  'support.statusFail': 'Falha',
  'support.statusSkip': 'Não verificado',
  'support.checkSettings': 'Arquivo de configurações',
  'support.checkSerial': 'Permissão das portas seriais',
  'support.checkPinpads': 'PINPAD',
  'support.checkPrinters': 'Impressoras',
  'support.checkApi': 'Serviço de pagamentos',
  'support.checkCertificate': 'Certificado digital',
  'support.checkPorts': 'Portas do PDV',
  'support.fix': 'Como resolver:',
  'support.copy': 'Copiar',
  'support.copyFixLabel': 'Copiar como resolver: {check}',
  'support.copied': 'Copiado.',
  'support.selected': 'Texto selecionado: tecle Ctrl+C para copiar.',
  'support.logs': 'Registros para o suporte',
  'support.logsText':
    'As últimas linhas do registro do Pinbridge, para enviar ao suporte. Elas não têm dados de cartão: o que parecer número de cartão sai mascarado.',
  'support.logsExport': 'Exportar registros',
  'support.logsExporting': 'Exportando…',
  'support.logsDownload': 'Baixar pinbridge-logs.txt',
  'support.logsCopy': 'Copiar registros',
  'support.logsCopied': 'Registros copiados.',
  'support.logsLabel': 'Registros exportados',
  'support.logsNoFile': 'Este Pinbridge registra só no terminal: não há arquivo de registros para exportar.',
  'support.logsEmpty': 'O registro ainda está vazio.',
  'support.logsOne': '1 linha exportada.',
  'support.logsMany': '{n} linhas exportadas.',
  'support.logsMaskedNone':
    'Dados de cartão não aparecem: números de cartão saem mascarados (6 primeiros e 4 últimos dígitos).',
  'support.logsMasked':
    'Dados de cartão não aparecem: {n} números parecidos com cartão foram mascarados (6 primeiros e 4 últimos dígitos).',
} as const;

export type MessageKey = keyof typeof PT_BR;

const EN: Readonly<Record<MessageKey, string>> = {
  skip: 'Skip to content',
  'nav.label': 'Pages',
  'nav.status': 'Status',
  'nav.payment': 'Payment',
  'nav.transactions': "Today's sales",
  'nav.clients': 'POS clients',
  'nav.settings': 'Settings',
  'nav.support': 'Support',
  'nav.short.status': 'Status',
  'nav.short.payment': 'Payment',
  'nav.short.transactions': 'Sales',
  'nav.short.clients': 'POS',
  'nav.short.settings': 'Settings',
  'nav.short.support': 'Support',
  'nav.paymentBadge': 'payment in progress',
  'nav.pairingsOne': '{n} pairing request',
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
  'login.hint':
    'No app? In a terminal: pinbridge start --headless. The key is also in the file ~/.pinbridge/operator.key.',
  'login.retry': 'Try again',

  'status.title': 'Status',
  'status.pinpads': 'PINPAD',
  'status.noPinpad': 'No PINPAD found. Check the PINPAD cable or connection.',
  'status.linkRetrying': 'Pinbridge keeps trying by itself; the PINPAD address is in Settings.',
  'status.connected': 'Connected',
  'status.disconnected': 'Disconnected',
  'status.free': 'free',
  'status.busy': 'busy',
  'status.busyWith': 'Busy with sale {reference}',
  'status.tablesLoading': 'Loading the EMV tables (version {version})…',
  'status.tablesCurrent': 'EMV tables up to date (version {version})',
  'status.tablesFailed': 'EMV tables unavailable: sales will be refused. Call technical support.',
  'status.serial': 'Serial number',
  'status.firmware': 'Firmware',
  'status.address': 'Port',
  'status.printerAddress': 'Address',
  'status.folderPrinter': 'Virtual printer: each receipt is kept as a file in this folder, no paper.',
  'status.printers': 'Printers',
  'status.noPrinter': 'No receipt printer configured.',
  'status.printerUnknown': 'Not checked yet',
  'status.printerReady': 'Ready',
  'status.paperOut': 'Out of paper',
  'status.paperLow': 'Paper running low',
  'status.coverOpen': 'Cover open',
  'status.printerOffline': 'Disconnected',
  'status.printerError': 'Error: {error}',
  'printError.UNREACHABLE': 'the printer cannot be found: check that it is on and its cable (or network) connected',
  'printError.DISCONNECTED': 'the printer was disconnected: check the cable and that it is on',
  'printError.TIMEOUT': 'the printer did not answer in time: check that it is on',
  'printError.PERMISSION_DENIED': 'this computer does not give access to the printer: call support',
  'printError.NOT_OPEN': 'the printer was not ready: try again',
  'printError.PAPER_OUT': 'the printer is out of paper',
  'printError.COVER_OPEN': "the printer's cover is open",
  'printError.PRINTER_ERROR': 'the printer reports a fault: turn it off and on again',
  'printError.COMMAND_FAILED': "the system printer refused the job: look at the computer's print queue",
  'printError.IO_ERROR': 'the receipt could not be sent to the printer: check the connection',
  'printError.INVALID_ADDRESS': "the printer's address in the settings is not valid",
  'printError.NO_PRINTER': 'no printer of that name is configured',
  'printError.UNRECOVERABLE': 'the printer reports a fault that does not clear by itself: turn it off and on again',
  'printError.MECHANICAL': 'the printer reports a mechanical problem: turn it off and on again',
  'printError.AUTOCUTTER': 'the paper cutter is jammed: open the cover, free the paper and close it',
  'printError.AUTO_RECOVERABLE': 'the printer recovers by itself (hot head, or cover opened while printing): wait',
  'printError.other': 'printer error ({code})',
  'printer.defaultName': 'Receipt printer',
  'apiError.authentication_failed': 'the payments service refused the access key: check the token in the settings',
  'apiError.permission_denied': 'the payments service does not allow this for this store',
  'apiError.rate_limited': 'the payments service asked to wait (too many calls)',
  'apiError.request_timeout': 'the payments service did not answer in time',
  'apiError.timeout': 'the payments service did not answer in time',
  'apiError.server_error': 'the payments service had an internal error',
  'apiError.connection_error': 'no connection to the payments service: check the internet',
  'apiError.invalid_response': 'the payments service answered something unexpected',
  'apiError.not_enabled': 'this feature is not enabled for the store at the payments service',
  'apiError.not_found': 'the payments service did not find the record asked for',
  'apiError.validation_error': 'the payments service refused the data sent',
  'apiError.invalid_request': 'the data was not sent to the payments service: incomplete or invalid',
  'apiError.conflict': "the payments service refused the operation in the record's current state",
  'apiError.request_failed': 'the payments service refused the call',
  'apiError.other': 'payments service error ({code})',
  'status.api': 'Payments service',
  'status.apiUp': 'Answering',
  'status.apiDown': 'Unreachable',
  'status.apiUnknown': 'Not asked yet',
  'status.stale': 'Unknown: Pinbridge is not answering',
  'status.staleSince': 'Last known at {time}; it comes back by itself when the connection does.',
  'status.since': 'Since {time}',
  'status.lastError': 'Last error: {message}',
  'status.pos': 'Point-of-sale systems (POS)',
  'status.posNone': 'No POS connected',
  'status.posOne': '{n} POS connected',
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
  'payment.titleApproved': 'Sale approved',
  'payment.titleDeclined': 'Sale declined',
  'payment.titleFailed': 'Payment not completed',
  'payment.titleCancelled': 'Payment cancelled',
  'payment.receipts': 'Receipts',
  'payment.printCustomer': 'Print customer copy',
  'payment.printMerchant': 'Print merchant copy',
  'notice.payment': 'Payment in progress: {amount} — {message}',
  'notice.pairing': 'Pairing request from “{name}”: code {code}',
  'notice.see': 'Show',

  'result.approved': 'APPROVED',
  'result.declined': 'DECLINED',
  'result.failed': 'FAILED',
  'result.cancelled': 'CANCELLED',
  'result.in_progress': 'BEING CONFIRMED',
  'confirmation.pending': 'waiting for confirmation',
  'confirmation.confirmed': 'sale confirmed',
  'confirmation.undone': 'sale voided or undone',

  'type.credit': 'Credit',
  'type.creditSingle': 'Credit, single payment',
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
  'state.undoneUnconfirmed': 'Undone (nothing charged)',
  'state.undoingUnconfirmed': 'Undoing…',
  'state.reversed': 'Reversed (nothing charged)',
  'state.reversing': 'Reversing…',
  'state.aborting': 'Cancelling…',

  'filter.label': 'Status',
  'filter.all': 'All',
  'filter.approved': 'Approved',
  'filter.declined': 'Declined',
  'filter.failed': 'Failed',
  'filter.cancelled': 'Cancelled, voided and undone',
  'filter.inProgress': 'In progress',

  'transactions.title': "Today's sales",
  'transactions.refresh': 'Refresh',
  'transactions.caption': "Today's sales, newest first",
  'transactions.countNone': 'No sales today',
  'transactions.countOne': '{n} sale today',
  'transactions.countMany': '{n} sales today',
  'transactions.countFiltered': '{shown} of {total} sales today',
  'transactions.truncated': 'Showing the {n} newest.',
  'transactions.empty': 'No sales today.',
  'transactions.emptyFilter': 'No sales with this status today.',
  'transactions.open': 'Open',
  'transactions.openLabel': 'Open the {amount} sale of {time}',

  'search.title': 'Find a sale',
  'search.from': 'From',
  'search.to': 'To',
  'search.amount': 'Amount (R$)',
  'search.code': 'NSU or authorization',
  'search.last4': 'Last 4 digits',
  'search.submit': 'Search',
  'search.clear': 'Clear',
  'search.badAmount': 'Invalid amount: type reais and centavos with a comma, for example 12,34.',
  'search.badCode':
    'Type the NSU or the authorization code as the receipt shows it: letters and digits only, up to 20.',
  'search.badLast4': 'Type the last 4 digits of the card, digits only.',
  'search.badDates': 'The end date is before the start date.',
  'search.resultTitle': 'Search results',
  'search.caption': 'Sales found, newest first',
  'search.countNone': 'No sales found',
  'search.countOne': '{n} sale found',
  'search.countMany': '{n} sales found',
  'search.countFiltered': '{shown} of {total} sales found',
  'search.empty': 'No sales found with these details.',
  'search.emptyFilter': 'No sales found with this status.',

  'reprintLast.button': 'Reprint last receipt',
  'reprintLast.hint': "Reprints the customer's copy of the newest sale (F8 key)",
  'reprintLast.which': 'Last receipt: the {amount} sale at {time}.',
  'reprintLast.none': 'There is no sale with a receipt to reprint yet.',
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
  'sale.printQueued': 'Waiting for the printer…',
  'sale.printPrinting': 'Printing…',
  'sale.printRetrying': 'Not printed yet: {error}. Pinbridge tries again by itself.',
  'sale.printPrinted': 'Printed.',
  'sale.printFailed': 'Printing failed: {error}',
  'sale.void': 'Cancel sale',
  'sale.confirm': 'Confirm sale',
  'sale.undo': 'Undo sale',
  'sale.cancelRunning': 'Cancel payment',
  'sale.voided': "Sale voided: the amount goes back to the customer's card.",
  'sale.undone': 'Sale undone: nothing stays charged to the customer.',
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
  'void.text':
    "The {amount} sale ({type}, {card}) will be voided and the amount goes back to the customer's card. A void cannot be reversed.",
  'void.yes': 'Yes, cancel the sale',
  'undo.title': 'Undo this sale?',
  'undo.text':
    'The POS has not confirmed the {amount} sale yet. Undoing annuls the authorization: nothing stays charged to the customer.',
  'undo.yes': 'Yes, undo',
  'cancelRunning.title': 'Cancel the payment in progress?',
  'cancelRunning.text':
    'The {amount} payment will be stopped on the PINPAD. If it was approved already, the approval will be undone.',
  'cancelRunning.yes': 'Yes, cancel the payment',
  'revoke.title': 'Revoke “{name}”?',
  'revoke.text':
    'This POS can no longer charge through this Pinbridge and is disconnected now. To use it again, it must be paired again.',
  'revoke.yes': 'Yes, revoke',

  'supervisor.title': 'Supervisor',
  'supervisor.required': "Ask for the supervisor's PIN to void or undo an approved sale",
  'supervisor.requiredHint':
    'Applies to voids made in this window (Today’s sales). In use after saving and restarting.',
  'supervisor.minAmount': 'Only for sales from (R$)',
  'supervisor.minAmountHint': 'Blank: every sale.',
  'supervisor.entry': 'Where the supervisor types the PIN',
  'supervisor.entryWindow': 'In this window',
  'supervisor.entryPinpad': "On the PINPAD keypad (the digits show on the PINPAD's screen)",
  'supervisor.entryEither': 'Either: the supervisor chooses',
  'supervisor.pos': 'Voids the POS asks for also need the PIN, on the PINPAD',
  'supervisor.posHint': 'Off: the POS is responsible for authorizing the voids it asks for.',
  'supervisor.pin': 'Supervisor PIN (4 to 8 digits)',
  'supervisor.pinSave': 'Store supervisor PIN',
  'supervisor.pinHint':
    'The PIN is never shown and is not in the settings file. To change it, type the new one and store it. Five wrong PINs in a row lock it for 5 minutes.',
  'supervisor.pinStored': 'A supervisor PIN is set.',
  'supervisor.pinNone': 'No supervisor PIN is set.',
  'supervisor.pinNow': 'It is in use now.',
  'supervisor.pinInvalid': 'The supervisor PIN must be 4 to 8 digits.',
  'supervisor.pinLabel': 'Supervisor PIN',
  'supervisor.usePinpad': 'Type on the PINPAD',
  'supervisor.pinMissing': "Type the supervisor's PIN.",
  'supervisor.pinShape': 'The supervisor PIN is 4 to 8 digits.',
  'supervisor.checking': 'Checking the PIN…',
  'supervisor.waitingPinpad': 'Waiting for the supervisor to type the PIN on the PINPAD…',
  'supervisor.trainingHint': 'Training: the PIN 1234 works too (the simulated PINPAD types it by itself).',

  'pending.title': 'Waiting for confirmation',
  'pending.text':
    'Approved sales the POS has not confirmed yet. Without a confirmation by the deadline, Pinbridge undoes the sale by itself.',
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
  'training.debitHint':
    'The simulated customer presents a card of the chosen type, credit or debit, and the sale is approved. To practise a declined sale, end the amount in ,51 (insufficient funds) or ,55 (wrong PIN).',
  'training.start': 'Start test sale',
  'training.badAmount': 'Invalid amount: type reais and centavos with a comma, e.g. 12,34.',

  'clients.title': 'POS clients',
  'pairings.title': 'Pairing requests',
  'pairings.empty': 'No requests now. When a POS asks to pair, its code shows here.',
  'pairings.instructions': 'Type this code in the POS.',
  'pairings.codeLabel': 'Code: {digits}',
  'pairings.origin': 'Origin: {origin}',
  'pairings.program': 'A program on this computer',
  'pairings.expiresIn': 'Expires in {time} (at {at})',
  'pairings.expired': 'Expired',
  'pairings.reject': 'Reject',
  'guard.wrong':
    'Warning: {n} wrong pairing code(s) in the last 24 hours (pairing locks at {budget}). Unless a till of this store mistyped, block the origin.',
  'guard.locked':
    'Pairing is locked: {n} wrong codes in the last 24 hours. Block the origins below, then unlock pairing.',
  'guard.origin': '{origin}: {n} wrong code(s)',
  'guard.block': 'Block the origin',
  'guard.blockLabel': 'Block the origin {origin}',
  'guard.unlock': 'Unlock pairing',
  'guard.unlocked': 'Pairing unlocked.',
  'pairings.rejectLabel': 'Reject the request from “{name}”',
  'paired.title': 'Paired POS',
  'paired.empty': 'No POS paired yet.',
  'paired.caption': 'POS paired with this Pinbridge',
  'paired.connectedOne': 'Connected',
  'paired.connectedMany': 'Connected ({n} connections)',
  'paired.offline': 'Disconnected',
  'paired.never': 'Never',
  'paired.now': 'Now',
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

  'settings.title': 'Settings',
  'settings.loading': 'Loading the settings…',
  'settings.path': 'File: {path}',
  'settings.noFile':
    'No settings file yet ({path}): Pinbridge uses the defaults, in training mode. Saving creates the file.',
  'settings.problemTitle': 'The settings file has mistakes',
  'settings.problemText':
    'Because of them, Pinbridge started with the default settings (training mode). Fix the marked fields and save; the fixes apply when Pinbridge restarts.',
  'settings.problemSaved': 'Settings saved: restart Pinbridge (at the end of the page) for it to use them.',
  'settings.api': 'Payments service',
  'settings.apiHint': 'The three fields together turn on live mode. All three blank: training mode.',
  'settings.baseUrl': 'Service address (URL)',
  'settings.marketplaceId': 'Marketplace ID',
  'settings.sellerId': 'Seller ID',
  'settings.token': 'Payments service token',
  'settings.tokenSave': 'Store token',
  'settings.tokenHint':
    'The token is never shown and is not in the settings file. To change it, type the new one and store it.',
  'settings.tokenNone': 'No token stored.',
  'settings.tokenStoredSafe': "Token stored, encrypted by this computer's system.",
  'settings.tokenStoredFile': 'Token stored in a private file on this computer.',
  'settings.tokenEnvironment': 'The token comes from the PINBRIDGE_API_TOKEN environment variable: change it there.',
  'settings.tokenRestart': 'The new token applies when Pinbridge restarts.',
  'settings.tokenShort': 'The token has at least {n} characters.',
  'settings.passphrase': 'Client certificate password',
  'settings.passphraseSave': 'Store password',
  'settings.passphraseHint':
    'Only for a certificate in a .pfx or .p12 file (an ICP-Brasil A1). The password is never shown and is not in the settings file.',
  'settings.passphraseNone': 'No certificate password stored.',
  'settings.passphraseStoredSafe': "Certificate password stored, encrypted by this computer's system.",
  'settings.passphraseStoredFile': 'Certificate password stored in a private file on this computer.',
  'settings.passphraseEnvironment':
    'The certificate password comes from the PINBRIDGE_CERT_PASSPHRASE environment variable: change it there.',
  'settings.passphraseShort': 'Type the certificate password.',
  'settings.passphraseRestart': 'The new password applies when Pinbridge restarts.',
  'settings.pinpad': 'PINPAD',
  'settings.pinpadAddress': 'PINPAD address',
  'settings.pinpadHint':
    'A serial port (/dev/ttyACM0, COM3), a Bluetooth LE PINPAD (ble:…, found with Search Bluetooth), a network PINPAD (tcp://192.168.0.20:4000) or “sim” for the simulated one. Blank: the simulated PINPAD.',
  'settings.detect': 'Search',
  'settings.detecting': 'Looking for serial ports…',
  'settings.portsNone':
    'No serial port found. Check the PINPAD cable; a network PINPAD is typed as tcp://address:port.',
  'settings.portsOne': '1 serial port found:',
  'settings.portsMany': '{n} serial ports found:',
  'settings.portUnknown': 'unknown device',
  'settings.portLikely': 'likely a PINPAD',
  'settings.portUse': 'Use',
  'settings.portUseLabel': 'Use port {address}',
  'settings.portChosen': 'Port {address} chosen: save to use it.',
  'settings.bleScan': 'Search Bluetooth',
  'settings.bleScanning': 'Looking for Bluetooth PINPADs… ({seconds} s)',
  'settings.bleNone': 'No Bluetooth PINPAD found. Turn the PINPAD on, keep it near this computer and search again.',
  'settings.bleOne': '1 Bluetooth PINPAD found:',
  'settings.bleMany': '{n} Bluetooth PINPADs found:',
  'settings.bleUnavailable':
    'This computer has no Bluetooth available: turn Bluetooth on (or plug in an adapter) and search again, or use a PINPAD on a USB cable or on the network.',
  'settings.bleNoName': 'unnamed PINPAD',
  'settings.bleSignalStrong': 'strong signal',
  'settings.bleSignalMedium': 'medium signal',
  'settings.bleSignalWeak': 'weak signal',
  'settings.bleSignal': '{signal} ({rssi} dBm)',
  'settings.bleUseLabel': 'Use the Bluetooth PINPAD {name} ({address})',
  'settings.bleChosen': 'Bluetooth PINPAD {address} chosen: save to use it.',
  'settings.sales': 'Sales',
  'settings.confirmation': 'Confirming approved sales',
  'settings.confirmationAuto': 'Automatic: Pinbridge confirms a sale as soon as it is approved',
  'settings.confirmationPos':
    'By the POS: the POS confirms or undoes it; without a confirmation in time, the sale is undone',
  'settings.training': 'Training mode',
  'settings.trainingNow':
    'Pinbridge is in training now, even with this switch off: the payments service is not set up yet (the “Payments service” section above), or it was started with --training.',
  'settings.trainingHint':
    'On: nothing is really charged, even with the payments service set up (to train a new cashier).',
  'settings.receipts': 'Receipts: the store',
  'settings.receiptsHint':
    'The store as receipts show it. Outside training mode, no receipt prints without a name and CNPJ.',
  'settings.merchantName': 'Store name',
  'settings.cnpj': 'CNPJ',
  'settings.cnpjHint':
    '14 characters: digits or, for an alphanumeric CNPJ, letters and digits; dots, slash and dash may be typed.',
  'settings.address': 'Address (up to 4 lines)',
  'settings.addressLine1': 'Address, line 1',
  'settings.addressLine2': 'Address, line 2',
  'settings.addressLine3': 'Address, line 3',
  'settings.addressLine4': 'Address, line 4',
  'settings.printer': 'Receipt printer',
  'settings.printerAddress': 'Default printer address',
  'settings.printerHint':
    'Network: tcp://192.168.0.50:9100. Serial: serial:///dev/ttyUSB0?baud=9600 (serial:COM3 on Windows). System printer: lp://NAME.',
  'settings.systemPrinters': 'System printers',
  'settings.systemPrintersHint':
    "In the desktop app, a system printer prints the receipt at its own paper size: the roll's width and the receipt's height, not an A4 sheet.",
  'settings.systemPrintersLoading': 'Looking for the system printers…',
  'settings.systemPrintersNone':
    'No system printer: this computer has no printers installed (or, on Linux, CUPS is missing). A network printer is typed as tcp://IP:9100.',
  'settings.systemPrintersOne': '1 system printer:',
  'settings.systemPrintersMany': '{n} system printers:',
  'settings.systemPrinterDefault': 'default',
  'settings.systemPrinterUseLabel': 'Use the printer {name}',
  'settings.systemPrinterChosen': 'Printer {address} chosen: save to use it.',
  'settings.testPrint': 'Print test',
  'settings.testPrintHint':
    'Prints a test page (accents, an edge-to-edge rule and a QR code) on the default printer Pinbridge started with: an address changed above applies once saved and Pinbridge restarts.',
  'settings.testPrintSending': 'Sending the test to the printer…',
  'settings.testPrintQueued': 'Test waiting for the printer…',
  'settings.testPrintRetrying': 'Test waiting: the printer has not answered yet ({error}). Pinbridge tries again.',
  'settings.testPrintPrinting': 'Printing the test…',
  'settings.testPrintPrinted': 'Test printed. Check the accents, the rule and the QR code on the paper.',
  'settings.testPrintFailed': 'The test failed: {error}',
  'settings.testPrintCancelled': 'The test print was cancelled.',
  'settings.testPrintOff':
    'There is no printer to test: fill in the store name and CNPJ and the printer address, save, and restart Pinbridge (settings apply at the next start).',
  'settings.clients': 'Paired POS',
  'settings.clientsText':
    'The POS systems paired with this Pinbridge, and the blocked origins, are on the POS clients page.',
  'settings.clientsLink': 'Open POS clients',
  'settings.save': 'Save settings',
  'settings.saved': 'Settings saved. The changes apply when Pinbridge restarts.',
  'settings.restartTitle': 'Apply the changes',
  'settings.restartText':
    'The changes apply when Pinbridge restarts. This window and the POS systems reconnect by themselves within seconds.',
  'settings.restartNow': 'Restart Pinbridge now',
  'settings.restartConfirmTitle': 'Restart Pinbridge?',
  'settings.restartConfirmText':
    'The POS systems are without Pinbridge for a few seconds. No sale is cut: while the PINPAD is busy the restart is refused.',
  'settings.restartConfirm': 'Yes, restart',
  'settings.restarting': 'Restarting Pinbridge…',
  'settings.restarted': 'Pinbridge restarted: the new settings are in use.',
  'settings.restartBusy': 'The PINPAD is running a sale or a prompt: restart once it ends.',
  'settings.restartByHand': 'This Pinbridge cannot restart itself: close it and open it again.',
  'settings.notApplied':
    'Pinbridge restarted but could not use the saved settings, and went back to the previous ones. Reason: {reason}',
  'settings.notSavedOne': 'Nothing was saved: fix the marked field.',
  'settings.notSavedMany': 'Nothing was saved: fix the {n} marked problems.',
  'settings.violationRequired': 'Fill in this field.',
  'settings.violationUrl': 'Use an address starting with https:// (or http://), without spaces.',
  'settings.violationPinpadAddress':
    'Invalid PINPAD address: use the serial port (/dev/ttyACM0, COM3), tcp://IP:PORT of a network PINPAD (like tcp://10.0.0.5:4000), ble:<id> of a Bluetooth PINPAD, or sim for the simulated one.',
  'settings.violationAmount': 'Invalid amount: write it in reais, e.g. 100,00 (blank: every sale).',
  'settings.violationPrinterAddress':
    'Invalid printer address: use tcp://IP:PORT of a network printer (like tcp://192.168.0.50:9100), serial:///dev/ttyUSB0?baud=9600 (serial:COM3 on Windows) or lp://NAME of a system printer.',
  'settings.violationTimeZone':
    'Invalid time zone: use the zone name, like America/Sao_Paulo, America/Manaus or America/Rio_Branco.',
  'settings.violationOther': 'Value not accepted (technical detail: {message}).',
  'settings.violationOtherShort': 'Value not accepted',
  'settings.violationCnpj':
    'The CNPJ has 14 characters: 12 digits or letters and 2 check digits (like 11.222.333/0001-81 or 12.ABC.345/01DE-35).',
  'settings.violationCnpjDigits': 'The check digits do not match: check the CNPJ.',
  'settings.violationChoice': 'Choose one of the options.',
  'settings.violationNoToken': 'No token stored: type the payments service token in this card and store it.',
  'settings.violationPassphrase':
    'The certificate password is missing or wrong: type it in "Client certificate password" and store it.',
  'settings.violationCertificate': 'The client certificate could not be used; check its files in the settings.',

  'support.title': 'Support',
  'support.about': 'This Pinbridge',
  'support.version': 'Version',
  'support.mode': 'Mode',
  'support.doctor': 'Diagnostics',
  'support.doctorText':
    'Checks the settings file, the serial port permissions, the PINPAD, the printers, the payments service and the POS ports. It takes a few seconds.',
  'support.doctorRun': 'Run diagnostics',
  'support.doctorRunning': 'Running the diagnostics…',
  'support.doctorAllOk': 'Diagnostics at {time}: all good.',
  'support.doctorProblems': 'Diagnostics at {time}: {failed} failed, {warned} with a warning.',
  'support.statusOk': 'OK',
  'support.statusWarn': 'Warning',
  'support.statusFail': 'Failed',
  'support.statusSkip': 'Not checked',
  'support.checkSettings': 'Settings file',
  'support.checkSerial': 'Serial port permissions',
  'support.checkPinpads': 'PINPAD',
  'support.checkPrinters': 'Printers',
  'support.checkApi': 'Payments service',
  'support.checkCertificate': 'Client certificate',
  'support.checkPorts': 'POS ports',
  'support.fix': 'How to fix it:',
  'support.copy': 'Copy',
  'support.copyFixLabel': 'Copy how to fix: {check}',
  'support.copied': 'Copied.',
  'support.selected': 'Text selected: press Ctrl+C to copy it.',
  'support.logs': 'Logs for support',
  'support.logsText':
    "Pinbridge's latest log lines, to send to support. They hold no card data: anything that looks like a card number is masked.",
  'support.logsExport': 'Export logs',
  'support.logsExporting': 'Exporting…',
  'support.logsDownload': 'Download pinbridge-logs.txt',
  'support.logsCopy': 'Copy logs',
  'support.logsCopied': 'Logs copied.',
  'support.logsLabel': 'Exported logs',
  'support.logsNoFile': 'This Pinbridge logs to the terminal only: there is no log file to export.',
  'support.logsEmpty': 'The log is still empty.',
  'support.logsOne': '1 line exported.',
  'support.logsMany': '{n} lines exported.',
  'support.logsMaskedNone': 'Card data does not show: card numbers are masked (first 6 and last 4 digits).',
  'support.logsMasked': 'Card data does not show: {n} card-like numbers were masked (first 6 and last 4 digits).',
};

/** Both catalogs (exported for the specs that compare them and scan the window for English). */
export const CATALOGS: Readonly<Record<Language, Readonly<Record<MessageKey, string>>>> = { 'pt-BR': PT_BR, en: EN };
const LANGUAGE_STORAGE = 'pinbridge-window:language';

function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE) === 'en' ? 'en' : 'pt-BR';
  } catch {
    return 'pt-BR';
  }
}

let language: Language = storedLanguage();
/** The store's time zone, once the agent named it (session.operator); until then the browser's. */
let timeZone: string | undefined;
const listeners = new Set<() => void>();

export function currentLanguage(): Language {
  return language;
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(PT_BR, key);
}

/** The text of `key` in a given language, whatever the window shows (specs compare the catalogs). */
export function textIn(lang: Language, key: MessageKey): string {
  return CATALOGS[lang][key];
}

/** The text of `key` in the current language, `{name}` placeholders filled from `vars`. */
export function t(key: MessageKey, vars: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/**
 * `none` for 0 when given ("Nenhuma venda hoje"), else `one` or `many` (each with {n}) by the
 * language's plural rules (CLDR, through Intl.PluralRules): Portuguese takes the singular for 0
 * and 1 (its rule is i = 0..1), English for 1 only.
 */
export function plural(count: number, one: MessageKey, many: MessageKey, none?: MessageKey): string {
  if (count === 0 && none !== undefined) return t(none);
  return new Intl.PluralRules(language).select(count) === 'one' ? t(one, { n: count }) : t(many, { n: count });
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

/** Times are shown on the store's clock, the one its receipts print with. */
export function setTimeZone(zone: string | undefined): void {
  timeZone = zone;
}

export function currentTimeZone(): string | undefined {
  return timeZone;
}

/** "14:05:09" in the current language, on the store's clock. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleTimeString(language, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}

/** "21/11/2026 14:05" (pt-BR) or "11/21/2026, 02:05 PM" (en). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(language, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}

/** Seconds left as "1:05". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
