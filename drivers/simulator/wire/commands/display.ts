/**
 * Display commands (S220 §3.3.4, §3.3.5, §3.3.14, §6.5.4, §6.5.5, §6.5.14; abecs.md §3.6, §3.11):
 * DSP, DEX and RMC.
 */
import { okReply, onlyBlock, specAtLeast, type DeviceCommand } from '../command.js';
import { FieldReader, invalid } from '../fields.js';
import { fixedMessage } from '../text.js';

/**
 * DSP_MSG / RMC_MSG (S32, 2×16), read with the robustness of S220 §6.5.5: never an error, controls
 * shown as spaces, a short message completed with spaces, extra characters ignored.
 */
export interface FixedMessageRequest {
  readonly message: string;
}

const fixedMessageOf = (blocks: readonly Buffer[]): FixedMessageRequest => ({
  message: fixedMessage((blocks[0] ?? Buffer.alloc(0)).toString('latin1')),
});

export const DSP: DeviceCommand<FixedMessageRequest, Record<string, never>> = {
  id: 'DSP',
  blocking: false,
  abecs: false,
  decode: (packet) => fixedMessageOf(packet.blocks),
  encode: () => okReply(),
};

/** RMC (blocking): RMC_MSG with DSP's rules (§6.5.14). */
export const RMC: DeviceCommand<FixedMessageRequest, Record<string, never>> = {
  id: 'RMC',
  blocking: true,
  abecs: false,
  decode: (packet) => fixedMessageOf(packet.blocks),
  encode: () => okReply(),
};

export type Horizontal = 'left' | 'right' | 'center';
export type Vertical = 'top' | 'bottom' | 'center';
export type MessageType = 'generic' | 'success' | 'error' | 'alert' | 'info';

/** DEX_OPTIONS (N6, 2.20): alignment and the kind of message (which may add colours and beeps). */
export interface DexOptions {
  readonly horizontal: Horizontal;
  readonly vertical: Vertical;
  readonly type: MessageType;
}

/** DEX: DEX_MSGLEN N3 + DEX_MSG S..160 (+ DEX_OPTIONS N6 from 2.20). */
export interface DexRequest {
  /** Free text as received; any character below 20h breaks a line (§6.5.4). */
  readonly message: string;
  readonly options?: DexOptions;
}

const HORIZONTAL: readonly Horizontal[] = ['left', 'right', 'center'];
const VERTICAL: readonly Vertical[] = ['top', 'bottom', 'center'];
const TYPES: readonly MessageType[] = ['generic', 'success', 'error', 'alert', 'info'];

export const MAX_DEX_MESSAGE = 160;

export const DEX: DeviceCommand<DexRequest, Record<string, never>> = {
  id: 'DEX',
  blocking: false,
  abecs: false,
  decode(packet, reading) {
    const fields = new FieldReader(onlyBlock(packet, reading), 'DEX');
    const length = fields.number(3, 'DEX_MSGLEN');
    // ST_INVPARM: "DEX_MSGLEN não corresponde ao tamanho de DEX_MSG" or "DEX_MSGLEN > 160".
    if (length > MAX_DEX_MESSAGE) throw invalid(`DEX: DEX_MSGLEN ${length} is over ${MAX_DEX_MESSAGE}.`);
    const extra = fields.remaining - length;
    const withOptions = extra === 6 && specAtLeast(reading, '2.20');
    if (extra !== 0 && !withOptions)
      throw invalid(`DEX: DEX_MSGLEN ${length} does not match the ${fields.remaining} bytes of DEX_MSG.`);
    const message = fields.bytes(length, 'DEX_MSG').toString('latin1');
    if (!withOptions) return { message };
    const digits = fields.digits(6, 'DEX_OPTIONS');
    const horizontal = HORIZONTAL[Number(digits[0])];
    const vertical = VERTICAL[Number(digits[1])];
    const type = TYPES[Number(digits[2])];
    if (horizontal === undefined || vertical === undefined || type === undefined)
      throw invalid(`DEX: DEX_OPTIONS "${digits}" out of range.`);
    return { message, options: { horizontal, vertical, type } };
  },
  encode: () => okReply(),
};
