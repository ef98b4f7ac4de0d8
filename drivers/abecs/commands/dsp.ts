/**
 * DSP — display a 2×16 message (abecs.md §3.6): `DSP032` + DSP_MSG S32, characters 1–16 on line
 * 1 and 17–32 on line 2. A 32-character string passes unchanged (the spec's
 * "    OPERAÇÃO       FINALIZADA   " frame); shorter texts are laid out by formatDisplay2x16.
 * The display is cleared first; the response carries no data.
 */
import type { NoData } from '../codec.js';
import { displayMessageCommand, type DisplayMessageRequest } from './basic-support.js';

/** `message`: ≤ 32 characters; "\n" splits the lines; "" clears the display. */
export type DspRequest = DisplayMessageRequest;
export type DspResult = NoData;

export const dspCommand = displayMessageCommand('DSP', 'DSP_MSG', false);
