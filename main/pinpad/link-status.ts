/**
 * The link to the PINPAD the agent is set to use, as the agent keeps it (main/agent/pinpad-keeper.ts):
 * still connecting, ready, not found at its address, unreachable, not answering, or gone after it
 * was ready — with the driver's code and a sentence in English (logs, the ready line, API docs) and
 * in Brazilian Portuguese (the cashier's window, a POS showing it to its cashier).
 *
 * The PINPAD registry (registry.ts) lists the PINPADs that answered at least once, by serial
 * number; this says why there may be none, where the agent is looking for it. The registry owns
 * the one `PinpadLink` of the agent (`PinpadRegistry.link`); the keeper writes it.
 */
import { EventEmitter } from 'node:events';

export type PinpadLinkState =
  /** The first attempt is under way. */
  | 'connecting'
  /** The PINPAD answered and takes payments. */
  | 'ready'
  /** Nothing at the address: no such serial port, or no BLE device with that id in range. */
  | 'not_found'
  /** The address cannot be opened: in use, no permission, refused, unreachable, not a valid address. */
  | 'unreachable'
  /** Something is there but does not answer as an ABECS PINPAD. */
  | 'not_answering'
  /** It was ready and went away (unplugged, switched off, link lost); not tried again yet. */
  | 'disconnected';

export interface PinpadLinkStatus {
  /** Where the agent looks for the PINPAD (the `--port` syntax). */
  readonly address: string;
  readonly state: PinpadLinkState;
  /** The driver's code of the failure (PORT_NOT_FOUND, CONNECT_TIMEOUT, …); null when ready or connecting. */
  readonly code: string | null;
  /** The driver's own sentence about the failure (English); null when none. */
  readonly error: string | null;
  /** When this state (with this code) began. */
  readonly since: Date;
}

/** What the link's state says, for a technician (English) and for the cashier (pt-BR). */
export interface PinpadLinkSentence {
  readonly message: string;
  readonly cashier_message: string;
}

const NOT_FOUND_CODES = new Set(['PORT_NOT_FOUND', 'BLE_DEVICE_NOT_FOUND']);

/** The state a failure to open the PINPAD (connect) or to talk to it once open (answer) leaves. */
export function failureState(stage: 'connect' | 'answer', code: string | undefined): PinpadLinkState {
  if (stage === 'answer') return 'not_answering';
  return code !== undefined && NOT_FOUND_CODES.has(code) ? 'not_found' : 'unreachable';
}

function unreachableSentence(address: string, code: string | null): PinpadLinkSentence {
  switch (code) {
    case 'PORT_BUSY':
      return {
        message: `${address} is in use by another program`,
        cashier_message: `A porta ${address} está em uso por outro programa. Feche o outro programa.`,
      };
    case 'PERMISSION_DENIED':
      return {
        message: `No permission to open the PINPAD at ${address}`,
        cashier_message: `Sem permissão para abrir o PINPAD em ${address}. Chame o suporte técnico.`,
      };
    case 'INVALID_PORT':
      return {
        message: `"${address}" is not a valid PINPAD address: correct pinpad.address in the settings (or --port); \`pinbridge doctor\` says which forms are accepted`,
        cashier_message: `O endereço do PINPAD “${address}” não é válido. Corrija-o em Configurações.`,
      };
    case 'CONNECTION_REFUSED':
    case 'HOST_UNREACHABLE':
    case 'CONNECT_TIMEOUT':
      return {
        message: `PINPAD unreachable at ${address}: check that it is switched on, on the network, and at that address and port`,
        cashier_message: `PINPAD inacessível em ${address}. Verifique se ele está ligado e conectado à rede.`,
      };
    case 'BLE_UNAVAILABLE':
      return {
        message: `Bluetooth is not available on this computer, so the PINPAD at ${address} cannot be reached`,
        cashier_message: `O Bluetooth deste computador está desligado ou indisponível, e o PINPAD em ${address} depende dele. Ligue o Bluetooth.`,
      };
    default:
      return {
        message: `The PINPAD at ${address} cannot be opened: check the cable and that it is switched on`,
        cashier_message: `Não foi possível abrir o PINPAD em ${address}. Verifique o cabo e se ele está ligado.`,
      };
  }
}

/** The sentences for a link status: "PINPAD não encontrado em /dev/ttyACM0. …" */
export function pinpadLinkSentence(status: Pick<PinpadLinkStatus, 'address' | 'state' | 'code'>): PinpadLinkSentence {
  const { address } = status;
  switch (status.state) {
    case 'connecting':
      return {
        message: `Connecting to the PINPAD at ${address}`,
        cashier_message: `Conectando ao PINPAD em ${address}…`,
      };
    case 'ready':
      return { message: `PINPAD ready at ${address}`, cashier_message: `PINPAD pronto em ${address}` };
    case 'not_found':
      return {
        message: `PINPAD not found at ${address}`,
        cashier_message: `PINPAD não encontrado em ${address}. Verifique o cabo e se ele está ligado.`,
      };
    case 'unreachable':
      return unreachableSentence(address, status.code);
    case 'not_answering':
      return {
        message: `The PINPAD at ${address} does not answer`,
        cashier_message: `O PINPAD em ${address} não responde. Desligue e ligue o PINPAD ou confira o endereço em Configurações.`,
      };
    case 'disconnected':
      return {
        message: `PINPAD disconnected from ${address}`,
        cashier_message: `PINPAD desconectado de ${address}. Verifique o cabo e se ele está ligado.`,
      };
  }
}

/**
 * The link's status as it changes: held by the PINPAD registry, set by the agent's keeper, read
 * and followed (`change`) by the POS API, the window and the doctor.
 */
export class PinpadLink extends EventEmitter<{ change: [status: PinpadLinkStatus] }> {
  #status: PinpadLinkStatus;

  constructor(address: string, now: Date = new Date()) {
    super();
    this.#status = { address, state: 'connecting', code: null, error: null, since: now };
  }

  get status(): PinpadLinkStatus {
    return this.#status;
  }

  set(status: PinpadLinkStatus): void {
    this.#status = status;
    this.emit('change', status);
  }
}
