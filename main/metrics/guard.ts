/**
 * How a metric reads a source at scrape time: a source that throws (a journal closed under a
 * scrape, a bug) is logged and gives no value — never an exception in a scrape.
 */
export type MetricsGuard = <T>(what: string, work: () => T) => T | undefined;
