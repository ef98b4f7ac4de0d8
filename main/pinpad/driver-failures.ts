/**
 * Every failure code the PINPAD's drivers raise below the ABECS statuses — the transports
 * (serial, TCP, BLE), the link, the framing, the packet layout — and the card data the PINPAD
 * returned unusable, each with the one pt-BR sentence the cashier reads for it. The driver's
 * English (`error.message`) stays in the logs and in the outcome's `message`; the ABECS statuses
 * carry their own sentences (drivers/abecs/status.ts).
 */
import { LINK_ERROR_CODES, type LinkErrorCode } from '../../drivers/abecs/link.js';
import { TRANSPORT_ERROR_CODES, type TransportErrorCode } from '../../drivers/transports/transport.js';
import { CARD_DATA_ERROR_CODES, type CardDataErrorCode } from './card-data.js';

/** Codes of the framing (FrameError), the packet layout (AbecsFormatError) and a refused argument. */
export const PACKET_ERROR_CODES = [
  'PACKET_EMPTY',
  'PACKET_TOO_LARGE',
  'MALFORMED_RESPONSE',
  'MALFORMED_COMMAND',
  'INVALID_ARGUMENT',
] as const;
type PacketErrorCode = (typeof PACKET_ERROR_CODES)[number];

export type DriverFailureCode = TransportErrorCode | LinkErrorCode | PacketErrorCode | CardDataErrorCode;

/** All of them, for the specs that prove each has its sentence. */
export const DRIVER_FAILURE_CODES: readonly DriverFailureCode[] = [
  ...new Set<DriverFailureCode>([
    ...TRANSPORT_ERROR_CODES,
    ...LINK_ERROR_CODES,
    ...PACKET_ERROR_CODES,
    ...CARD_DATA_ERROR_CODES,
  ]),
];

const CALL_SUPPORT = 'Se continuar, chame o suporte técnico.';

const CASHIER_SENTENCES: Readonly<Record<DriverFailureCode, string>> = {
  // Transports: opening and keeping the connection to the PINPAD.
  PORT_NOT_FOUND: 'O PINPAD não foi encontrado no endereço configurado. Verifique o cabo e se ele está ligado.',
  PORT_BUSY: 'A porta do PINPAD está em uso por outro programa. Feche o outro programa e tente de novo.',
  PERMISSION_DENIED: 'Este computador não deu permissão para usar o PINPAD. Chame o suporte técnico.',
  CONNECTION_REFUSED:
    'O PINPAD recusou a conexão pela rede. Verifique se ele está ligado e o endereço em Configurações.',
  HOST_UNREACHABLE: 'O PINPAD não foi encontrado na rede. Verifique se ele está ligado e conectado à rede.',
  CONNECT_TIMEOUT: 'O PINPAD não atendeu a conexão a tempo. Verifique se ele está ligado e conectado.',
  DISCONNECTED: 'O PINPAD foi desconectado. Verifique o cabo ou a conexão.',
  NOT_OPEN: 'A conexão com o PINPAD não estava aberta. Aguarde a reconexão e tente de novo.',
  ALREADY_OPEN: `A conexão com o PINPAD já estava aberta por outra operação. Tente de novo. ${CALL_SUPPORT}`,
  BLE_UNAVAILABLE: 'O Bluetooth deste computador está desligado ou indisponível. Ligue o Bluetooth e tente de novo.',
  BLE_DEVICE_NOT_FOUND: 'O PINPAD Bluetooth não foi encontrado. Verifique se ele está ligado e perto do computador.',
  BLE_SERVICE_NOT_FOUND:
    'O aparelho Bluetooth configurado não se apresentou como PINPAD. Confira o endereço em Configurações.',
  INVALID_PORT: 'O endereço do PINPAD nas configurações não é válido. Corrija-o em Configurações.',
  IO_ERROR: `Falha ao enviar ou receber dados do PINPAD. Verifique o cabo. ${CALL_SUPPORT}`,
  // The link: the ABECS exchange of commands and answers.
  ACK_TIMEOUT: 'O PINPAD não confirmou o recebimento do comando. Verifique o cabo e se ele está ligado.',
  NAK_LIMIT: `O PINPAD recusou o comando várias vezes seguidas (falha na comunicação). Verifique o cabo. ${CALL_SUPPORT}`,
  RESPONSE_TIMEOUT: 'O PINPAD não respondeu a tempo. Verifique se ele está ligado.',
  BAD_RESPONSE: `A resposta do PINPAD chegou corrompida várias vezes. Verifique o cabo. ${CALL_SUPPORT}`,
  CANCELLED: 'Operação cancelada no PINPAD.',
  CANCEL_UNANSWERED: 'O PINPAD não atendeu o cancelamento. Desligue e ligue o PINPAD.',
  TIMEOUT: 'Tempo esgotado no PINPAD.',
  BUSY: 'O PINPAD está ocupado com outra operação. Aguarde e tente de novo.',
  LINE_NOISE:
    'A comunicação com o PINPAD tem interferência (cabo ou aparelho com defeito). Troque o cabo ou chame o suporte técnico.',
  // Framing and packet layout: what came from (or went to) the PINPAD does not follow the protocol.
  PACKET_EMPTY: `Falha interna ao montar o comando para o PINPAD. ${CALL_SUPPORT}`,
  PACKET_TOO_LARGE: `Comando grande demais para o PINPAD. ${CALL_SUPPORT}`,
  MALFORMED_RESPONSE: `O PINPAD respondeu fora do padrão esperado. Desligue e ligue o PINPAD. ${CALL_SUPPORT}`,
  MALFORMED_COMMAND: `O PINPAD não entendeu o comando enviado. ${CALL_SUPPORT}`,
  INVALID_ARGUMENT: `Dados inválidos para o PINPAD. ${CALL_SUPPORT}`,
  // Card data the PINPAD returned and a sale cannot use.
  UNREADABLE_CARD: 'Não foi possível ler o número do cartão. Tente novamente.',
  UNSUPPORTED_CARD_TYPE: 'O PINPAD informou um tipo de cartão não aceito. Tente com outro cartão.',
  MALFORMED_EMV_DATA: 'Os dados do chip do cartão vieram ilegíveis. Tente novamente.',
  INCOMPLETE_PIN_BLOCK: 'A senha digitada não chegou completa do PINPAD. Tente novamente.',
};

/** The cashier's sentence for a driver's failure code; undefined for a code no driver raises. */
export function driverCashierMessage(code: string): string | undefined {
  return Object.hasOwn(CASHIER_SENTENCES, code) ? CASHIER_SENTENCES[code as DriverFailureCode] : undefined;
}
