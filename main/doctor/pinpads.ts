/**
 * The `pinpads` check: which serial ports look like PINPADs (by USB ids, see
 * drivers/transports/usb-ids.ts), and — when an address is given, in the `--port` syntax of
 * `pinbridge start` — whether that PINPAD really answers: it is opened (CAN, OPN), asked for its
 * identification (GIX, or GIN on older PINPADs) and closed, all within the check's time limit.
 * For an ABECS 2.x PINPAD it also says its key maps and the key method each acquirer's sales will
 * use (pinpad-keys.ts), and fails when an acquirer has none.
 */
import type { MediaSupport } from '../../drivers/abecs/media.js';
import { Pinpad, type PinpadInfo } from '../../drivers/abecs/pinpad.js';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import { createTransport, parseTransportAddress } from '../../drivers/transports/address.js';
import { listSerialPinpads, type ListPorts, type SerialPinpadInfo } from '../../drivers/transports/discovery.js';
import { connectPinpad, simulatorProfileOf } from '../pinpad/connection.js';
import {
  bilingual,
  checkResult,
  codeOf,
  DeadlineError,
  formatDuration,
  messageOf,
  shellQuote,
  withDeadline,
  type Bilingual,
  type CheckResult,
  type CheckDetails,
} from './check.js';
import { pinpadKeysReport, type PinpadKeysSource } from './pinpad-keys.js';

export interface PinpadsCheckOptions {
  /** The PINPAD to open and identify; without it only the serial ports are listed. */
  readonly address?: string;
  /** For opening and identifying the PINPAD (and for listing the ports). */
  readonly timeoutMs: number;
  /** Lists the serial ports (default serialport's list). */
  readonly listPorts?: ListPorts;
  readonly logger?: DriverLogger;
  /** The user's name, for the dialout command in a fix. */
  readonly username?: string;
  /** The provider's terminal channel (settings `api.capabilities.terminal_channel`, default 2): a legacy PINPAD cannot sell on 2. */
  readonly terminalChannel?: 1 | 2;
  /** Where `address` came from when it was not `--port` (e.g. "pinpad.address in /home/maria/.pinbridge/settings.json"): a refused address is corrected there. */
  readonly addressFrom?: string;
  /**
   * The link of a running agent to its own PINPAD (the window's doctor): reported as it is
   * instead of opening the port, which the agent holds.
   */
  readonly link?: PinpadLinkReport;
  /** Where the sales' key methods come from (the settings' tables and key slots). */
  readonly keys?: PinpadKeysSource;
}

/** A running agent's link to its PINPAD, with its sentences (main/pinpad/link-status.ts). */
export interface PinpadLinkReport {
  readonly address: string;
  readonly state: string;
  readonly code: string | null;
  readonly error: string | null;
  readonly message: string;
  readonly cashier_message: string;
}

/** A PINPAD as the doctor identified it: its identification, and whether it shows images (a Pix QR). */
export interface PinpadIdentity {
  readonly info: PinpadInfo;
  /** Its graphic display (GIX's PP_DSPGRSZ, PP_MFSUP); null: text only; undefined: it would not say. */
  readonly media: MediaSupport | null | undefined;
}

/** The identification, then the graphic display (a PINPAD that will not say is not failed for it). */
async function identityOf(pinpad: Pinpad): Promise<PinpadIdentity> {
  const info = await pinpad.info();
  const media = await pinpad.mediaSupport().catch(() => undefined);
  return { info, media };
}

/**
 * Where a Pix QR goes on this PINPAD (issue 38), for the technician on the phone: on its graphic
 * display, or — text only — on the checkout's screen.
 */
function displaySentence(media: MediaSupport | null | undefined): Bilingual {
  if (media === undefined) return bilingual('', '');
  if (media === null)
    return bilingual(
      '; text-only display: a Pix QR shows in the window',
      '; tela só de texto: o QR do Pix aparece na janela',
    );
  const formats = media.formats.map((format) => format.toUpperCase()).join(', ');
  // Pinbridge draws the QR as PNG or GIF: JPG's compression smears the modules (docs/pix.md).
  const drawn = media.formats.includes('png') || media.formats.includes('gif');
  return drawn
    ? bilingual(
        `; graphic display ${media.width} × ${media.height} (${formats}): a Pix QR shows on it`,
        `; tela gráfica ${media.width} × ${media.height} (${formats}): o QR do Pix aparece nela`,
      )
    : bilingual(
        `; graphic display ${media.width} × ${media.height} (${formats} only): a Pix QR shows in the window`,
        `; tela gráfica ${media.width} × ${media.height} (só ${formats}): o QR do Pix aparece na janela`,
      );
}

