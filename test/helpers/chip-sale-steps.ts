/**
 * The progress steps a chip credit sale goes through, in order: the disk-full specs fill the disk
 * at each one (test/main/core/disk-full.test.ts checks the list against a sale on a disk with room).
 */
import type { ProgressStep } from '../../main/core/events.js';

export const CHIP_SALE_STEPS: readonly ProgressStep[] = [
  'started',
  'creating_transaction',
  'waiting_card',
  'card_read',
  'authorizing',
  'finishing_chip',
  'approved',
  'removing_card',
  'awaiting_confirmation',
  'confirmed',
];
