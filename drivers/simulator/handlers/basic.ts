/**
 * Handlers of the basic commands (abecs.md §3.2–§3.12): session (OPN/CLO/CLX), information (GIN),
 * display (DSP/DEX), keypad and events (GKY/CEX/GCD/MNU) and card removal (RMC).
 */
import { randomBytes } from 'node:crypto';
import { truncatedTrack1, truncatedTrack2, type SimCard } from '../cards.js';
import { isDigitKey, waitFor, TIMED_OUT, type SimKey } from '../customer.js';
import { defineHandler, ST, StatusReply, type CommandHandler } from '../handler.js';
import { keyLoaded } from '../profiles.js';
import { nextKey, queueCard, readDigits, swipeReadable, typeScript } from '../interaction.js';
import { resolveCard, TEST_CARDS } from '../cards.js';
import { encryptKeyForHost, usablePublicKey } from '../rsa.js';
import type { DeviceState } from '../state.js';
import { CLO, CLX, GIN, OPN, type GinResult } from '../wire/commands/control.js';
import { KSEC_BYTES } from '../wire/secure.js';
import { DEX, DSP, RMC, type DexOptions } from '../wire/commands/display.js';
import { CEX, GCD, GKY, MNU, type CexEvent, type CexResult, type GkyKey } from '../wire/commands/input.js';
import { DISPLAY_COLUMNS, freeTextLines } from '../wire/text.js';
import { mediaNameOf } from '../wire/commands/media.js';
import { displayableImage } from './media.js';

/** Version strings the simulator reports ("VVV.VV YYMMDD"). */
export const MANAGER_VERSION = '001.00 250228';

// ------------------------------------------------------------------------------------------------
// Session

/**
 * OPN (S220 §3.2.1, §3.2.2, §6.4.1): always accepted, even without a CLO before it; it drops any
 * secure communication. A secure OPN (with the host's RSA key) on a 2.x PINPAD answers CRKSEC — a
 * fresh 16-byte KSEC in the PKCS #1 block of §5.2.1 under that key — and secure communication
 * starts (the session encrypts from the next command). A BibComp PINPAD (the legacy profile)
 * answers it as a classic OPN, `OPN000` with no data: what tells a host it is not an Abecs
 * PINPAD (§3.2.2). A public key no PINPAD can encrypt under is ST_INVPARM.
 */
const opn = defineHandler(OPN, (req, { device }) => {
  const publicKey = device.profile.secureCommunication ? req.publicKey : undefined;
  if (publicKey !== undefined && !usablePublicKey(publicKey, KSEC_BYTES)) throw new StatusReply(ST.INVPARM);
  device.open();
  if (publicKey === undefined) return {};
  const ksec = randomBytes(KSEC_BYTES);
  device.ksec = ksec;
  return { crksec: encryptKeyForHost(ksec, publicKey) };
});

/**
 * CLO (S220 §3.2.6, §6.4.5): the message stays on the idle display; secure communication, stored
 * tracks and the transaction end. "Situações de exceção: não há": an inconsistent CLO_MSG —
 * shorter or longer than 32 characters, or none at all (a bare `CLO`) — is shown as DSP shows
 * its message (§6.5.5: spaces for what is missing, the excess ignored), never refused, on every
 * profile.
 */
const clo = defineHandler(CLO, (req, { device }) => {
  device.show2x16(req.message);
  device.close();
  return {};
});

/**
 * CLX: SPE_MFNAME, an image loaded with MLI/MLR/MLE, wins over SPE_DSPMSG; when it cannot be
 * shown (a text-only PINPAD, no such file, a format or size the display does not take) the PINPAD
 * falls back to SPE_DSPMSG (S220 §6.4.5: "em caso de falha, deve-se usar a mensagem informada em
 * SPE_DSPMSG"); with neither, a blank display.
 */
const clx = defineHandler(CLX, (req, { device }) => {
  const name = req.mediaFile === undefined ? undefined : mediaNameOf(Buffer.from(req.mediaFile, 'latin1'));
  const file = name === undefined ? undefined : device.media?.get(name);
  const image = file === undefined ? undefined : displayableImage(device, file);
  if (image) device.showImage(image);
  else if (req.message !== undefined) showFreeText(device, req.message);
  else device.clearDisplay();
  device.close();
  return {};
});

