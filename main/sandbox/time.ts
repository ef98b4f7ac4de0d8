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

/** A new 32-lowercase-hex id. */
export const newId = (): string => randomBytes(16).toString('hex');

/** A 6-character trace id (the service family's length). */
export const newTraceId = (): string => randomBytes(3).toString('hex');
