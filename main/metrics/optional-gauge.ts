/**
 * A label-less gauge read at scrape time, with no sample at all while `read` has no value (the
 * API's health still unknown, a source that failed): unknown is not 0, and an absent series
 * stays out of sums across stores where NaN would poison them. (prom-client's own label-less
 * gauge always has a value: its reset() sets 0.)
 */
import { Gauge, type GaugeConfiguration } from 'prom-client';

export class OptionalGauge extends Gauge {
  readonly #read: () => number | undefined;

  constructor(configuration: GaugeConfiguration<string>, read: () => number | undefined) {
    super(configuration);
    this.#read = read;
  }

  override async get(): ReturnType<Gauge['get']> {
    const base = await super.get();
    const value = this.#read();
    return { ...base, values: value === undefined ? [] : [{ value, labels: {} }] };
  }
}