// ------------------------------------------------------------------------------------------------
// Information

/** EMV kernel versions the device reports (GIX PP_KRNLVER…, GIN "02"/"03"). */
export function kernelVersions(device: DeviceState): {
  kernel: string;
  contactless: string;
  mastercard: string;
  visa: string;
} {
  return device.profile.name === 'ppc930'
    ? { kernel: '1.19', contactless: '1.0.3-20170613', mastercard: '3.0.3-20170613', visa: '1.0.2-20171120' }
    : { kernel: 'SIM EMV 1.0', contactless: 'SIM CTLS 1.0', mastercard: 'SIM MC 1.0', visa: 'SIM VISA 1.0' };
}

/**
 * GIN (S220 §3.2.3): "00" the general information; "02" and "03" their own 42-byte layouts (the
 * BibComp Redecard and Cielo annexes); any other index the common one.
 */
const gin = defineHandler(GIN, (req, { device }): GinResult => {
  const id = device.identity;
  const specVersion = id.specVersion.slice(0, 4);
  const versions = kernelVersions(device);
  switch (req.acquirer) {
    case 0:
      return {
        kind: 'general',
        manufacturer: id.manufacturer,
        model: id.model,
        // GIN_CTLSSUP: "C" only on a PINPAD with an antenna (the legacy profile has none).
        contactless: device.profile.contactless,
        firmware: id.firmware,
        specVersion,
        managerVersion: MANAGER_VERSION,
        serialNumber: id.serialNumber,
      };
    case 2:
      return { kind: 'acquirer02', kernelVersion: versions.kernel, appVersion: MANAGER_VERSION, specVersion };
    case 3:
      return {
        kind: 'acquirer03',
        kernelVersion: versions.kernel,
        contactlessVersion: versions.contactless,
        mastercardVersion: versions.mastercard,
        visaVersion: versions.visa,
        appVersion: MANAGER_VERSION,
        specVersion,
        dukptSlot01: keyLoaded(device.keys.dukptPin, 1),
      };
    default:
      return { kind: 'acquirer', appVersion: MANAGER_VERSION, specVersion };
  }
});

// ------------------------------------------------------------------------------------------------
// Display

function align(line: string, horizontal: DexOptions['horizontal'] | undefined): string {
  const text = line.slice(0, DISPLAY_COLUMNS);
  if (horizontal === 'right') return text.padStart(DISPLAY_COLUMNS);
  if (horizontal === 'center') return ' '.repeat(Math.floor((DISPLAY_COLUMNS - text.length) / 2)) + text;
  return text;
}

/**
 * Free text (DEX, CLX, the MNU title) on the display: split into lines at CR and any other
 * character below 20h (S220 §6.5.4, wire/text.ts), as many lines as the display has
 * (PP_DSPTXTSZ), each cut to 16 columns; DEX_OPTIONS may align it (2.20).
 */
export function showFreeText(device: DeviceState, text: string, options?: DexOptions): void {
  const height = device.lineCount;
  const lines = freeTextLines(text).slice(0, height);
  const spare = height - lines.length;
  const top = options?.vertical === 'bottom' ? spare : options?.vertical === 'center' ? Math.floor(spare / 2) : 0;
  const shown = [...Array.from({ length: top }, () => ''), ...lines];
  device.setLines(...shown.map((line) => align(line, options?.horizontal)));
}

/**
 * DSP (S220 §3.3.5, §6.5.5): CMD_LEN1 is "fixo 032" for the host, yet the PINPAD's processing
 * opens robustness exceptions — controls shown as spaces, a short message (a bare `DSP` too)
 * completed with spaces, extra characters ignored — and lists no exception situation. So a DSP
 * of any length is shown, never refused, on every profile, the strict one included.
 */
const dsp = defineHandler(DSP, (req, { device }) => {
  device.show2x16(req.message);
  return {};
});

const dex = defineHandler(DEX, (req, { device }) => {
  showFreeText(device, req.message, req.options);
  return {};
});

