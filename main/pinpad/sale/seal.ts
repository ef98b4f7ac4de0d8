/**
 * After the card was read, what goes to the authorizer: the card's PIN and first GENERATE AC,
 * and its card data sealed by the PINPAD for the acquirer's host — never a clear PAN or track.
 *
 * - Chip and contactless chip: GTK seals track 2 by the acquirer's card data method, then GOX
 *   (step chip, limit pinMs): force online, online PIN by the acquirer's PIN method (DUKPT or
 *   MK/WK, key-methods.ts), PIN bypass not allowed.
 * - A swiped card: GPN (step chip) for the PIN on a debit sale or when its service code asks for
 *   one; nothing otherwise; then GTK.
 *
 * On a legacy PINPAD: GOC instead of GOX, and no GTK (legacy-sale.ts).
 */
import type { GoxResult } from '../../../drivers/abecs/commands/gox.js';
import type { GtkEncryption } from '../../../drivers/abecs/commands/gtk.js';
import type { CardRead, ChipDecision } from '../../core/ports.js';
import {
  AUTHORIZATION_TAGS,
  CardDataError,
  cardSaleData,
  pinTryLimitExceeded,
  type CardReadSummary,
  type EncryptedCardData,
  type SwipedCardPin,
  type TerminalDescription,
} from '../card-data.js';
import type { CardDataKeyMethod } from '../key-methods.js';
import { goOnChipGoc } from '../legacy-sale.js';
import { SaleStepError } from '../sale-errors.js';
import { CURRENCY_BRL, HOST_GRACE_MS, pinpadSeconds, TRANSACTION_PURCHASE, type SaleContext } from './context.js';
import { pinPrompt } from './display.js';
import type { SaleKeys } from './keys.js';
import type { SaleTables } from './tables.js';

const PIN_MIN_DIGITS = 4;
const PIN_MAX_DIGITS = 12;

const CHIP_DECISIONS: Readonly<Record<GoxResult['decision'], ChipDecision>> = {
  goOnline: 'online',
  approvedOffline: 'offlineApproved',
  declined: 'offlineDeclined',
};

/** What the sealing steps need of the sale and of the PINPAD's session. */
export interface SealRequest {
  readonly amount: number;
  readonly paymentType: 'credit' | 'debit';
  /** A legacy (BibComp 1.08) PINPAD: GOC, and no GTK. */
  readonly legacy: boolean;
  readonly signal: AbortSignal | undefined;
}

/** The sealing steps' share of the session: its tables (acquirer, application types, versions) and its keys. */
export interface SealSession {
  readonly context: SaleContext;
  readonly tables: SaleTables;
  readonly keys: SaleKeys;
}

/**
 * A chip card (contact or contactless): the acquirer whose AID table matched an application of
 * the sale's type (else UNSUPPORTED_CARD), its card data sealed (GTK), then the chip's first
 * GENERATE AC with the PIN (GOX, or GOC). A card that blocked its PIN: PIN_BLOCKED.
 */
