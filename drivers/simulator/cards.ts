/**
 * Scriptable test cards for the simulated PINPAD. A `SimCard` describes what the card *is*
 * (PAN, expiry, label, entry mode) and how it *behaves* during a transaction (PIN, the decision
 * its chip takes, whether it refuses after an online approval, whether the customer pulls it out
 * too early). Every PAN in the catalogue is a publicly documented test PAN that passes Luhn; the
 * EMV data the simulator generates for them is random bytes, test data only.
 */
import { luhnValid } from '../card-number.js';
import { InvalidArgumentError } from '../errors.js';

export { luhnValid };

export type CardEntry = 'chip' | 'contactless' | 'magstripe';
export type CardBrand = 'visa' | 'mastercard' | 'elo';
/** What the card decides in GOC/GOX (first Generate AC). */
export type CardOutcome = 'online' | 'offlineApproved' | 'offlineDeclined';

export interface SimCard {
  readonly entry: CardEntry;
  /** Primary account number, 13–19 digits, Luhn-valid. */
  readonly pan: string;
  /** Expiry date "YYMMDD". */
  readonly expiry: string;
  /** Name as on the card (ASCII, ≤ 26 characters). */
  readonly cardholderName: string;
  /** Application label the PINPAD shows after "SELECIONADO:" (≤ 16 characters), e.g. "CREDITO". */
  readonly label: string;
  readonly brand: CardBrand;
  /** Magnetic service code, 3 digits (2xx = chip card, x2x/x0x PIN rules). */
  readonly serviceCode: string;
  /** True when the card asks for a PIN (offline or online, as the card's CVM list would). */
  readonly requiresPin: boolean;
  /** The PIN the customer types when the simulator answers for them (autoCustomer). */
  readonly pin?: string;
  readonly outcome: CardOutcome;
  /** FNC/FCX: the card declines although the host approved (the host must then reverse). */
  readonly refuseAfterOnline?: boolean;
  /** The card leaves the slot mid-transaction: the next chip command fails with an ICC error. */
  readonly removeEarly?: boolean;
  /** Application type of the AID ("01" credit, "02" debit); derived from the label when absent. */
  readonly applicationType?: string;
  /** PAN sequence number (tag 5F34), two digits; "00" when absent. */
  readonly panSequenceNumber?: string;
  /** ISO 3166 numeric issuer country; "076" (Brazil) when absent. */
  readonly issuerCountry?: string;
  /**
   * A chip that fails as soon as it is inserted (GCX/GCR answer the ICC error and the card stays
   * in the slot, S220 §6.9.1.2): 'mute' ST_DUMBCARD (060), 'error' ST_ERRCARD (061), 'fallback'
   * ST_ERRFALLBACK (076), 'noApplication' ST_CARDAPPNAV (070). A magnetic read by the next GCX
   * then reports PP_ICCSTAT "1" (or "2" after 'noApplication'), S220 §6.9.1.1.
   */
  readonly iccFailure?: IccFailure;
  /** Every swipe of this card reads no track (GCX/CEX: ST_OK without tracks, S220 §6.9.1.1). */
  readonly unreadableSwipe?: boolean;
  /** The first n swipes of this card (per simulated PINPAD) read no track; later ones do. */
  readonly unreadableSwipes?: number;
  /**
   * The card's CVM is offline (enciphered) PIN: the chip verifies the PIN in GOC/GOX instead of
   * the issuer (S220 §6.8.4, §6.9.3), with `tries` left on its PIN try counter at first. A wrong
   * PIN is asked again ("SENHA INVALIDA"), the last try is announced ("PROX. ERRO BLOQUEIA
   * SENHA"), and at 0 the PIN is blocked ("SENHA BLOQUEADA") and the card declines (AAC, TVR
   * "PIN try limit exceeded"). The counter lives on the chip: it carries over between sales on
   * the same simulated PINPAD, and a right PIN resets it.
   */
  readonly offlinePin?: { readonly tries: number };
  /**
   * The card's contactless interface emulates the magnetic stripe only (Visa MSD, PayPass Mag
   * Stripe, S220 §6.9.1 "CTLS simulando tarja"): a tap reads as PP_CARDTYPE / GCR_CARDTYPE "05",
   * with the tracks and no EMV processing after the read (no GOX, processed as a swipe).
   */
  readonly contactlessMagstripe?: boolean;
}

export type IccFailure = 'mute' | 'error' | 'fallback' | 'noApplication';

const brandFromPan = (pan: string): CardBrand => {
  if (pan.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(pan)) return 'mastercard';
  return 'elo';
};