// ------------------------------------------------------------------------------------------------
// Keys and events

const GKY_KEYS: Partial<Record<SimKey, GkyKey>> = {
  enter: 'enter',
  f1: 'f1',
  f2: 'f2',
  f3: 'f3',
  f4: 'f4',
  clear: 'clear',
  cancel: 'cancel',
};

/** GKY: the next function key (numeric keys are ignored); the key travels in RSP_STAT. */
const gky = defineHandler(GKY, async (_req, ctx) => {
  const autoKeys = ctx.device.autoCustomer?.keys ?? '{enter}';
  for (;;) {
    const key = await nextKey(ctx, undefined, autoKeys);
    if (key === TIMED_OUT) continue;
    const mapped = GKY_KEYS[key];
    if (mapped) return { key: mapped };
  }
});

const CEX_KEYS: Partial<Record<SimKey, CexEvent>> = {
  enter: 'enter',
  up: 'up',
  down: 'down',
  f1: 'f1',
  f2: 'f2',
  f3: 'f3',
  f4: 'f4',
  clear: 'clear',
  cancel: 'cancel',
};

function swipeTracks(card: SimCard, mask: { left: number; right: number } | undefined): CexResult['tracks'] {
  let track1 = truncatedTrack1(card);
  let track2 = truncatedTrack2(card);
  if (mask) {
    const masked =
      card.pan.slice(0, mask.left).padEnd(card.pan.length - mask.right, '*') +
      card.pan.slice(card.pan.length - mask.right);
    track1 = track1.replace(card.pan, masked);
    track2 = track2.replace(card.pan, masked);
  }
  return { track1, track2 };
}

/**
 * CEX: waits for the events the mask enables. A tapped card stays in the field for the GCX that
 * follows (as in the TRACE sequence CEX → GCX); a swiped card's tracks are kept for GTK.
 */
const cex = defineHandler(CEX, async (req, ctx) => {
  const { device } = ctx;
  // CEX always clears the tracks kept for GTK (S220 §6.5.1).
  device.swipedCard = undefined;
  device.emptySwipe = false;
  const check = (): CexResult | undefined => {
    if (req.key) {
      for (let key = device.keypad.take(); key !== undefined; key = device.keypad.take()) {
        const event = CEX_KEYS[key];
        if (event) return { event };
      }
    } else {
      // Keys are not events for this CEX; drop them so they do not leak into a later command.
      while (device.keypad.take() !== undefined);
    }
    if (req.icc === 'insertion' && device.slotCard) return { event: 'iccInserted' };
    if (req.icc === 'removal' && !device.slotCard) return { event: 'iccRemoved' };
    const next = device.nextCard;
    if (next?.how === 'tap' && req.contactless) return { event: 'contactlessDetected' };
    if (next?.how === 'swipe' && req.magstripe) {
      device.nextCard = undefined;
      // No readable track: the event alone, no track fields (S220 §3.3.1); GTK then answers ST_OK
      // with no card data (§6.5.12).
      if (!swipeReadable(device, next.card)) {
        device.emptySwipe = true;
        return { event: 'cardSwiped' };
      }
      device.swipedCard = next.card;
      device.swipedTracksRead = false;
      return { event: 'cardSwiped', tracks: swipeTracks(next.card, req.panMask) };
    }
    if (next?.how === 'insert' && req.icc === 'insertion') {
      device.nextCard = undefined;
      device.slotCard = next.card;
      return { event: 'iccInserted' };
    }
    return undefined;
  };
  const hostLimit = req.timeoutSeconds === undefined ? undefined : device.hostSeconds(req.timeoutSeconds);
  const ctlsCap = req.contactless ? device.timings.ctlsIdleMs : undefined;
  const limit = hostLimit === undefined ? ctlsCap : ctlsCap === undefined ? hostLimit : Math.min(hostLimit, ctlsCap);
  const auto = device.autoCustomer;
  const result = await waitFor(device.events, check, {
    signal: ctx.signal,
    ...(limit === undefined ? {} : { timeoutMs: limit }),
    ...(auto
      ? {
          auto: {
            afterMs: auto.delayMs,
            act: () => {
              if (
                req.key &&
                (auto.keys !== undefined || !(req.contactless || req.magstripe || req.icc === 'insertion'))
              ) {
                typeScript(device, auto.keys ?? '{enter}');
              } else if (auto.matchApplication !== true) {
                queueCard(device, auto.card ? resolveCard(auto.card) : TEST_CARDS.visaCredit);
              }
              // A customer who hands over the card matching the sale waits for the card command
              // that names the application (GCR/GCX); CEX does not.
            },
          },
        }
      : {}),
  });
  if (result !== TIMED_OUT) return result;
  // The antenna's 2-minute cap is an event; the host's own limit is ST_TIMEOUT.
  if (ctlsCap !== undefined && (hostLimit === undefined || ctlsCap <= hostLimit))
    return { event: 'contactlessTimeout' };
  throw new StatusReply(ST.TIMEOUT);
});

