/**
 * Configurações → finding the PINPAD: the serial ports operator.detectPinpads finds (each with its
 * maker and model, the likely PINPADs marked) and the Bluetooth LE PINPADs operator.scanBle hears
 * (each with its signal in words). The one the cashier picks goes into the PINPAD's address field,
 * unsaved.
 */
import { isPinbridgeError, type ResultOf } from '../../client/index.js';
import { errorText, type WindowContext } from '../context.js';
import { button, byId, h, keepFocus } from '../dom.js';
import { t } from '../i18n.js';

type DetectedPort = ResultOf<'operator.detectPinpads'>['ports'][number];
type BleDevice = ResultOf<'operator.scanBle'>['devices'][number];

/** How long a Bluetooth LE scan listens: long enough for a PINPAD advertising every second or two. */
const BLE_SCAN_SECONDS = 5;

/** The Bluetooth LE search, as the page shows it (kept to show it again in another language). */
type BleScan =
  | { readonly kind: 'idle' }
  | { readonly kind: 'scanning' }
  | { readonly kind: 'found'; readonly devices: readonly BleDevice[]; readonly chosen: string | null }
  | { readonly kind: 'failed'; readonly error: unknown };

/** The signal strength in words (a cashier does not read dBm): about a metre away is strong. */
function signalWords(rssi: number): string {
  const words =
    rssi >= -65
      ? t('settings.bleSignalStrong')
      : rssi >= -80
        ? t('settings.bleSignalMedium')
        : t('settings.bleSignalWeak');
  return t('settings.bleSignal', { signal: words, rssi });
}

export class PinpadFinder {
  readonly #context: WindowContext;
  /** Puts the address chosen in the PINPAD's field. */
  readonly #choose: (address: string) => void;
  /** The serial ports last found (null: none searched, or a search under way or failed). */
  #ports: DetectedPort[] | null = null;
  #ble: BleScan = { kind: 'idle' };

  readonly #detect = byId<HTMLButtonElement>('settings-pinpad-detect');
  readonly #portsStatus = byId('settings-ports-status');
  readonly #portsList = byId('settings-ports');
  readonly #bleScan = byId<HTMLButtonElement>('settings-pinpad-ble');
  readonly #bleStatus = byId('settings-ble-status');
  readonly #bleList = byId('settings-ble-devices');

  constructor(context: WindowContext, choose: (address: string) => void) {
    this.#context = context;
    this.#choose = choose;
    this.#detect.addEventListener('click', () => void this.#detectPinpads());
    this.#bleScan.addEventListener('click', () => void this.#scanBle());
  }

  render(): void {
    this.#renderPorts();
    this.#renderBle();
  }

  async #detectPinpads(): Promise<void> {
    this.#detect.disabled = true;
    this.#ports = null;
    this.#portsList.replaceChildren();
    this.#portsStatus.textContent = t('settings.detecting');
    try {
      this.#ports = (await this.#context.client.call('operator.detectPinpads', {})).ports;
      this.#renderPorts();
    } catch (error) {
      this.#portsStatus.textContent = errorText(error);
    } finally {
      this.#detect.disabled = false;
    }
  }

  #renderPorts(): void {
    const ports = this.#ports;
    if (ports === null) return;
    this.#portsStatus.textContent =
      ports.length === 0
        ? t('settings.portsNone')
        : ports.length === 1
          ? t('settings.portsOne')
          : t('settings.portsMany', { n: ports.length });
    this.#portsList.replaceChildren(
      ...ports.map((port) => {
        const device =
          [port.maker, port.model].filter((part): part is string => part !== null && part !== '').join(' ') ||
          port.manufacturer ||
          t('settings.portUnknown');
        return h(
          'li',
          { attrs: { 'data-address': port.address, 'data-likely': String(port.likely_pinpad) } },
          h(
            'span',
            { className: 'port-name' },
            h('code', {}, port.address),
            ' — ',
            device,
            port.likely_pinpad ? h('strong', {}, ` (${t('settings.portLikely')})`) : null,
          ),
          button(t('settings.portUse'), {
            label: t('settings.portUseLabel', { address: port.address }),
            onClick: () => this.#usePort(port.address),
          }),
        );
      }),
    );
  }

  #usePort(address: string): void {
    this.#choose(address);
    this.#portsStatus.textContent = t('settings.portChosen', { address });
  }

  async #scanBle(): Promise<void> {
    this.#bleScan.disabled = true;
    this.#ble = { kind: 'scanning' };
    this.#renderBle();
    try {
      const { devices } = await this.#context.client.call('operator.scanBle', { seconds: BLE_SCAN_SECONDS });
      this.#ble = { kind: 'found', devices, chosen: null };
    } catch (error) {
      this.#ble = { kind: 'failed', error };
    } finally {
      this.#bleScan.disabled = false;
      this.#renderBle();
    }
  }

  #renderBle(): void {
    const scan = this.#ble;
    if (scan.kind === 'idle') return;
    // A search that failed says so in colour too.
    if (scan.kind === 'failed') this.#bleStatus.dataset.level = 'bad';
    else delete this.#bleStatus.dataset.level;
    if (scan.kind !== 'found') {
      this.#bleList.replaceChildren();
      if (scan.kind === 'scanning')
        this.#bleStatus.textContent = t('settings.bleScanning', { seconds: BLE_SCAN_SECONDS });
      // No adapter, Bluetooth off, or no native Bluetooth module: all the same to the cashier.
      else
        this.#bleStatus.textContent =
          isPinbridgeError(scan.error, 'PINPAD_ERROR') && scan.error.data?.reason === 'BLE_UNAVAILABLE'
            ? t('settings.bleUnavailable')
            : errorText(scan.error);
      return;
    }
    const { devices, chosen } = scan;
    this.#bleStatus.textContent =
      chosen !== null
        ? t('settings.bleChosen', { address: chosen })
        : devices.length === 0
          ? t('settings.bleNone')
          : devices.length === 1
            ? t('settings.bleOne')
            : t('settings.bleMany', { n: devices.length });
    keepFocus(this.#bleList, () =>
      this.#bleList.replaceChildren(
        ...devices.map((device) => {
          const name = device.name ?? t('settings.bleNoName');
          return h(
            'li',
            { attrs: { 'data-address': device.address, 'data-rssi': String(device.rssi) } },
            h(
              'span',
              { className: 'port-name' },
              h('code', {}, device.address),
              ' — ',
              name,
              ', ',
              signalWords(device.rssi),
            ),
            button(t('settings.portUse'), {
              label: t('settings.bleUseLabel', { name, address: device.address }),
              focusKey: `ble:${device.address}`,
              onClick: () => this.#useBle(device.address),
            }),
          );
        }),
      ),
    );
  }

  #useBle(address: string): void {
    if (this.#ble.kind === 'found') this.#ble = { ...this.#ble, chosen: address };
    this.#renderBle();
    this.#choose(address);
  }
}