/** Throws InvalidArgumentError when a card could not exist on a real PINPAD. */
export function validateCard(card: SimCard): void {
  if (!/^[0-9]{13,19}$/.test(card.pan) || !luhnValid(card.pan)) {
    throw new InvalidArgumentError('A simulated card needs a 13–19 digit PAN that passes the Luhn check.');
  }
  if (!/^[0-9]{2}(0[1-9]|1[0-2])[0-9]{2}$/.test(card.expiry)) {
    throw new InvalidArgumentError('A simulated card expiry must be "YYMMDD".');
  }
  if (!/^[0-9]{3}$/.test(card.serviceCode)) {
    throw new InvalidArgumentError('A simulated card service code must be three digits.');
  }
  if (card.label.length === 0 || card.label.length > 16 || card.cardholderName.length > 26) {
    throw new InvalidArgumentError('A simulated card label takes 1–16 characters and the name at most 26.');
  }
  if (card.pin !== undefined && !/^[0-9]{4,12}$/.test(card.pin)) {
    throw new InvalidArgumentError('A simulated card PIN must be 4–12 digits.');
  }
  if (
    card.offlinePin !== undefined &&
    !(Number.isInteger(card.offlinePin.tries) && card.offlinePin.tries >= 0 && card.offlinePin.tries <= 15)
  ) {
    throw new InvalidArgumentError('offlinePin.tries is a PIN try counter: an integer from 0 to 15.');
  }
  if (card.unreadableSwipes !== undefined && !(Number.isInteger(card.unreadableSwipes) && card.unreadableSwipes >= 0)) {
    throw new InvalidArgumentError('unreadableSwipes counts swipes: an integer ≥ 0.');
  }
  if (card.contactlessMagstripe === true && card.entry !== 'contactless') {
    throw new InvalidArgumentError('A contactless magstripe card is a contactless card (entry "contactless").');
  }
}

/** Application type ("01" credit, "02" debit) the AID table would give this card. */
export function applicationTypeOf(card: SimCard): string {
  if (card.applicationType) return card.applicationType;
  return /DEBIT|ELECTRON|MAESTRO/i.test(card.label) ? '02' : '01';
}

/** The magnetic / chip-equivalent track 2 without sentinels: PAN=YYMM SVC discretionary. */
export function track2Of(card: SimCard): string {
  return `${card.pan}=${card.expiry.slice(0, 4)}${card.serviceCode}${discretionary(card)}`;
}

/** Track 1 without sentinels: B PAN ^ NAME ^ YYMM SVC discretionary. */
export function track1Of(card: SimCard): string {
  const name = card.cardholderName.toUpperCase().padEnd(2, ' ').slice(0, 26);
  return `B${card.pan}^${name}^${card.expiry.slice(0, 4)}${card.serviceCode}${discretionary(card)}`;
}

/**
 * Incomplete tracks as CEX/GCX report them (abecs.md §3.9): track 1 cut 7 characters after the
 * second "^", track 2 cut 7 characters after "=" — PAN, name, expiry and service code survive.
 */
export function truncatedTrack1(card: SimCard): string {
  const t1 = track1Of(card);
  const second = t1.indexOf('^', t1.indexOf('^') + 1);
  return t1.slice(0, second + 1 + 7);
}

export function truncatedTrack2(card: SimCard): string {
  const t2 = track2Of(card);
  return t2.slice(0, t2.indexOf('=') + 1 + 7);
}

// Fixed, obviously fake discretionary data: keeps tracks deterministic per card.
function discretionary(card: SimCard): string {
  return `${card.pan.slice(-4)}00000000`.slice(0, 12);
}

interface CardShape {
  pan: string;
  label: string;
  name: string;
  entry?: CardEntry;
  outcome?: CardOutcome;
  requiresPin?: boolean;
  serviceCode?: string;
  extra?: Partial<SimCard>;
}

function card(shape: CardShape): SimCard {
  const entry = shape.entry ?? 'chip';
  const requiresPin = shape.requiresPin ?? entry === 'chip';
  const built: SimCard = {
    entry,
    pan: shape.pan,
    expiry: '301231',
    cardholderName: shape.name,
    label: shape.label,
    brand: brandFromPan(shape.pan),
    serviceCode: shape.serviceCode ?? (entry === 'magstripe' ? '101' : '201'),
    requiresPin,
    ...(requiresPin ? { pin: '1234' } : {}),
    outcome: shape.outcome ?? 'online',
    ...shape.extra,
  };
  validateCard(built);
  return Object.freeze(built);
}

/**
 * Well-known test cards. PANs: Visa 4111…1111 / 4012888888881881 / 4000056655665556 /
 * 4761739001010010, Mastercard 5555…4444 / 5200828282828210 / 2223000048400011 /
 * 2223003122003222 / 5105105105105100, Elo 6362970000457013 / 5066991111111118 — all public
 * test numbers.
 */
