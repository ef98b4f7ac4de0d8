/**
 * The window's texts of the settings it shows — labels, help, options, lines, mistake sentences — in
 * both languages; the catalogs (pt-br.ts, en.ts) take them in.
 * Generated from main/core/settings-fields.ts by `npm run docs:settings` (scripts/settings-window.ts):
 * edit the declarations, not this file.
 */

export const SETTING_TEXTS_PT_BR = {
  'setting.api.base_url': 'Endereço do serviço (URL)',
  'setting.api.marketplace_id': 'ID do marketplace',
  'setting.api.seller_id': 'ID do vendedor (seller)',
  'setting.pinpad.address': 'Endereço do PINPAD',
  'setting.pinpad.address.help':
    'Uma porta serial (/dev/ttyACM0, COM3), um PINPAD Bluetooth LE (ble:…, ache com Procurar Bluetooth), um PINPAD na rede (tcp://192.168.0.20:4000) ou “sim” para o simulado. Em branco: o PINPAD simulado.',
  'setting.confirmation': 'Confirmação das vendas aprovadas',
  'setting.confirmation.auto': 'Automática: o Pinbridge confirma a venda assim que ela é aprovada',
  'setting.confirmation.pos': 'Pelo caixa (PDV): ele confirma ou desfaz; sem confirmação no prazo, a venda é desfeita',
  'setting.training': 'Modo de treinamento',
  'setting.training.help':
    'Ligado: nada é cobrado de verdade, mesmo com o serviço de pagamentos configurado (para treinar um caixa novo).',
  'setting.supervisor.required_for': 'Pedir a senha do supervisor para cancelar ou desfazer uma venda aprovada',
  'setting.supervisor.required_for.help':
    'Vale para o cancelamento feito nesta janela (Vendas de hoje). Passa a valer depois de salvar e reiniciar.',
  'setting.supervisor.min_amount_centavos': 'Só para vendas a partir de (R$)',
  'setting.supervisor.min_amount_centavos.help': 'Em branco: todas as vendas.',
  'setting.supervisor.min_amount_centavos.mistake':
    'Valor inválido: escreva em reais, por exemplo 100,00 (em branco: todas as vendas).',
  'setting.supervisor.entry': 'Onde o supervisor digita a senha',
  'setting.supervisor.entry.window': 'Nesta janela',
  'setting.supervisor.entry.pinpad': 'No teclado do PINPAD (os números aparecem na tela do PINPAD)',
  'setting.supervisor.entry.either': 'Nos dois: o supervisor escolhe',
  'setting.supervisor.pos_voids': 'Cancelamentos pedidos pelo sistema de vendas (PDV) também pedem a senha, no PINPAD',
  'setting.supervisor.pos_voids.help':
    'Desligado: o PDV é responsável pela autorização dos cancelamentos que ele pede.',
  'setting.receipts.merchant.name': 'Nome da loja',
  'setting.receipts.merchant.cnpj': 'CNPJ',
  'setting.receipts.merchant.cnpj.help':
    '14 caracteres: números ou, no CNPJ alfanumérico, letras e números; pontos, barra e traço podem ser digitados.',
  'setting.receipts.merchant.address': 'Endereço (até 4 linhas)',
  'setting.receipts.merchant.address.line1': 'Endereço, linha 1',
  'setting.receipts.merchant.address.line2': 'Endereço, linha 2',
  'setting.receipts.merchant.address.line3': 'Endereço, linha 3',
  'setting.receipts.merchant.address.line4': 'Endereço, linha 4',
  'setting.printers.default.address': 'Endereço da impressora padrão',
  'setting.printers.default.address.help':
    'Na rede: tcp://192.168.0.50:9100. Serial: serial:///dev/ttyUSB0?baud=9600 (serial:COM3 no Windows). Impressora do sistema: lp://NOME.',
} as const;

export const SETTING_TEXTS_EN: Readonly<Record<keyof typeof SETTING_TEXTS_PT_BR, string>> = {
  'setting.api.base_url': 'Service address (URL)',
  'setting.api.marketplace_id': 'Marketplace ID',
  'setting.api.seller_id': 'Seller ID',
  'setting.pinpad.address': 'PINPAD address',
  'setting.pinpad.address.help':
    'A serial port (/dev/ttyACM0, COM3), a Bluetooth LE PINPAD (ble:…, found with Search Bluetooth), a network PINPAD (tcp://192.168.0.20:4000) or “sim” for the simulated one. Blank: the simulated PINPAD.',
  'setting.confirmation': 'Confirming approved sales',
  'setting.confirmation.auto': 'Automatic: Pinbridge confirms a sale as soon as it is approved',
  'setting.confirmation.pos':
    'By the POS: the POS confirms or undoes it; without a confirmation in time, the sale is undone',
  'setting.training': 'Training mode',
  'setting.training.help':
    'On: nothing is really charged, even with the payments service set up (to train a new cashier).',
  'setting.supervisor.required_for': "Ask for the supervisor's PIN to void or undo an approved sale",
  'setting.supervisor.required_for.help':
    'Applies to voids made in this window (Today’s sales). In use after saving and restarting.',
  'setting.supervisor.min_amount_centavos': 'Only for sales from (R$)',
  'setting.supervisor.min_amount_centavos.help': 'Blank: every sale.',
  'setting.supervisor.min_amount_centavos.mistake':
    'Invalid amount: write it in reais, e.g. 100,00 (blank: every sale).',
  'setting.supervisor.entry': 'Where the supervisor types the PIN',
  'setting.supervisor.entry.window': 'In this window',
  'setting.supervisor.entry.pinpad': "On the PINPAD keypad (the digits show on the PINPAD's screen)",
  'setting.supervisor.entry.either': 'Either: the supervisor chooses',
  'setting.supervisor.pos_voids': 'Voids the POS asks for also need the PIN, on the PINPAD',
  'setting.supervisor.pos_voids.help': 'Off: the POS is responsible for authorizing the voids it asks for.',
  'setting.receipts.merchant.name': 'Store name',
  'setting.receipts.merchant.cnpj': 'CNPJ',
  'setting.receipts.merchant.cnpj.help':
    '14 characters: digits or, for an alphanumeric CNPJ, letters and digits; dots, slash and dash may be typed.',
  'setting.receipts.merchant.address': 'Address (up to 4 lines)',
  'setting.receipts.merchant.address.line1': 'Address, line 1',
  'setting.receipts.merchant.address.line2': 'Address, line 2',
  'setting.receipts.merchant.address.line3': 'Address, line 3',
  'setting.receipts.merchant.address.line4': 'Address, line 4',
  'setting.printers.default.address': 'Default printer address',
  'setting.printers.default.address.help':
    'Network: tcp://192.168.0.50:9100. Serial: serial:///dev/ttyUSB0?baud=9600 (serial:COM3 on Windows). System printer: lp://NAME.',
};
