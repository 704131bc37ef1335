/**
 * A gauge a module adds to GET /metrics (http/metrics.ts), without knowing the metrics library: the value is
 * read at each scrape, as one number or one per set of labels.
 */
export interface MetricGauge {
  /** Prometheus' name, `realty_` first. */
  readonly name: string;
  readonly help: string;
  /** The names of the labels `read` sets, when it returns labelled values. */
  readonly labelNames?: readonly string[];
  /** The value now; undefined leaves the gauge without a sample (nothing to report yet). */
  read(): MetricValue | Promise<MetricValue>;
}

type MetricValue = number | undefined | readonly { labels: Readonly<Record<string, string>>; value: number }[];
