/**
 * Every ABECS command the driver knows, declared once (issue 36): its name for the sentences a
 * technician reads, how its packets are laid out, and how a trace keeps its data. The link
 * machine's names and the trace masking's lists are derived from this table;
 * test/drivers/abecs/command-table.test.ts fails on a command with a codec and no declaration, and
 * checks the simulator's own list of TLV commands against it (the simulator is written from the
 * spec, not from this table). Names and layouts: abecs.md §3.1 (S220 ch. 3).
 */

/** How a command's packets are laid out: Abecs TLV (S220 §3.1.3) or BibComp's fixed fields. */
export type CommandFormat = 'tlv' | 'fixed';

/**
 * How a trace keeps the command's data (trace/mask.ts): `tlv`, each parameter masked by what it
 * holds; `plain`, kept as it is (no card data either way); `own`, a masker of its own for its
 * fixed fields (the card data it carries: tracks, PIN block, EMV data, the session key);
 * `dropped`, its id alone (a command the driver never sends, whose fields no masker reads).
 */
export type CommandTrace = 'tlv' | 'plain' | 'own' | 'dropped';

export interface CommandDeclaration {
  /** What it does, as "the <name> command (OPN)" says it. */
  readonly name: string;
  readonly format: CommandFormat;
  readonly trace: CommandTrace;
}

const tlv = (name: string): CommandDeclaration => ({ name, format: 'tlv', trace: 'tlv' });
const plain = (name: string): CommandDeclaration => ({ name, format: 'fixed', trace: 'plain' });
const own = (name: string): CommandDeclaration => ({ name, format: 'fixed', trace: 'own' });
const dropped = (name: string): CommandDeclaration => ({ name, format: 'fixed', trace: 'dropped' });

export const ABECS_COMMANDS = {
  // Session and identification.
  OPN: own('open-session'),
  CLO: plain('close-session'),
  CLX: tlv('close-session'),
  GIN: plain('identification'),
  GIX: tlv('identification'),
  // Display and keypad.
  DSP: plain('display'),
  DEX: plain('display'),
  GKY: plain('key-press'),
  CKE: dropped('check-event'),
  CEX: tlv('check-event'),
  GED: tlv('keypad-entry'),
  GCD: tlv('keypad-entry'),
  MNU: tlv('menu'),
  RMC: plain('remove-card'),
  // The card and the chip.
  GCR: own('read-card'),
  GCX: tlv('read-card'),
  GTK: tlv('card-data'),
  GPN: own('PIN-entry'),
  GOC: own('chip-processing'),
  GOX: tlv('chip-processing'),
  FNC: own('finish-chip'),
  FCX: tlv('finish-chip'),
  EBX: tlv('encrypt-buffer'),
  // EMV tables.
  GTS: plain('table-version'),
  TLI: plain('table-load start'),
  TLR: plain('table-load'),
  TLE: plain('table-load end'),
  CNG: plain('change-EMV-parameters'),
  // Media (optional in 2.20).
  MLI: tlv('media-load start'),
  MLR: tlv('media-load'),
  MLE: tlv('media-load end'),
  LMF: tlv('list-media'),
  DMF: tlv('delete-media'),
  DSI: tlv('display-media'),
  // What the PINPAD sends of its own: a notification during a blocking command, and the answer
  // to a command it does not know.
  NTM: plain('notification'),
  ERR: plain('error'),
} as const satisfies Readonly<Record<string, CommandDeclaration>>;

export type AbecsCommandId = keyof typeof ABECS_COMMANDS;

/** The ids of the commands declared with `pick` true. */
export function commandIds(pick: (declaration: CommandDeclaration) => boolean): ReadonlySet<string> {
  return new Set(
    Object.entries(ABECS_COMMANDS)
      .filter(([, declaration]) => pick(declaration))
      .map(([id]) => id),
  );
}
