/**
 * USB vendor ids (and some product ids) of PINPAD makers, to recognise a PINPAD among the serial
 * ports of a machine. Only ids seen in public sources are listed; each entry says where. Vendor ids
 * alone can be ambiguous (a maker also sells card readers or POS terminals), so discovery treats a
 * match as "likely a PINPAD", never as proof; the ABECS OPN/GIN exchange is the real test.
 */

export interface UsbIdEntry {
  /** Lower-case, 4 hex digits, as serialport reports it. */
  readonly vendorId: string;
  /** When set, only this product of the vendor matches (the vendor id alone is too generic). */
  readonly productId?: string;
  readonly maker: string;
  /** Model name when the product id is known. */
  readonly model?: string;
}

export const PINPAD_USB_IDS: readonly UsbIdEntry[] = Object.freeze([
  // Gertec: PPC930 enumerates as USB\VID_1753&PID_C902 ("PPC930 Pinpad Terminal", tested 19200 8N1)
  // in a public PINPAD tester's README; the G250 as VID_1753&PID_0800 in a public driver installer.
  { vendorId: '1753', maker: 'Gertec' },
  { vendorId: '1753', productId: 'c902', maker: 'Gertec', model: 'PPC930' },
  { vendorId: '1753', productId: '0800', maker: 'Gertec', model: 'G250' },
  // Ingenico: usb.ids lists "0b00 INGENICO"; a public POS-agent peripheral list (inefi agent README)
  // maps 0B00:0058/0060 to iPP3xx/iPP4xx, 0B00:0061 to iSC350/iSC4xx, 0B00:0066 to iCT2xx,
  // 0B00:0084 to Lane3xxx and 079B (Sagem, whose terminal business became Ingenico's) 0028 to
  // Telium terminals and 0051 to iPP2xx.
  { vendorId: '0b00', maker: 'Ingenico' },
  { vendorId: '0b00', productId: '0058', maker: 'Ingenico', model: 'iPP3xx' },
  { vendorId: '0b00', productId: '0060', maker: 'Ingenico', model: 'iPP3xx/iPP4xx' },
  { vendorId: '0b00', productId: '0061', maker: 'Ingenico', model: 'iSC350/iSC4xx' },
  { vendorId: '0b00', productId: '0066', maker: 'Ingenico', model: 'iCT2xx' },
  { vendorId: '0b00', productId: '0084', maker: 'Ingenico', model: 'Lane3xxx' },
  { vendorId: '079b', productId: '0028', maker: 'Ingenico', model: 'Telium' },
  { vendorId: '079b', productId: '0051', maker: 'Ingenico', model: 'iPP2xx' },
  // PAX: several public integrations match PAX terminals by VID_2FB8 (A910/A920/A35/IM30 CDC
  // ports); one public Windows PINPAD finder also lists VID_1234&PID_0101 and VID_9908&PID_9030
  // ("PAX CDC mode"). 1234 is a generic id, so only that product is matched.
  { vendorId: '2fb8', maker: 'PAX' },
  { vendorId: '1234', productId: '0101', maker: 'PAX' },
  { vendorId: '9908', productId: '9030', maker: 'PAX' },
  // Verifone: VID 11CA; VX820 is 11CA:0219 (inefi agent README), VX805 11CA:0220 (public pinpad
  // troubleshooting notes), VX510 11CA:0203 (public driver scripts).
  { vendorId: '11ca', maker: 'Verifone' },
  { vendorId: '11ca', productId: '0219', maker: 'Verifone', model: 'VX820' },
  { vendorId: '11ca', productId: '0220', maker: 'Verifone', model: 'VX805' },
  { vendorId: '11ca', productId: '0203', maker: 'Verifone', model: 'VX510' },
  // Castles Technology: 0CA6 (inefi agent README lists Castles readers 0CA6:3050/0010; a public
  // Windows PINPAD finder lists VID_0CA6 with Ingenico, PAX and Verifone ids).
  { vendorId: '0ca6', maker: 'Castles' },
]);

/** Maker names as they appear in USB manufacturer strings, for devices whose ids are unknown. */
const MAKER_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/gertec/i, 'Gertec'],
  [/ingenico|sagem/i, 'Ingenico'],
  [/\bpax\b/i, 'PAX'],
  [/verifone/i, 'Verifone'],
  [/castles/i, 'Castles'],
  [/newland/i, 'Newland'],
  [/tectoy/i, 'Tectoy'],
  [/positivo/i, 'Positivo'],
  [/sunmi/i, 'Sunmi'],
  [/spectra/i, 'Spectra'],
];

function normalizeId(id: string | undefined): string | undefined {
  if (!id) return undefined;
  const hex = id.trim().toLowerCase().replace(/^0x/, '');
  return /^[0-9a-f]{1,4}$/.test(hex) ? hex.padStart(4, '0') : undefined;
}

/** The most specific table entry for these ids (product match first), if any. */
export function lookupUsbId(vendorId: string | undefined, productId: string | undefined): UsbIdEntry | undefined {
  const vid = normalizeId(vendorId);
  if (!vid) return undefined;
  const pid = normalizeId(productId);
  return (
    PINPAD_USB_IDS.find((e) => e.vendorId === vid && e.productId !== undefined && e.productId === pid) ??
    PINPAD_USB_IDS.find((e) => e.vendorId === vid && e.productId === undefined)
  );
}

/** The maker named in a USB manufacturer (or product) string, if it is a known PINPAD maker. */
export function makerFromText(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return MAKER_PATTERNS.find(([pattern]) => pattern.test(text))?.[1];
}
