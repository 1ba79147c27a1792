import cluster, { type Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import type { StoreMessageBus } from '../core/store/store-message-bus.js';

/** A store message on its way between a worker and the cluster primary. */
interface ClusterStoreMessage {
  type: 'model-gateway:store-message';
  channel: string;
  message: string;
}

function isClusterStoreMessage(value: unknown): value is ClusterStoreMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { type, channel, message } = value as Partial<ClusterStoreMessage>;
  return type === 'model-gateway:store-message' && typeof channel === 'string' && typeof message === 'string';
}

/**
 * The sqlite store's message bus in a worker of the gateway's own supervisor: the workers
 * share one SQLite file, which has no broker, so the cluster's IPC channel is theirs. A
 * message is delivered here at once and sent to the primary, which hands it to every other
 * worker ({@link ClusterStoreMessageRelay}). `publish` resolves once the message is written to
 * the channel to the primary, and rejects when that channel is gone (the worker is exiting):
 * the other workers were not told.
 *
 * It never reports missed messages (`missedMessages`), because a worker cannot miss one and
 * keep serving: Node's cluster exits a worker whose channel to the primary closes, and a
 * worker started later (a replacement) has cached nothing that an earlier message could have
 * been about. It listens from the moment the store opens, before anything is read and cached.
 */
export class ClusterWorkerMessageBus implements StoreMessageBus {
  readonly #local = new EventEmitter();
  readonly #onMessage = (value: unknown) => {
    if (isClusterStoreMessage(value)) this.#local.emit(value.channel, value.message);
  };

  constructor() {
    process.on('message', this.#onMessage);
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#local.emit(channel, message);
    const toPrimary: ClusterStoreMessage = { type: 'model-gateway:store-message', channel, message };
    await new Promise<void>((resolve, reject) => {
      if (process.send === undefined) {
        reject(new Error('this worker has no channel to the cluster primary, so the other workers cannot be told'));
        return;
      }
      process.send(toPrimary, undefined, undefined, (error: Error | null) =>
        error === null ? resolve() : reject(new Error(`could not tell the other workers through the cluster primary: ${error.message}`)),
      );
    });
  }

  subscribe(channel: string, handler: (message: string) => void): void {
    this.#local.on(channel, handler);
  }

  close(): void {
    process.off('message', this.#onMessage);
    this.#local.removeAllListeners();
  }
}

/**
 * The cluster primary's side of {@link ClusterWorkerMessageBus}: it hands each worker's store
 * message to every other worker, starting ones included (they listen from the moment their
 * store opens). A worker that cannot be reached is exiting, and its replacement starts with an
 * empty token cache, so nothing is retried.
 */
export class ClusterStoreMessageRelay {
  /** Starts relaying. */
  attach(): void {
    cluster.on('message', this.#onMessage);
  }

  /** Stops relaying. */
  detach(): void {
    cluster.off('message', this.#onMessage);
  }

  readonly #onMessage = (sender: Worker, value: unknown) => {
    if (!isClusterStoreMessage(value)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker === undefined || worker.id === sender.id || !worker.isConnected()) continue;
      worker.send(value, () => {});
    }
  };
}
