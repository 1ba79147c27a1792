import type { ProviderConfig } from '../config/config-schema.js';
import type { ChannelContext, ChannelTimeouts, OperationName } from '../contracts/provider/operation-call.js';
import type { Provider } from '../contracts/provider/provider.js';
import type { ProviderPlugin } from '../contracts/provider/provider-plugin.js';
import type { Translator } from '../contracts/translator.js';
import type { LoadedChannel } from '../loader/load-provider-plugins.js';
import { matchesModelPattern } from './model-pattern.js';

/**
 * A channel as routing uses it: one loaded `providers[]` entry, built at start or by a reload
 * (which keeps the object of a channel whose entry did not change). It counts the tries in
 * flight on it, so a reload that drops it closes its provider only once they are over.
 */
export class Channel {
  readonly name: string;
  readonly config: ProviderConfig;
  readonly provider: Provider;
  /** The plugin the provider came from; its channels share what it prepares of a request. */
  readonly plugin: ProviderPlugin;
  readonly options: unknown;
  readonly groups: ReadonlySet<string>;
  readonly timeouts: ChannelTimeouts;
  readonly #baseUrl: string;
  readonly #keys: readonly string[];
  readonly #exactModels: ReadonlySet<string>;
  readonly #patterns: readonly string[];
  /** The client operations the provider does not implement that a translator serves on it, each with the first such translator. */
  readonly #translators = new Map<OperationName, Translator>();
  #nextKey = 0;
  #tries = 0;
  #whenIdle: (() => void) | undefined;

  /** `translators` in the config's order: the first that can serve an operation on this provider does. */
  constructor(loaded: LoadedChannel, translators: readonly Translator[] = []) {
    const { config } = loaded;
    this.name = config.name;
    this.config = config;
    this.provider = loaded.provider;
    this.plugin = loaded.plugin;
    this.options = loaded.options;
    this.groups = new Set(config.groups);
    this.#baseUrl = config.base_url.replace(/\/+$/, '');
    this.#keys = config.api_keys ?? (config.api_key === undefined ? [''] : [config.api_key]);
    const entries = [...config.models, ...Object.keys(config.model_map)];
    this.#exactModels = new Set(entries.filter((entry) => !entry.includes('*')));
    this.#patterns = entries.filter((entry) => entry.includes('*'));
    this.timeouts = {
      connectMilliseconds: config.timeouts.connect_ms,
      firstByteMilliseconds: config.timeouts.first_byte_ms,
      idleMilliseconds: config.timeouts.idle_ms,
      totalMilliseconds: config.timeouts.total_ms,
    };
    const { operations } = loaded.provider;
    for (const translator of translators) {
      if (operations[translator.client] !== undefined || this.#translators.has(translator.client)) continue;
      if (translator.served.every((served) => operations[served] !== undefined)) this.#translators.set(translator.client, translator);
    }
  }

  get priority(): number {
    return this.config.priority;
  }

  get weight(): number {
    return this.config.weight;
  }

  /** True when the channel lists the model (exactly, by pattern, or as a `model_map` key) and serves the operation. */
  serves(model: string, operation: OperationName): boolean {
    return this.servesOperation(operation) && this.lists(model);
  }

  /** True when the provider implements the operation, or a translator serves it on the provider. */
  servesOperation(operation: OperationName): boolean {
    return this.provider.operations[operation] !== undefined || this.#translators.has(operation);
  }

  /** The translator that serves `operation` here; undefined when the provider implements it (the provider's own always wins) or nothing serves it. */
  translatorFor(operation: OperationName): Translator | undefined {
    return this.provider.operations[operation] === undefined ? this.#translators.get(operation) : undefined;
  }

  /** Every operation the channel serves: the provider's own, then those translators serve on it. */
  servedOperations(): OperationName[] {
    const own = (Object.keys(this.provider.operations) as OperationName[]).filter((operation) => this.provider.operations[operation] !== undefined);
    return [...own, ...this.#translators.keys()];
  }

  /** True when the channel lists the model, exactly, by pattern, or as a `model_map` key, whatever the operation. */
  lists(model: string): boolean {
    return this.entryFor(model) !== undefined;
  }

  /** The entry of the channel's config that lists the model: the name itself, or the first pattern it matches (`gx-8*`); undefined when none does. */
  entryFor(model: string): string | undefined {
    if (this.#exactModels.has(model)) return model;
    return this.#patterns.find((pattern) => matchesModelPattern(pattern, model));
  }

  /** The model to ask this upstream for. */
  upstreamModel(model: string): string {
    return this.config.model_map[model] ?? model;
  }

  /** Counts one try of the channel until {@link endTry}. */
  beginTry(): void {
    this.#tries += 1;
  }

  /** Ends a try counted by {@link beginTry}; the last one of a retired channel runs its retirement. */
  endTry(): void {
    this.#tries -= 1;
    if (this.#tries === 0 && this.#whenIdle !== undefined) this.#idle();
  }

  /**
   * The channel is no longer routed to: `whenIdle` runs once no try is in flight on it (at once
   * when none is), to close a provider no other channel uses.
   */
  retire(whenIdle: () => void): void {
    this.#whenIdle = whenIdle;
    if (this.#tries === 0) this.#idle();
  }

  #idle(): void {
    const whenIdle = this.#whenIdle;
    this.#whenIdle = undefined;
    whenIdle?.();
  }

  /** The context of one call: keys rotate round-robin when the channel has several. */
  context(): ChannelContext {
    const apiKey = this.#keys[this.#nextKey % this.#keys.length] ?? '';
    this.#nextKey = (this.#nextKey + 1) % this.#keys.length;
    return { name: this.name, baseUrl: this.#baseUrl, apiKey, timeouts: this.timeouts };
  }
}
