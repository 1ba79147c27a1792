import pg from 'pg';
import { missedMessages } from './store-backend.js';

/** Reconnect delays: from the first to the longest, doubling in between. */
const firstReconnectDelayMilliseconds = 100;
const longestReconnectDelayMilliseconds = 2000;

/**
 * The listening side of the store's messages: one dedicated connection that `LISTEN`s on the
 * schema's channel (a pooled connection would be handed to other queries). Every message of
 * the schema travels on that one channel as `{"channel": …, "message": …}` and is handed to the
 * handlers of its own channel here, so channel names need not be PostgreSQL identifiers and
 * two schemas on one database never hear each other.
 *
 * When the connection is lost it is opened again, with backoff, for as long as the backend
 * lives; once it listens again every handler gets {@link missedMessages}, because whatever was
 * notified meanwhile went to nobody.
 */
export class PostgresNotifications {
  readonly #connection: pg.ClientConfig;
  readonly #channel: string;
  readonly #handlers = new Map<string, Array<(message: string) => void>>();
  #client: pg.Client | undefined;
  #listening: Promise<void> | undefined;
  #listeningOnce = false;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #reconnectDelay = firstReconnectDelayMilliseconds;
  #closed = false;

  /** `channel` is the PostgreSQL channel, unquoted; it is quoted here. */
  constructor(connection: pg.ClientConfig, channel: string) {
    this.#connection = connection;
    this.#channel = channel;
  }

  /** The PostgreSQL channel and the payload that carry `message` on `channel` to every listener. */
  notification(channel: string, message: string): [string, string] {
    return [this.#channel, JSON.stringify({ channel, message })];
  }

  /** True once something subscribed: from then on the connection is meant to listen. */
  get subscribed(): boolean {
    return this.#listeningOnce;
  }

  /** True while the connection listens; false while it is being opened again. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  /** Adds a handler for `channel`, and listens (once) when this is the first; rejects when the connection cannot be opened. */
  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.#listening ??= this.#listen().catch((error: unknown) => {
      this.#listening = undefined;
      throw error;
    });
    await this.#listening;
    const handlers = this.#handlers.get(channel) ?? [];
    handlers.push(handler);
    this.#handlers.set(channel, handlers);
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ ...this.#connection, keepAlive: true });
    let connected = false;
    let lost = false;
    let ended = false;
    // An error before the connection listens rejects connect() or the LISTEN instead; an
    // unheard error event would end the process.
    const onLost = () => {
      if (!connected || lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => {});
      this.#reconnectLater();
    };
    client.on('error', onLost);
    client.on('end', () => {
      ended = true;
      onLost();
    });
    client.on('notification', (notification) => this.#deliver(notification.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.#channel)}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    connected = true;
    this.#client = client;
    this.#reconnectDelay = firstReconnectDelayMilliseconds;
    if (this.#listeningOnce) {
      for (const handlers of this.#handlers.values()) for (const handler of handlers) handler(missedMessages);
    }
    this.#listeningOnce = true;
    if (ended) onLost();
  }

  #reconnectLater(): void {
    if (this.#closed || this.#reconnectTimer !== undefined) return;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.#listen().catch(() => this.#reconnectLater());
    }, this.#reconnectDelay);
    this.#reconnectTimer.unref();
    this.#reconnectDelay = Math.min(this.#reconnectDelay * 2, longestReconnectDelayMilliseconds);
  }

  #deliver(payload: string | undefined): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null) return;
    const { channel, message } = parsed as { channel?: unknown; message?: unknown };
    if (typeof channel !== 'string' || typeof message !== 'string') return;
    for (const handler of this.#handlers.get(channel) ?? []) handler(message);
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    const client = this.#client;
    this.#client = undefined;
    this.#handlers.clear();
    if (client !== undefined) await client.end().catch(() => {});
  }
}