/** pt-BR prompts of the fixed GCD messages (S220 §3.3.8), one 16-column line each. */
export const GCD_PROMPTS: Readonly<Record<number, string>> = {
  0x01: 'DIGITE O DDD',
  0x02: 'REDIGITE O DDD',
  0x03: 'DIGITE TELEFONE',
  0x04: 'REDIGITE TELEF.',
  0x05: 'DDD + TELEFONE',
  0x06: 'REDIGITE DDD+TEL',
  0x07: 'DIGITE O CPF',
  0x08: 'REDIGITE O CPF',
  0x09: 'DIGITE O RG',
  0x0a: 'REDIGITE O RG',
  0x0b: 'ULTIMOS 4 DIG.',
  0x0c: 'COD. SEGURANCA',
  0x0d: 'DIGITE O CNPJ',
  0x0e: 'REDIGITE O CNPJ',
  0x0f: 'DATA DDMMAAAA',
  0x10: 'DATA DDMMAA',
  0x11: 'DATA DDMM',
  0x12: 'DIGITE O DIA DD',
  0x13: 'DIGITE O MES MM',
  0x14: 'DIGITE O ANO AA',
  0x15: 'ANO AAAA',
  0x16: 'NASC. DDMMAAAA',
  0x17: 'NASC. DDMMAA',
  0x18: 'NASC. DDMM',
  0x19: 'DIA NASC. DD',
  0x1a: 'MES NASC. MM',
  0x1b: 'ANO NASC. AA',
  0x1c: 'ANO NASC. AAAA',
  0x1d: 'IDENTIFICACAO',
  0x1e: 'COD. FIDELIDADE',
  0x1f: 'NUMERO DA MESA',
  0x20: 'QTD. DE PESSOAS',
  0x21: 'QUANTIDADE',
  0x22: 'NUMERO DA BOMBA',
  0x23: 'NUMERO DA VAGA',
  0x24: 'NUMERO DO CAIXA',
  0x25: 'COD. VENDEDOR',
  0x26: 'COD. GARCOM',
  0x27: 'NOTA AO SERVICO',
  0x28: 'NOTA FISCAL',
  0x29: 'NUMERO COMANDA',
  0x2a: 'PLACA VEICULO',
  0x2b: 'QUILOMETRAGEM',
  0x2c: 'KM INICIAL',
  0x2d: 'KM FINAL',
  0x2e: 'PORCENTAGEM',
  0x2f: 'PESQUISA 0 A 10',
  0x30: 'AVALIE DE 0 A 10',
  0x31: 'DIGITE O TOKEN',
  0x32: 'NUMERO CARTAO',
  0x33: 'NUM. PARCELAS',
  0x34: 'COD. DO PLANO',
  0x35: 'COD. DO PRODUTO',
};

/** DIGITE O CNPJ, REDIGITE O CNPJ: where the scripted customer types its `cnpj`. */
const CNPJ_PROMPTS: ReadonlySet<number> = new Set([0x0d, 0x0e]);
/** IDENTIFICACAO: where the scripted person types its `identification`. */
const IDENTIFICATION_PROMPT = 0x1d;

