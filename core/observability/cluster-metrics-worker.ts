import { AggregatorRegistry, type Registry } from 'prom-client';
import { clusterMetricsRequest, isClusterMetricsAnswer } from './cluster-metrics-messages.js';

/** Over the primary's own collection timeout (4 s), so the primary's reason arrives first; under Prometheus's default scrape timeout (10 s). */
const answerTimeoutMilliseconds = 5000;

/**
 * A cluster worker's side of `GET /metrics` with several workers. It hands the app's registry
 * to prom-client's cluster protocol, so the primary can collect it (for any worker's scrape),
 * and asks the primary for the whole group's metrics when this worker is scraped. The registry
 * stays shared until the process exits, also after {@link dispose}: what a stopping worker
 * counted must not vanish from the group's counters before its exit makes the primary keep it.
 */
export class ClusterMetricsWorker {
  readonly #pending = new Map<number, (outcome: { text: string } | { problem: string }) => void>();
  #nextId = 0;
  readonly #onMessage = (message: unknown) => {
    if (isClusterMetricsAnswer(message)) this.#pending.get(message.id)?.(message);
  };

  /** Shares `registry` with the primary (prom-client keeps one set of registries per process) and listens for answers. */
  constructor(registry: Registry) {
    AggregatorRegistry.setRegistries([registry]);
    // Constructing one is what makes prom-client answer the primary's requests, once per process.
    new AggregatorRegistry();
    process.on('message', this.#onMessage);
  }

  /** Every worker's metrics, aggregated by the primary, in the Prometheus text format; rejects with the reason when the primary has none. */
  groupMetrics(timeoutMilliseconds = answerTimeoutMilliseconds): Promise<string> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const settle = (outcome: { text: string } | { problem: string }) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        if ('text' in outcome) resolve(outcome.text);
        else reject(new Error(outcome.problem));
      };
      const timer = setTimeout(() => settle({ problem: `the primary did not answer within ${timeoutMilliseconds} ms` }), timeoutMilliseconds);
      this.#pending.set(id, settle);
      if (process.send === undefined) {
        settle({ problem: 'this process has no channel to a primary' });
        return;
      }
      process.send(clusterMetricsRequest(id), undefined, undefined, (error: Error | null) => error && settle({ problem: `could not ask the primary: ${error.message}` }));
    });
  }

  /** Stops listening for answers; requests still waiting end with a problem. */
  dispose(): void {
    process.off('message', this.#onMessage);
    for (const settle of [...this.#pending.values()]) settle({ problem: 'this worker is stopping' });
  }
}
