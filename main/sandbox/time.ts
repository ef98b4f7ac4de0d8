/**
 * The three timestamp formats the contract and the service family use, and ids.
 */
import { randomBytes } from 'node:crypto';

/** Buyer timestamps: "2026-11-21T13:05:09.123Z". */
export const utcTimestamp = (date: Date): string => date.toISOString();

/** Bank accounts, transactions, webhooks: "2026-11-21T13:05:09+00:00" (numeric offset, UTC). */
export const offsetTimestamp = (date: Date): string => `${date.toISOString().slice(0, 19)}+00:00`;

/** Transaction history entries: "2026-11-21 13:05:09" (no T, no zone, UTC). */
export const historyTimestamp = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');

/** "2026-11-21" (UTC calendar date). */
export const dateOnly = (date: Date): string => date.toISOString().slice(0, 10);

// Random bytes are drawn 4 KiB at a time: one randomBytes call per id was an eighth of the time
// of a POST (each call is a trip into OpenSSL), the way crypto.randomUUID batches its entropy.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

/** A new 32-lowercase-hex id (128 random bits). */
export const newId = (): string => randomHex(16);

/** A 6-character trace id (the service family's length). */
export const newTraceId = (): string => randomHex(3);