/** Opens the PINPAD at `address`, reads its identification and display, and closes it, within `timeoutMs`. */
export async function identifyPinpad(
  address: string,
  timeoutMs: number,
  logger: DriverLogger = silentLogger,
): Promise<PinpadIdentity> {
  if (simulatorProfileOf(address) !== undefined) {
    // The in-process simulator cannot hang; it is opened the way `pinbridge start --port sim` opens it.
    const connection = await connectPinpad(address, { logger });
    try {
      return await identityOf(connection.pinpad);
    } finally {
      await connection.close();
    }
  }
  // Built here rather than with connectPinpad so the transport can be closed when the deadline
  // passes: closing it is what ends an open or a command stuck waiting for a silent PINPAD.
  const pinpad = new Pinpad(createTransport(address), { logger });
  let identity: PinpadIdentity | undefined;
  try {
    identity = await withDeadline(
      (async () => {
        await pinpad.open();
        return identityOf(pinpad);
      })(),
      timeoutMs,
      `Opening the PINPAD on ${address} and reading its identification`,
    );
    return identity;
  } finally {
    // CLO only after a PINPAD that answered; a silent one is just let go.
    await pinpad.close(identity === undefined ? null : undefined).catch(() => undefined);
  }
}

function pinpadFix(address: string, error: unknown, username: string, addressFrom?: string): Bilingual {
  const again = `\`pinbridge doctor --port ${shellQuote(address)}\``;
  const retry = bilingual(`then run ${again} again`, `depois execute ${again} de novo`);
  switch (codeOf(error)) {
    case 'INVALID_PORT':
      if (addressFrom !== undefined) {
        return bilingual(
          `Correct ${addressFrom} (in the window: Configurações → PINPAD): a serial port (/dev/ttyACM0, COM3), tcp://host:port or ble:<id>; \`pinbridge pinpad list\` shows the serial ports present.`,
          `Corrija ${addressFrom} (na janela: Configurações → PINPAD): uma porta serial (/dev/ttyACM0, COM3), tcp://host:porta ou ble:<id>; \`pinbridge pinpad list\` mostra as portas seriais presentes.`,
        );
      }
      return bilingual(
        'Give the PINPAD as a serial port (/dev/ttyACM0, COM3), tcp://host:port or ble:<id>; `pinbridge pinpad list` shows the serial ports present.',
        'Informe o PINPAD como uma porta serial (/dev/ttyACM0, COM3), tcp://host:port ou ble:<id>; `pinbridge pinpad list` mostra as portas seriais presentes.',
      );
    case 'PORT_NOT_FOUND':
      return bilingual(
        `Check the PINPAD's USB cable and that it is switched on; \`pinbridge pinpad list\` shows the ports present (a PINPAD may come back as another ttyACM number after a replug), ${retry.en}.`,
        `Verifique o cabo USB do PINPAD e se ele está ligado; \`pinbridge pinpad list\` mostra as portas presentes (depois de desconectado e conectado de novo, um PINPAD pode voltar com outro número ttyACM), ${retry.pt}.`,
      );
    case 'PERMISSION_DENIED':
      return bilingual(
        `Run \`sudo usermod -aG dialout ${username}\`, log out and in again, ${retry.en}.`,
        `Execute \`sudo usermod -aG dialout ${username}\`, saia da sessão e entre de novo, ${retry.pt}.`,
      );
    case 'PORT_BUSY':
      return bilingual(
        `Another program holds ${address}: close it (a Pinbridge already running keeps its PINPAD open — stop it, or run the check while it is stopped), ${retry.en}.`,
        `Outro programa está usando ${address}: feche-o (um Pinbridge já em execução mantém o PINPAD dele aberto — pare-o ou faça a verificação com ele parado), ${retry.pt}.`,
      );
    case 'CONNECTION_REFUSED':
    case 'HOST_UNREACHABLE':
    case 'CONNECT_TIMEOUT':
      return bilingual(
        `Check that the PINPAD is switched on, on the store network and at that address and port (its network settings screen shows them), ${retry.en}.`,
        `Verifique se o PINPAD está ligado, na rede da loja e com esse endereço e porta (a tela de configurações de rede dele mostra esses dados), ${retry.pt}.`,
      );
    case 'BLE_UNAVAILABLE':
    case 'BLE_DEVICE_NOT_FOUND':
    case 'BLE_SERVICE_NOT_FOUND':
      return bilingual(
        `Switch Bluetooth on, bring the PINPAD close and pair it; \`pinbridge pinpad list --ble 10\` lists the BLE PINPADs in range, ${retry.en}.`,
        `Ligue o Bluetooth, aproxime o PINPAD e faça o pareamento; \`pinbridge pinpad list --ble 10\` lista os PINPADs BLE ao alcance, ${retry.pt}.`,
      );
    default: {
      const info = `\`pinbridge pinpad info --port ${shellQuote(address)}\``;
      return bilingual(
        `Check that the PINPAD is switched on and shows its idle screen, unplug it and plug it in again (or switch it off and on), ${retry.en}; ${info} shows the same exchange.`,
        `Verifique se o PINPAD está ligado e mostra a tela inicial, desconecte-o e conecte de novo (ou desligue e ligue), ${retry.pt}; ${info} mostra a mesma troca de mensagens.`,
      );
    }
  }
}

