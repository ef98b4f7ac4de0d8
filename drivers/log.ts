/**
 * The logging surface the drivers need: a subset of pino's API, so the agent can hand its pino
 * logger straight in, while the drivers stay free of any logging library. Drivers log command
 * ids, lengths, statuses and timings, never packet contents (they may hold card data).
 */
export interface DriverLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => {};

/** The default logger: silent. */
export const silentLogger: DriverLogger = { debug: noop, info: noop, warn: noop, error: noop };