export const TEST_CARDS = Object.freeze({
  visaCredit: card({ pan: '4111111111111111', label: 'CREDITO', name: 'TESTE/VISA CREDITO' }),
  visaDebit: card({ pan: '4000056655665556', label: 'DEBITO', name: 'TESTE/VISA DEBITO' }),
  mastercardCredit: card({ pan: '5555555555554444', label: 'CREDITO', name: 'TESTE/MASTER CREDITO' }),
  mastercardDebit: card({ pan: '5200828282828210', label: 'DEBITO', name: 'TESTE/MASTER DEBITO' }),
  eloCredit: card({ pan: '6362970000457013', label: 'ELO CREDITO', name: 'TESTE/ELO CREDITO' }),
  eloDebit: card({ pan: '5066991111111118', label: 'ELO DEBITO', name: 'TESTE/ELO DEBITO', extra: { brand: 'elo' } }),
  // Offline PIN verified by the chip (PIN 1234), three tries; and one whose last try is left.
  eloOfflinePin: card({
    pan: '6362970000457021',
    label: 'ELO CREDITO',
    name: 'TESTE/ELO SENHA OFFLINE',
    extra: { pin: '1234', offlinePin: { tries: 3 } },
  }),
  eloOfflinePinLastTry: card({
    pan: '6362970000457039',
    label: 'ELO CREDITO',
    name: 'TESTE/ELO ULTIMA TENTATIVA',
    extra: { pin: '1234', offlinePin: { tries: 1 } },
  }),
  visaContactless: card({
    pan: '4761739001010010',
    label: 'CREDITO',
    name: 'TESTE/VISA CTLS',
    entry: 'contactless',
    requiresPin: false,
  }),
  mastercardContactless: card({
    pan: '2223000048400011',
    label: 'CREDITO',
    name: 'TESTE/MASTER CTLS',
    entry: 'contactless',
    requiresPin: false,
  }),
  // PayPass Mag Stripe: the tap reads as "CTLS simulando tarja" (PP_CARDTYPE 05, entry mode 911).
  mastercardContactlessMagstripe: card({
    pan: '2223003122003222',
    label: 'CREDITO',
    name: 'TESTE/MASTER CTLS TARJA',
    entry: 'contactless',
    requiresPin: false,
    extra: { contactlessMagstripe: true },
  }),
  visaMagstripe: card({
    pan: '4012888888881881',
    label: 'CREDITO',
    name: 'TESTE/VISA TARJA',
    entry: 'magstripe',
    requiresPin: false,
  }),
  mastercardOfflineApproved: card({
    pan: '5105105105105100',
    label: 'CREDITO',
    name: 'TESTE/OFFLINE APROVADO',
    outcome: 'offlineApproved',
  }),
  visaOfflineDeclined: card({
    pan: '4000000000000002',
    label: 'CREDITO',
    name: 'TESTE/RECUSA OFFLINE',
    outcome: 'offlineDeclined',
  }),
  visaRefuseAfterOnline: card({
    pan: '4000000000000127',
    label: 'CREDITO',
    name: 'TESTE/RECUSA POS ONLINE',
    extra: { refuseAfterOnline: true },
  }),
  visaRemovedEarly: card({
    pan: '4000000000000119',
    label: 'CREDITO',
    name: 'TESTE/CARTAO REMOVIDO',
    extra: { removeEarly: true },
  }),
  // A chip card's stripe (service code 2xx: "use the chip") swiped instead of inserted.
  visaChipSwiped: card({
    pan: '4111111111111111',
    label: 'CREDITO',
    name: 'TESTE/VISA CHIP NA TARJA',
    entry: 'magstripe',
    serviceCode: '201',
    requiresPin: false,
  }),
  visaMuteChip: card({
    pan: '4012000033330026',
    label: 'CREDITO',
    name: 'TESTE/CHIP MUDO',
    extra: { iccFailure: 'mute' },
  }),
  mastercardChipError: card({
    pan: '5454545454545454',
    label: 'CREDITO',
    name: 'TESTE/ERRO NO CHIP',
    extra: { iccFailure: 'error' },
  }),
  visaChipFallback: card({
    pan: '4444333322221111',
    label: 'CREDITO',
    name: 'TESTE/FALLBACK',
    extra: { iccFailure: 'fallback' },
  }),
  visaUnreadableStripe: card({
    pan: '4012888888881881',
    label: 'CREDITO',
    name: 'TESTE/TARJA ILEGIVEL',
    entry: 'magstripe',
    requiresPin: false,
    extra: { unreadableSwipe: true },
  }),
} satisfies Record<string, SimCard>);

export type TestCardName = keyof typeof TEST_CARDS;

export const TEST_CARD_NAMES = Object.freeze(Object.keys(TEST_CARDS) as TestCardName[]);

/** A catalogue card by name, or the card itself. */
export function resolveCard(card: SimCard | string): SimCard {
  if (typeof card !== 'string') {
    validateCard(card);
    return card;
  }
  const found = (TEST_CARDS as Record<string, SimCard>)[card];
  if (!found) {
    throw new InvalidArgumentError(`There is no test card named "${card}"; known: ${TEST_CARD_NAMES.join(', ')}.`);
  }
  return found;
}

/**
 * The PAN as SPE_PANMASK "eedd" leaves it (S220 §5.4.1): `left` digits open on the left, `right`
 * on the right, '*' between; no mask, or more open digits than the PAN has, leaves it whole.
 */
export function maskPanWith(pan: string, mask: { readonly left: number; readonly right: number } | undefined): string {
  if (!mask) return pan;
  const right = Math.min(mask.right, pan.length);
  const left = Math.min(mask.left, pan.length - right);
  return pan.slice(0, left) + '*'.repeat(pan.length - left - right) + pan.slice(pan.length - right);
}

/** PAN masked as the project allows it to be shown: first 6, last 4. */
export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`;
}
