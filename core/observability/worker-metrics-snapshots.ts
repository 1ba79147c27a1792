import { AggregatorRegistry, type Registry } from 'prom-client';

/** One registry's metrics as prom-client's `getMetricsAsJSON` gives them: what a worker sends the primary. */
export type MetricsSnapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** Types whose values only grow while a process lives, so the last ones seen stay true after it exits. */
const cumulativeTypes = new Set(['counter', 'histogram']);

/**
 * The cluster primary's view of the workers' metrics: the last snapshot each live worker sent,
 * and the counters and histograms of the workers that have exited, merged into one snapshot.
 * The text is prom-client's aggregation of both ({@link AggregatorRegistry.aggregate}: each
 * metric by its own aggregator, `sum` unless it says otherwise).
 *
 * Keeping what exited workers counted is what keeps the group's counters from going backwards
 * when a worker dies: Prometheus would read the drop as a reset and `rate()` would spike by
 * everything the other workers had counted. What a worker counted after its last collection is
 * lost; its gauges go with it. The merged snapshot has the workers' own label sets, so it holds
 * no more series than the workers do, however many have exited.
 */
export class WorkerMetricsSnapshots {
  readonly #live = new Map<number, MetricsSnapshot>();
  #exited: Promise<MetricsSnapshot> = Promise.resolve([]);

  /** Keeps `snapshot` as the worker's latest. */
  record(workerId: number, snapshot: MetricsSnapshot): void {
    this.#live.set(workerId, snapshot);
  }

  /** Moves the cumulative metrics of a worker that has exited into the merged snapshot. */
  retire(workerId: number): void {
    const last = this.#live.get(workerId);
    this.#live.delete(workerId);
    if (last === undefined) return;
    const cumulative = last.filter((metric) => cumulativeTypes.has(String(metric.type)));
    // A chain, so that each worker is counted either live or exited by every reader, never both.
    this.#exited = this.#exited.then((exited) => AggregatorRegistry.aggregate([exited, cumulative]).getMetricsAsJSON());
  }

  /** The whole group in the Prometheus text format. */
  async text(): Promise<string> {
    const live = [...this.#live.values()];
    const exited = this.#exited;
    // Live snapshots first: the first snapshot of a metric gives its help and aggregator.
    return AggregatorRegistry.aggregate([...live, await exited]).metrics();
  }
}
