/**
 * What the page puts beside a declared setting's control that is not a setting itself: the PINPAD
 * and printer finders' buttons in the address's row, a note of their own, the training switch's
 * "training anyway" line. The settings are declared in main/core/settings-fields.ts; this is the
 * page's own part of their markup, which `npm run docs:settings` (scripts/settings-window.ts)
 * writes into index.html with them. Adding a setting never needs an entry here.
 */
import type { MessageKey } from '../i18n/pt-br.js';

/** A button in the control's row (type="button", class="secondary"); its text is a window text. */
export interface ToolButton {
  readonly id: string;
  readonly text: MessageKey;
  /** Its own hint (aria-describedby). */
  readonly describedBy?: string;
}

/** A paragraph beside the control's hint. */
export interface ToolNote {
  readonly id: string;
  readonly className: string;
  /** Its text, a window text; none: the page writes it. */
  readonly text?: MessageKey;
  /** Hidden until the page shows it. */
  readonly hidden?: true;
  /** Before the hint, and read with the control (aria-describedby); else after the hint, apart. */
  readonly beforeHelp?: true;
}

export interface FieldTools {
  readonly buttons?: readonly ToolButton[];
  readonly notes?: readonly ToolNote[];
}

/** By the setting's dotted key. */
export const FIELD_TOOLS: Readonly<Record<string, FieldTools>> = {
  'pinpad.address': {
    buttons: [
      { id: 'settings-pinpad-detect', text: 'settings.detect' },
      { id: 'settings-pinpad-ble', text: 'settings.bleScan' },
    ],
  },
  training: {
    notes: [{ id: 'settings-training-now', className: 'hint training-now', hidden: true, beforeHelp: true }],
  },
  'printers.default.address': {
    buttons: [
      { id: 'settings-printer-system', text: 'settings.systemPrinters', describedBy: 'settings-system-printers-hint' },
    ],
    notes: [{ id: 'settings-system-printers-hint', className: 'hint', text: 'settings.systemPrintersHint' }],
  },
};
