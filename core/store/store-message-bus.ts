import { EventEmitter } from 'node:events';

/**
 * What a store without a broker of its own (SQLite) sends its messages over: the processes
 * that share its file tell each other, for example, that a token changed. Behind
 * `StoreBackend.publish` and `StoreBackend.subscribe`, and with their contract: a
 * message reaches every process on the bus, the sender included, and a bus that can lose
 * messages (a link that came back) calls each handler once with `missedMessages`.
 */
export interface StoreMessageBus {
  /** Sends `message` on `channel` to every process on the bus, this one included; resolves once handed over. */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `handler` for every message on `channel`, from any process on the bus. */
  subscribe(channel: string, handler: (message: string) => void): void;
  /** Stops delivering; the bus is unusable afterwards. */
  close(): void;
}

/**
 * The bus of a process that shares its store with no other one: messages stay in the
 * process, delivered synchronously to its own subscribers. The default for `workers: 1`.
 */
export class InProcessMessageBus implements StoreMessageBus {
  readonly #messages = new EventEmitter();

  async publish(channel: string, message: string): Promise<void> {
    this.#messages.emit(channel, message);
  }

  subscribe(channel: string, handler: (message: string) => void): void {
    this.#messages.on(channel, handler);
  }

  close(): void {
    this.#messages.removeAllListeners();
  }
}