function describe(port: SerialPinpadInfo): string {
  const name = [port.maker, port.model].filter((part) => part !== undefined).join(' ');
  return name === '' ? port.address : `${port.address} (${name})`;
}

export async function checkPinpads(options: PinpadsCheckOptions): Promise<CheckResult> {
  const logger = options.logger ?? silentLogger;
  // Listing the ports and opening the PINPAD do not depend on each other: both run at once, so
  // the check takes one time limit, not two.
  const listing = withDeadline(
    listSerialPinpads(options.listPorts ? { list: options.listPorts } : {}),
    options.timeoutMs,
    'Listing the serial ports',
  ).then(
    (ports) => ({ ports, listError: undefined }),
    (error: unknown) => ({ ports: [] as SerialPinpadInfo[], listError: messageOf(error) }),
  );
  const identifying =
    options.address === undefined ? undefined : identifyAddress(options.address, options.timeoutMs, logger);
  const { ports, listError } = await listing;
  const likely = ports.filter((p) => p.likelyPinpad);
  const serial = ports.map((p) => ({
    address: p.address,
    likely_pinpad: p.likelyPinpad,
    maker: p.maker ?? null,
    model: p.model ?? null,
    vendor_id: p.vendorId ?? null,
    product_id: p.productId ?? null,
  }));
  const baseDetails: CheckDetails = { serial_ports: serial, ...(listError ? { list_error: listError } : {}) };

  if (identifying === undefined && options.link !== undefined)
    return linkResult(options.link, baseDetails, options.username ?? '$USER');
  if (identifying === undefined) {
    if (listError !== undefined) {
      return checkResult({
        id: 'pinpads',
        status: 'warn',
        summary: bilingual(
          `The serial ports could not be listed (${listError}); no PINPAD address given to open`,
          `Não foi possível listar as portas seriais (${listError}); nenhum endereço de PINPAD informado para abrir`,
        ),
        details: baseDetails,
        fix: bilingual(
          "Run `pinbridge doctor --port <address>` with the PINPAD's port (/dev/ttyACM0, COM3, tcp://host:port) to open it directly.",
          'Execute `pinbridge doctor --port <address>` com a porta do PINPAD (/dev/ttyACM0, COM3, tcp://host:port) para abri-lo diretamente.',
        ),
      });
    }
    if (likely.length === 0) {
      const present =
        ports.length === 0
          ? bilingual('no serial port present', 'nenhuma porta serial presente')
          : bilingual(
              `${ports.length === 1 ? '1 serial port' : `${ports.length} serial ports`}, none with a PINPAD maker's USB id`,
              `${ports.length === 1 ? '1 porta serial' : `${ports.length} portas seriais`}, nenhuma com o id USB de um fabricante de PINPAD`,
            );
      return checkResult({
        id: 'pinpads',
        status: 'warn',
        summary: bilingual(
          `No PINPAD found: ${present.en}; no PINPAD address given to open`,
          `Nenhum PINPAD encontrado: ${present.pt}; nenhum endereço de PINPAD informado para abrir`,
        ),
        details: baseDetails,
        fix: bilingual(
          "Plug the PINPAD's USB cable in and switch it on, then run `pinbridge pinpad list`; a network PINPAD is checked with `pinbridge doctor --port tcp://HOST:PORT`.",
          'Conecte o cabo USB do PINPAD e ligue-o, depois execute `pinbridge pinpad list`; um PINPAD de rede é verificado com `pinbridge doctor --port tcp://HOST:PORT`.',
        ),
      });
    }
    const where = likely.map(describe).join(', ');
    const open = `\`pinbridge doctor --port ${shellQuote(likely[0]!.address)}\``;
    return checkResult({
      id: 'pinpads',
      status: 'ok',
      summary: bilingual(
        `Found likely PINPAD(s) on ${where}; run ${open} to open it`,
        `${likely.length === 1 ? 'Provável PINPAD encontrado' : 'Prováveis PINPADs encontrados'} em ${where}; execute ${open} para abri-lo`,
      ),
      details: baseDetails,
    });
  }

  const outcome = await identifying;
  const { address } = outcome;
  if (!outcome.ok) {
    const silent = outcome.error instanceof DeadlineError;
    const message = messageOf(outcome.error);
    const limit = formatDuration(options.timeoutMs);
    return checkResult({
      id: 'pinpads',
      status: 'fail',
      summary:
        outcome.kind === undefined
          ? bilingual(message, `O endereço de PINPAD "${address}" não foi aceito: ${message}`)
          : silent
            ? bilingual(
                `The PINPAD on ${address} did not answer within ${limit.en}`,
                `O PINPAD em ${address} não respondeu em ${limit.pt}`,
              )
            : bilingual(
                `The PINPAD on ${address} could not be opened: ${message}`,
                `Não foi possível abrir o PINPAD em ${address}: ${message}`,
              ),
      details: {
        ...baseDetails,
        address,
        ...(outcome.kind === undefined ? {} : { transport: outcome.kind }),
        error: { code: silent ? 'TIMEOUT' : (codeOf(outcome.error) ?? 'ERROR'), message },
      },
      fix: pinpadFix(address, outcome.error, options.username ?? '$USER', options.addressFrom),
    });
  }
  const { info, media } = outcome;
  const display = displaySentence(media);
  const answered = bilingual(
    `The PINPAD on ${address} answered: ${info.manufacturer} ${info.model}, serial number ${info.serialNumber}, firmware ${info.firmware}${display.en}`,
    `O PINPAD em ${address} respondeu: ${info.manufacturer} ${info.model}, número de série ${info.serialNumber}, firmware ${info.firmware}${display.pt}`,
  );
  // A BibComp 1.08 PINPAD has no GTK: its card data cannot be sealed, and terminal channel v2 authorizes nothing else.
  const cannotSell = info.protocol === 'legacy' && (options.terminalChannel ?? 2) === 2;
  // Key maps are GIX's (ABECS 2.x): a legacy PINPAD has none to report.
  const keys = info.protocol === 'abecs' ? pinpadKeysReport(info, options.keys) : undefined;
  const withKeys =
    keys === undefined
      ? answered
      : bilingual(
          `${answered.en}; ${keys.maps.en}; ${keys.methods.en}`,
          `${answered.pt}; ${keys.maps.pt}; ${keys.methods.pt}`,
        );
  return checkResult({
    id: 'pinpads',
    status: cannotSell || keys?.problem !== undefined ? 'fail' : 'ok',
    summary: cannotSell
      ? bilingual(
          `${answered.en}; it is a legacy (BibComp 1.08) PINPAD, which cannot encrypt card data, so no sale can run on it (terminal channel v2)`,
          `${answered.pt}; é um PINPAD antigo (BibComp 1.08), que não criptografa os dados do cartão, então nenhuma venda pode ser feita nele (canal de terminal v2)`,
        )
      : withKeys,
    ...(cannotSell
      ? {
          fix: bilingual(
            'Replace it with an ABECS 2.x PINPAD; or, only if the payments provider still serves terminal channel v1, set "api": {"capabilities": {"terminal_channel": 1}} in the settings.',
            'Troque-o por um PINPAD ABECS 2.x; ou, somente se o sistema de pagamentos ainda atende o canal de terminal v1, defina "api": {"capabilities": {"terminal_channel": 1}} nas configurações.',
          ),
        }
      : keys?.problem !== undefined
        ? {
            fix: bilingual(
              `No sale can run on it until it holds a key the payments provider opens: ${keys.problem.en}.`,
              `Nenhuma venda pode ser feita nele até que tenha uma chave que o sistema de pagamentos abre: ${keys.problem.pt}.`,
            ),
          }
        : {}),
    details: {
      ...baseDetails,
      address,
      transport: outcome.kind,
      pinpad: {
        manufacturer: info.manufacturer,
        model: info.model,
        serial_number: info.serialNumber,
        firmware: info.firmware,
        spec_version: info.specVersion,
        protocol: info.protocol,
        ...(keys !== undefined ? { key_maps: keys.details.key_maps } : {}),
        graphic_display:
          media === undefined
            ? 'unknown'
            : media === null
              ? null
              : { width: media.width, height: media.height, color: media.color, formats: [...media.formats] },
      },
      ...(keys !== undefined ? { key_methods: keys.details.key_methods } : {}),
      ms: outcome.ms,
    },
  });
}

