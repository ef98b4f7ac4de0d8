/**
 * The test slip a cashier prints from the window's settings to check a printer: the store's
 * name as receipts print it, the printer's name and paper width, every Portuguese letter (the
 * code page), a rule the full width of the paper, and a QR code — what a receipt or a bolepix
 * slip needs the printer to get right.
 */
import type { PaperColumns, PrintDocument } from '../../drivers/printers/document.js';
import { formatDateTimeBr } from '../locale/br-format.js';
import type { ReceiptSettings } from './settings.js';
import { storeTimeZone } from '../locale/store-time.js';

export function testPageDocument(options: {
  settings: ReceiptSettings;
  printer: string;
  columns: PaperColumns;
  training: boolean;
  now?: Date;
}): PrintDocument {
  const now = options.now ?? new Date();
  return {
    title: `Teste de impressão — ${options.printer}`,
    blocks: [
      { kind: 'text', text: 'TESTE DE IMPRESSÃO', align: 'center', bold: true, large: true },
      ...(options.training ? [{ kind: 'text' as const, text: 'TREINAMENTO', align: 'center' as const }] : []),
      { kind: 'text', text: options.settings.merchant.name, align: 'center' },
      { kind: 'rule', style: 'double' },
      { kind: 'pair', label: 'Impressora', value: options.printer },
      { kind: 'pair', label: 'Colunas', value: String(options.columns) },
      { kind: 'pair', label: 'Data', value: formatDateTimeBr(now, storeTimeZone(options.settings.time_zone)) },
      { kind: 'rule' },
      { kind: 'text', text: 'Acentos: ÁÉÍÓÚ áéíóú ÂÊÔ âêô ÃÕ ãõ Çç À à' },
      { kind: 'text', text: 'R$ 1.234,56 — 0123456789' },
      { kind: 'rule' },
      { kind: 'qrcode', data: 'https://pinbridge.local/teste', caption: 'QR Code' },
      { kind: 'text', text: 'Se tudo acima saiu legível, a impressora está pronta.', align: 'center' },
    ],
  };
}
