/**
 * RMC — remove card (abecs.md §3.11), blocking: `RMC032` + a 2×16 message. The PINPAD powers the
 * chip off and, while a card is inserted, alternates the message with "RETIRE O CARTÃO"; the
 * message stays on the display afterwards. The response carries no data.
 */
import type { NoData } from '../codec.js';
import { displayMessageCommand, type DisplayMessageRequest } from './basic-support.js';

export type RmcRequest = DisplayMessageRequest;
export type RmcResult = NoData;

export const rmcCommand = displayMessageCommand('RMC', 'RMC_MSG', true);