export async function sealChipCard(
  session: SealSession,
  read: CardReadSummary,
  request: SealRequest,
): Promise<CardRead> {
  const { context, tables, keys } = session;
  const { amount, paymentType, legacy, signal } = request;
  const acquirer = await context.step('read_card', () =>
    acquirerFor(read, paymentType, tables.applicationTypes(paymentType)),
  );
  const methods = await context.step('read_card', () => keys.methodsFor(acquirer));
  // The track 2 equivalent sealed for the acquirer's host, before the PIN (S220 §3.7.5: GCX,
  // then GTK, then GOX; a Gertec PPC-930 session does the same, abecs.md §6.3). GTK is 2.x.
  const encryptedCardData = legacy
    ? null
    : await context.step('read_card', () => encryptedTracks(context, methods.cardData));
  const chip = await context.step('chip', () =>
    legacy
      ? goOnChipGoc(context, { amount, acquirer, pinKey: methods.pin, signal })
      : context.pinpad.goOnChip(
          {
            acquirer,
            transactionType: TRANSACTION_PURCHASE,
            amount,
            currency: CURRENCY_BRL,
            options: { exceptionList: false, forceOnline: true, noPinBypass: true },
            pinMethod: methods.pin.method,
            keyIndex: methods.pin.slot,
            ...(methods.pin.method === 'mkwk' ? { workingKey: Buffer.from(methods.pin.working_key, 'hex') } : {}),
            tagList: AUTHORIZATION_TAGS,
            timeout: pinpadSeconds(context.timeouts.pinMs),
          },
          context.wait(signal, context.timeouts.pinMs + HOST_GRACE_MS),
        ),
  );
  if (chip.decision === 'declined' && pinTryLimitExceeded(chip)) {
    // The wrong PINs were typed on the PINPAD ("SENHA INVALIDA"…); the chip now refuses.
    throw new SaleStepError('PIN_BLOCKED', 'chip', {
      message: 'the card blocked its PIN after too many wrong PINs (TVR: PIN try limit exceeded).',
    });
  }
  const terminal = await context.step('chip', () => terminalDescription(session));
  const data = await context.step('chip', () =>
    cardSaleData(read, { chip, encryptedCardData, pinMethod: methods.pin, acquirer }, terminal),
  );
  const chipDecision = CHIP_DECISIONS[chip.decision];
  return { ...data, chipDecision, needsChipCompletion: chipDecision === 'online' };
}

/** A swiped card: the PIN (GPN) when the sale or the card asks for one (swipeNeedsPin), then its tracks sealed (GTK). */
export async function sealSwipedCard(
  session: SealSession,
  read: CardReadSummary,
  request: SealRequest,
): Promise<CardRead> {
  const { context, tables, keys } = session;
  const { amount, paymentType, legacy, signal } = request;
  const acquirer = tables.acquirer();
  const methods = await context.step('read_card', () => keys.methodsFor(acquirer));
  let swipedPin: SwipedCardPin | null = null;
  if (swipeNeedsPin(read, paymentType)) {
    swipedPin = await context.step('chip', () =>
      context.pinpad.readPin(
        {
          ...(methods.pin.method === 'mkwk'
            ? { method: 'mkwk', workingKey: methods.pin.working_key }
            : { method: 'dukpt' }),
          keyIndex: methods.pin.slot,
          minDigits: PIN_MIN_DIGITS,
          maxDigits: PIN_MAX_DIGITS,
          message: pinPrompt(amount),
        },
        context.wait(signal, context.timeouts.pinMs + HOST_GRACE_MS),
      ),
    );
  }
  // The tracks for the authorizer, encrypted on the PINPAD; after the PIN, because GTK takes the
  // card out of the PINPAD's memory and GPN "00" needs it there (S220 §6.5.11). GTK is 2.x: a
  // legacy PINPAD's magstripe authorization goes without encrypted card data.
  const encryptedCardData = legacy
    ? null
    : await context.step('read_card', () => encryptedTracks(context, methods.cardData));
  const terminal = await context.step('chip', () => terminalDescription(session));
  const data = await context.step('chip', () =>
    cardSaleData(
      read,
      {
        swipedPin,
        encryptedCardData,
        pinMethod: methods.pin,
        ...(acquirer !== undefined ? { acquirer } : {}),
      },
      terminal,
    ),
  );
  return { ...data, chipDecision: 'online', needsChipCompletion: false };
}

/** A swiped card asks for a PIN on a debit sale, or when its service code says so (digit 3: 0, 3, 5, 6, 7). */
function swipeNeedsPin(read: CardReadSummary, paymentType: 'credit' | 'debit'): boolean {
  if (paymentType === 'debit') return true;
  return read.serviceCode !== undefined && '03567'.includes(read.serviceCode[2]!);
}

/** The acquirer whose AID table matched the card with an application of the sale's type. */
function acquirerFor(read: CardReadSummary, paymentType: 'credit' | 'debit', wanted: readonly number[]): number {
  const entries = read.aidTableInfo;
  if (entries === undefined) {
    throw new SaleStepError('PINPAD_ERROR', 'read_card', {
      message: 'the PINPAD read a chip card without saying which AID table matched.',
    });
  }
  const match = entries.find((entry) => wanted.includes(entry.appType));
  if (!match) {
    throw new SaleStepError('UNSUPPORTED_CARD', 'read_card', {
      message: `the card has no ${paymentType} application.`,
      cashierMessage:
        paymentType === 'debit'
          ? 'Este cartão não tem a função débito. Use outro cartão ou pague no crédito.'
          : 'Este cartão não tem a função crédito. Use outro cartão ou pague no débito.',
    });
  }
  return match.acquirer;
}