/** The running agent's own PINPAD, as its link says: ready is ok, anything else fails with the link's sentences and the fix for its code. */
function linkResult(link: PinpadLinkReport, baseDetails: CheckDetails, username: string): CheckResult {
  const details: CheckDetails = {
    ...baseDetails,
    address: link.address,
    link: { state: link.state, code: link.code, error: link.error },
  };
  if (link.state === 'ready') {
    return checkResult({
      id: 'pinpads',
      status: 'ok',
      summary: bilingual(
        `${link.message} (in use by this Pinbridge)`,
        `${link.cashier_message} (em uso por este Pinbridge)`,
      ),
      details,
    });
  }
  if (link.state === 'connecting') {
    return checkResult({
      id: 'pinpads',
      status: 'warn',
      summary: bilingual(link.message, link.cashier_message),
      details,
      fix: bilingual(
        'Wait a few seconds and run the check again.',
        'Aguarde alguns segundos e faça a verificação de novo.',
      ),
    });
  }
  const why = link.error === null ? '' : ` (${link.error})`;
  return checkResult({
    id: 'pinpads',
    status: 'fail',
    summary: bilingual(`${link.message}${why}`, `${link.cashier_message}${why}`),
    details,
    fix: pinpadFix(link.address, { code: link.code ?? undefined }, username, 'pinpad.address in the settings'),
  });
}

type IdentifyOutcome =
  | {
      readonly ok: true;
      readonly address: string;
      readonly kind: string;
      readonly info: PinpadInfo;
      readonly media: MediaSupport | null | undefined;
      readonly ms: number;
    }
  /** `kind` undefined: the address itself was refused. */
  | { readonly ok: false; readonly address: string; readonly kind: string | undefined; readonly error: unknown };

/** The address's transport and the PINPAD's identification, or why not; never rejects. */
async function identifyAddress(address: string, timeoutMs: number, logger: DriverLogger): Promise<IdentifyOutcome> {
  let kind: string;
  try {
    kind = simulatorProfileOf(address) !== undefined ? 'simulator' : parseTransportAddress(address).kind;
  } catch (error) {
    return { ok: false, address, kind: undefined, error };
  }
  const started = performance.now();
  try {
    const { info, media } = await identifyPinpad(address, timeoutMs, logger);
    return { ok: true, address, kind, info, media, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, address, kind, error };
  }
}
