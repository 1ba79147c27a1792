import cluster, { type Worker } from 'node:cluster';
import { clusterMetricsAnswer, isClusterMetricsRequest } from './cluster-metrics-messages.js';
import { WorkerMetricsSnapshots, type MetricsSnapshot } from './worker-metrics-snapshots.js';

/**
 * prom-client's own cluster protocol (lib/cluster.js): a worker that has constructed an
 * `AggregatorRegistry` answers this request with the JSON of the registries it passed to
 * `AggregatorRegistry.setRegistries`. The primary must never construct one itself: its listener
 * would take these answers for requests of its own, and throw on ids it does not know.
 */
const promClientRequest = 'prom-client:getMetricsReq';
const promClientAnswer = 'prom-client:getMetricsRes';

/** Under the workers' wait for the answer (see `ClusterMetricsWorker`), so they get the reason rather than a timeout of their own. */
const collectTimeoutMilliseconds = 4000;

interface PromClientAnswer {
  type: typeof promClientAnswer;
  requestId: number;
  metrics?: MetricsSnapshot[];
  error?: string;
}

interface Collection {
  waitingFor: Set<number>;
  timer: NodeJS.Timeout;
  settle: (result: { text: string } | { problem: string }) => void;
}

/**
 * The cluster primary's side of `GET /metrics` with several workers. A worker that receives a
 * scrape sends a `ClusterMetricsRequest`; the primary asks every listening worker for
 * its registry (prom-client's protocol, above), aggregates the answers with what exited workers
 * had counted ({@link WorkerMetricsSnapshots}) and answers the text. A worker still starting is
 * not asked: it has served nothing. A worker that exits while asked is counted from its last
 * answer. A worker that does not answer within 4 s makes the answer a problem, which the
 * scraped worker turns into a 503: a partial sum would look like a counter reset.
 */
export class ClusterMetricsPrimary {
  readonly #listeningWorkers: () => Worker[];
  readonly #timeoutMilliseconds: number;
  readonly #snapshots = new WorkerMetricsSnapshots();
  readonly #collections = new Map<number, Collection>();
  #nextRequestId = 0;

  /** `listeningWorkers` lists the workers that serve, at each collection. */
  constructor(listeningWorkers: () => Worker[], timeoutMilliseconds = collectTimeoutMilliseconds) {
    this.#listeningWorkers = listeningWorkers;
    this.#timeoutMilliseconds = timeoutMilliseconds;
  }

  /** Starts answering the workers' requests. */
  attach(): void {
    cluster.on('message', this.#onMessage);
    cluster.on('exit', this.#onExit);
  }

  /** Stops answering; collections still running end with a problem. */
  detach(): void {
    cluster.off('message', this.#onMessage);
    cluster.off('exit', this.#onExit);
    for (const [requestId, collection] of this.#collections) this.#fail(requestId, collection, 'the gateway is stopping');
  }

  /** Every listening worker's metrics, aggregated, in the Prometheus text format; rejects with the reason when that cannot be had. */
  collect(): Promise<string> {
    const requestId = this.#nextRequestId++;
    return new Promise((resolve, reject) => {
      const collection: Collection = {
        waitingFor: new Set(),
        timer: setTimeout(() => {
          const silent = [...collection.waitingFor].join(', ');
          this.#fail(requestId, collection, `worker ${silent} did not answer within ${this.#timeoutMilliseconds} ms`);
        }, this.#timeoutMilliseconds),
        settle: (result) => ('text' in result ? resolve(result.text) : reject(new Error(result.problem))),
      };
      this.#collections.set(requestId, collection);
      for (const worker of this.#listeningWorkers()) {
        if (!worker.isConnected()) continue;
        collection.waitingFor.add(worker.id);
        // A worker that cannot be reached is exiting: its last answer stands for it.
        worker.send({ type: promClientRequest, requestId }, (error: Error | null) => error && this.#answered(requestId, worker.id));
      }
      this.#completeIfAnswered(requestId, collection);
    });
  }

  readonly #onMessage = (worker: Worker, message: unknown) => {
    if (isClusterMetricsRequest(message)) void this.#serve(worker, message.id);
    else if (isPromClientAnswer(message)) this.#received(worker, message);
  };

  readonly #onExit = (worker: Worker) => {
    this.#snapshots.retire(worker.id);
    for (const requestId of [...this.#collections.keys()]) this.#answered(requestId, worker.id);
  };

  async #serve(worker: Worker, id: number): Promise<void> {
    const result = await this.collect().then(
      (text) => ({ text }),
      (error: Error) => ({ problem: error.message }),
    );
    // The scraped worker may have exited meanwhile; nobody is left to answer.
    if (worker.isConnected()) worker.send(clusterMetricsAnswer(id, result), () => {});
  }

  #received(worker: Worker, message: PromClientAnswer): void {
    const collection = this.#collections.get(message.requestId);
    // Late (after the timeout) or unasked: the collection it belonged to is settled.
    if (collection === undefined || !collection.waitingFor.has(worker.id)) return;
    if (message.error !== undefined || !Array.isArray(message.metrics)) {
      this.#fail(message.requestId, collection, `worker ${worker.id} could not read its metrics: ${message.error ?? 'no metrics in its answer'}`);
      return;
    }
    this.#snapshots.record(worker.id, message.metrics.flat());
    this.#answered(message.requestId, worker.id);
  }

  #answered(requestId: number, workerId: number): void {
    const collection = this.#collections.get(requestId);
    if (collection !== undefined && collection.waitingFor.delete(workerId)) this.#completeIfAnswered(requestId, collection);
  }

  #completeIfAnswered(requestId: number, collection: Collection): void {
    if (collection.waitingFor.size > 0) return;
    this.#collections.delete(requestId);
    clearTimeout(collection.timer);
    this.#snapshots.text().then(
      (text) => collection.settle({ text }),
      (error: Error) => collection.settle({ problem: `could not aggregate the workers' metrics: ${error.message}` }),
    );
  }

  #fail(requestId: number, collection: Collection, problem: string): void {
    this.#collections.delete(requestId);
    clearTimeout(collection.timer);
    collection.settle({ problem });
  }
}

function isPromClientAnswer(message: unknown): message is PromClientAnswer {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === promClientAnswer && typeof (message as { requestId?: unknown }).requestId === 'number';
}