/**
 * GTK: the PAN and track 2 of the card just read, encrypted by the PINPAD for the acquirer's host
 * by its card data method (TDES ECB): under the DUKPT data key of a slot (DAT#3: one KSN for
 * both, S220 §6.3.4.2), under the working key the host issued for a data master key slot, or
 * under a random key the PINPAD makes for this card and returns under the host's RSA public key
 * (PP_ENCKRAND) — what every card-present authorization carries instead of the clear PAN and
 * tracks (a chip card's track 2 equivalent included). Track 2 when the PINPAD gave it, else the
 * PAN. Only ECB: the host needs nothing CBC would add.
 */
async function encryptedTracks(context: SaleContext, method: CardDataKeyMethod): Promise<EncryptedCardData> {
  const encryption: GtkEncryption =
    method.method === 'dukpt'
      ? { method: 'dukptEcb', keyIndex: method.slot }
      : method.method === 'mkwk'
        ? { method: 'mkwkEcb', keyIndex: method.slot, workingKey: Buffer.from(method.working_key, 'hex') }
        : {
            method: 'randomEcb',
            publicKey: { modulus: Buffer.from(method.modulus, 'hex'), exponent: Buffer.from(method.exponent, 'hex') },
          };
  const result = await context.pinpad.readEncryptedTracks({ tracks: { pan: true, track2: true }, encryption });
  const format = result.track2 !== undefined ? 'track2' : 'pan';
  const sealed = result.track2 ?? result.pan;
  if (sealed === undefined) {
    throw new CardDataError('UNREADABLE_CARD', 'The PINPAD returned no encrypted track or PAN (GTK).');
  }
  const payload = sealed.toString('hex').toUpperCase();
  switch (method.method) {
    case 'dukpt': {
      const ksn = result.track2 !== undefined ? result.ksns?.track2 : result.ksns?.pan;
      if (ksn === undefined) {
        throw new CardDataError(
          'UNREADABLE_CARD',
          'The PINPAD returned no encrypted track or PAN, or no KSN for it (GTK).',
        );
      }
      return {
        format,
        method: 'dukpt_tdes_ecb',
        key_slot: method.slot,
        ksn: ksn.toString('hex').toUpperCase(),
        payload,
      };
    }
    case 'mkwk':
      return { format, method: 'mkwk_tdes_ecb', key_slot: method.slot, working_key: method.working_key, payload };
    default:
      if (result.encryptedKey === undefined) {
        throw new CardDataError(
          'UNREADABLE_CARD',
          'The PINPAD returned no encrypted random key (PP_ENCKRAND) with the tracks it sealed under it (GTK "90").',
        );
      }
      return {
        format,
        method: 'random_key_tdes_ecb',
        encrypted_key: result.encryptedKey.toString('hex').toUpperCase(),
        key_id: method.key_id,
        payload,
      };
  }
}

/**
 * The PINPAD as the authorization names it: manufacturer and model, and the EMV table version
 * of each acquirer — as the identification read at attach gave them (GIX PP_TABVERnn), with
 * the versions this session loaded since. Versions that are not the spec's ten digits are left out.
 */
async function terminalDescription(session: SealSession): Promise<TerminalDescription> {
  const info = await session.context.pinpad.info();
  const versions: Record<string, string> = {};
  const loaded = session.tables.loadedVersions();
  for (const [acquirer, version] of [...Object.entries(info.tableVersions ?? {}), ...loaded]) {
    if (/^[0-9]{10}$/.test(version)) versions[String(acquirer).padStart(2, '0')] = version;
  }
  const model = `${info.manufacturer} ${info.model}`.trim().slice(0, 64);
  return { ...(model !== '' ? { model } : {}), table_versions: versions };
}