/** GCD: fixed prompt, digits shown in clear right-aligned, display cleared at the end. */
const gcd = defineHandler(GCD, async (req, ctx) => {
  const prompt = GCD_PROMPTS[req.message];
  if (prompt === undefined) throw new StatusReply(ST.INVPARM);
  const min = req.minDigits ?? 0;
  const max = req.maxDigits ?? 32;
  if (min > max) throw new StatusReply(ST.INVPARM);
  const auto = ctx.device.autoCustomer;
  try {
    const value = await readDigits(ctx, {
      min,
      max,
      idleMs: req.timeoutSeconds === undefined ? undefined : ctx.device.hostSeconds(req.timeoutSeconds),
      render: (typed) => ctx.device.setLines(prompt, typed.slice(-DISPLAY_COLUMNS).padStart(DISPLAY_COLUMNS)),
      autoKeys: `${(CNPJ_PROMPTS.has(req.message) ? auto?.cnpj : undefined) ?? (req.message === IDENTIFICATION_PROMPT ? auto?.identification : undefined) ?? auto?.cpf ?? '1'.repeat(Math.max(min, 1))}{enter}`,
    });
    return { value };
  } finally {
    if (!ctx.signal.aborted) ctx.device.clearDisplay();
  }
});

/**
 * MNU: the title on line 1, the highlighted option on line 2. A digit picks that option
 * directly, up/down move the highlight (NTM-free), ENTER takes the highlighted one.
 */
const mnu = defineHandler(MNU, async (req, ctx) => {
  const { device } = ctx;
  // The title takes the lines above the last one (one line on a 2×16 display), the highlighted
  // option the line below it.
  const title = req.title === undefined ? [''] : freeTextLines(req.title).slice(0, Math.max(1, device.lineCount - 1));
  let highlight = 0;
  const render = (): void => device.setLines(...title, req.options[highlight]!);
  render();
  const idleMs = req.timeoutSeconds === undefined ? undefined : device.hostSeconds(req.timeoutSeconds);
  try {
    for (;;) {
      const key = await nextKey(ctx, idleMs, device.autoCustomer?.keys ?? '1');
      if (key === TIMED_OUT) throw new StatusReply(ST.TIMEOUT);
      if (key === 'cancel') throw new StatusReply(ST.CANCEL);
      if (key === 'enter') return { index: highlight + 1 };
      if (key === 'up') highlight = (highlight + req.options.length - 1) % req.options.length;
      if (key === 'down') highlight = (highlight + 1) % req.options.length;
      if (isDigitKey(key)) {
        const picked = key === '0' ? 10 : Number(key);
        if (picked <= req.options.length) return { index: picked };
      }
      render();
    }
  } finally {
    if (!ctx.signal.aborted) device.clearDisplay();
  }
});

// ------------------------------------------------------------------------------------------------
// Card removal

/**
 * RMC: with no card in the slot, shows the message and returns at once; otherwise alternates the
 * message with "RETIRE O CARTAO" until the card is removed. The message stays at the end; an
 * abort clears the display.
 */
const rmc = defineHandler(RMC, async (req, ctx) => {
  const { device } = ctx;
  device.show2x16(req.message);
  device.transaction = undefined;
  if (!device.slotCard) return {};
  let showingMessage = true;
  const alternate = setInterval(() => {
    showingMessage = !showingMessage;
    if (showingMessage) device.show2x16(req.message);
    else device.setLines('RETIRE O CARTAO', '');
  }, device.timings.rmcAlternateMs);
  try {
    await waitFor(device.events, () => (device.slotCard ? undefined : true), {
      signal: ctx.signal,
      ...(device.autoCustomer
        ? { auto: { afterMs: device.autoCustomer.delayMs, act: () => removeFromSlot(device) } }
        : {}),
    });
    device.show2x16(req.message);
    return {};
  } catch (error) {
    device.clearDisplay();
    throw error;
  } finally {
    clearInterval(alternate);
  }
});

export function removeFromSlot(device: DeviceState): void {
  if (!device.slotCard) return;
  device.logger.debug({}, 'simulator: card removed');
  device.slotCard = undefined;
  device.changed();
}

export const BASIC_HANDLERS: readonly CommandHandler[] = [opn, clo, clx, gin, dsp, dex, gky, cex, gcd, mnu, rmc];
