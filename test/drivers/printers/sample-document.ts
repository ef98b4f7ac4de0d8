/**
 * One document that exercises every block the screen and PDF renderers draw: accents, a pair
 * block, both rules, a large bold line, characters XML must escape, a signature, a boleto's ITF
 * barcode and a Pix QR code.
 */
import type { PrintDocument } from '../../../drivers/printers/document.js';

/** A boleto's 44-digit barcode (bank 237, R$ 123,45, due factor 8463; general check digit 1 by mod 11). */
export const BOLETO_BARCODE = '23791846300000123453381260000000003000000004';
/** Its "linha digitável", the caption under the bars. */
export const BOLETO_DIGITABLE_LINE = '23793.38128 60000.000004 30000.000049 1 84630000012345';
/** The Banco Central's example "Pix copia e cola" payload (BR Code, static, with its CRC16). */
export const PIX_PAYLOAD =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

export const SAMPLE_DOCUMENT: PrintDocument = {
  title: 'Comprovante de venda — via do cliente',
  blocks: [
    { kind: 'text', text: 'Padaria "Pão & Açúcar" <Filial 2>', align: 'center', bold: true },
    { kind: 'text', text: 'Av. São João, 439 — Consolação, São Paulo', align: 'center' },
    { kind: 'rule', style: 'double' },
    { kind: 'text', text: 'COMPROVANTE DE VENDA', align: 'center', bold: true },
    { kind: 'pair', label: 'Operação', value: 'Crédito à vista' },
    { kind: 'pair', label: 'Autorização', value: 'A1B2C3' },
    { kind: 'pair', label: 'Descrição', value: 'Pão francês, café com leite e pão de queijo' },
    { kind: 'rule' },
    { kind: 'text', text: 'R$ 123,45', align: 'center', bold: true, large: true },
    { kind: 'pair', label: 'VALOR', value: 'R$ 123,45', bold: true },
    { kind: 'rule' },
    { kind: 'text', text: 'Transação aprovada mediante senha. Atenção: ç ã é õ ê á à ü — obrigado pela preferência!' },
    { kind: 'feed', lines: 1 },
    { kind: 'barcode', symbology: 'itf', data: BOLETO_BARCODE, caption: BOLETO_DIGITABLE_LINE },
    { kind: 'qrcode', data: PIX_PAYLOAD, caption: 'Pague com Pix: aponte a câmera' },
    { kind: 'signature', label: 'Assinatura do cliente' },
    { kind: 'text', text: 'São Paulo, 05/03/2025 14:32', align: 'right' },
  ],
};
