import { isDeepStrictEqual } from 'node:util';
import type { AuditActor } from '../audit/audit-record.js';
import { unpricedModels } from '../billing/unpriced-models.js';
import { ConfigError, formatYamlPath, type ConfigProblem } from '../config/config-error.js';
import { configLineFinder } from '../config/config-lines.js';
import { gatewayConfigSchema, type GatewayConfig, type ProviderConfig } from '../config/config-schema.js';
import type { ProviderHost } from '../contracts/provider/provider-host.js';
import type { ProviderPlugin } from '../contracts/provider/provider-plugin.js';
import type { Translator } from '../contracts/translator.js';
import { checkProviderPlugins, createProviders, type CheckedChannel } from '../loader/load-provider-plugins.js';
import { loadTranslators } from '../loader/load-translators.js';
import type { PipelineServices } from '../pipeline/pipeline-services.js';
import { Channel } from '../routing/channel.js';
import type { CircuitBreaker } from '../routing/circuit-breaker.js';
import { operatorSecrets, secretValuesOf } from '../security/secret-values.js';
import { changedSections, restartOnlyChanges, withRunningRestartOnlyKeys } from './config-changes.js';

/** The channels a reload added, removed, and changed (a changed one got a fresh provider and a closed circuit), by name. */
export interface ChannelChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * What one reload did. `applied`: the sections in `changed` are in force (channels as in
 * `channels`); `unchanged`: the file changes nothing that can change now (it may still change
 * restart-only keys, listed in `needs_restart`); `refused`: the config fails a check start
 * makes, nothing changed, and `problems` says where, by path and line.
 */
export interface ReloadReport {
  status: 'applied' | 'unchanged' | 'refused';
  /** The swapped sections that changed, such as `pricing`, `providers`, `users`. */
  changed: string[];
  channels: ChannelChanges;
  /** Restart-only keys (`server.port`) the file changes; their running values stay in force. */
  needs_restart: string[];
  problems: ConfigProblem[];
}

/** What asked for a reload, for the log line and the audit trail. */
export interface ReloadCause {
  /** `signal`: SIGHUP (or `model-gateway reload`); `api`: `POST /api/config/reload` here; `instance`: another instance's (or worker's) API reload reached this one; `primary`: the cluster primary after its SIGHUP; `channels`: the channel source changed. */
  via: 'signal' | 'api' | 'instance' | 'primary' | 'channels';
  /** The admin who asked, for `api`. */
  user_id?: number;
  /** The client address that asked, for `api`. */
  address?: string;
  /**
   * Who to record in the audit trail as having reloaded: set only where the reload was asked
   * for (the API call, the SIGHUP, in a cluster one worker of those the primary told), so one
   * reload is one record however many processes follow it.
   */
  actor?: AuditActor;
}

/** What {@link GatewayState.onReloaded} listeners hear after every reload, applied or not. */
export interface ReloadEvent {
  report: ReloadReport;
  cause: ReloadCause;
  /** The config in force before and after (the same object when nothing was applied). Holds secrets: mask before recording. */
  before: GatewayConfig;
  after: GatewayConfig;
}

/**
 * Every channel to run for a config read from the file: by default its `providers`. Another
 * source (channels stored at runtime) returns the file's and its own, the file's first so
 * problems keep pointing at the file's lines.
 */
export type ChannelSource = (fileConfig: GatewayConfig) => Promise<readonly ProviderConfig[]>;

/**
 * Where a problem of the channels a {@link ChannelSource} gave lies: its `providers[i]` paths
 * count the source's list, which is the file's only when the source adds nothing and leaves
 * nothing out. Given the problem, that list and the file's config, it answers the problem as
 * the operator finds it: the file's own index and line, or the channel's other home.
 */
export type ChannelProblemLocator = (problem: ConfigProblem, providers: readonly ProviderConfig[], fileConfig: GatewayConfig) => ConfigProblem;

/** What {@link GatewayState} builds with. */
export interface GatewayStateParts {
  /** The config file: plugin and translator paths resolve against it, problems name its lines. */
  configFile: string;
  /** One breaker for every channel, kept across reloads (circuits are keyed by channel name). */
  breaker: CircuitBreaker;
  createHost: (channel: ProviderConfig, plugin: ProviderPlugin) => ProviderHost;
  /** Hears a built-in plugin loaded by an old name. */
  warn: (path: string, message: string) => void;
  /** Hears a listener that threw, and a provider that failed to close. */
  error: (error: unknown, message: string) => void;
  /** The services requests use under `config` with `channels`; `previous` lets unchanged parts be kept. */
  compose: (config: GatewayConfig, channels: readonly Channel[], previous: PipelineServices | undefined) => PipelineServices;
  /** Runs before a new config is swapped in, once it has passed every check; a throw refuses the reload (a `ConfigError` names its problems). */
  prepare?: (config: GatewayConfig, previous: GatewayConfig) => Promise<void>;
}

/** One set of channels built for a config, before it is swapped in. */
interface BuiltChannels {
  channels: Channel[];
  /** The channels with a provider created for this set, closed again if it is not swapped in. */
  fresh: Channel[];
  changes: ChannelChanges;
}

const noChanges = (): ChannelChanges => ({ added: [], removed: [], changed: [] });

/**
 * The gateway's swappable state: the services every model request uses ({@link PipelineServices}:
 * config, channels, catalog, limiters, usage log), built from a config and swapped whole by
 * {@link apply}. A request reads {@link current} once when it starts and keeps that object,
 * so a request in flight finishes on the config it started with.
 *
 * A reload runs every check `start` makes on the new config (plugins loaded and their options
 * parsed, translators loaded, prices; the schema was checked when the file was read), and
 * swaps nothing unless all pass. Restart-only keys keep their running values and are reported
 * ({@link restartOnlyChanges}). A channel whose entry is unchanged keeps its object, provider
 * and circuit; a new or changed one gets a fresh provider; a removed one (or the old provider
 * of a changed one) is closed once the tries in flight on it are over. Reloads run one at a time.
 */
export class GatewayState {
  readonly #parts: GatewayStateParts;
  #current: PipelineServices;
  #fileConfig: GatewayConfig;
  #translators: readonly Translator[];
  #source: ChannelSource = async (fileConfig) => fileConfig.providers;
  #locate: ChannelProblemLocator | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners: ((event: ReloadEvent) => void | Promise<void>)[] = [];

  private constructor(parts: GatewayStateParts, current: PipelineServices, fileConfig: GatewayConfig, translators: readonly Translator[]) {
    this.#parts = parts;
    this.#current = current;
    this.#fileConfig = fileConfig;
    this.#translators = translators;
  }

  /** Builds the state a gateway starts with; throws {@link ConfigError} when a plugin or translator does not load. */
  static async start(config: GatewayConfig, parts: GatewayStateParts): Promise<GatewayState> {
    const translators = await loadTranslators(config.translators, parts.configFile);
    const checked = await checkProviderPlugins(config.providers, parts.configFile, parts.warn);
    const loaded = await createProviders(checked, parts.configFile, parts.createHost);
    const channels = loaded.map((channel) => new Channel(channel, translators));
    return new GatewayState(parts, parts.compose(config, channels, undefined), config, translators);
  }

  /** The services in force: read once per request, at its start. */
  get current(): PipelineServices {
    return this.#current;
  }

  /** The config in force (restart-only keys at their values from the start). */
  get config(): GatewayConfig {
    return this.#current.config;
  }

  /** The config last read from the file and applied, before the channel source added any channel. */
  get fileConfig(): GatewayConfig {
    return this.#fileConfig;
  }

  /**
   * Where the channels come from from now on (see {@link ChannelSource}); takes effect with the
   * next {@link apply} or {@link reapply}.
   */
  setChannelSource(source: ChannelSource, locate?: ChannelProblemLocator): void {
    this.#source = source;
    this.#locate = locate;
  }

  /** Calls `listener` after every reload, in the order registered, and waits for it before the reload resolves; returns how to stop. */
  onReloaded(listener: (event: ReloadEvent) => void | Promise<void>): () => void {
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index !== -1) this.#listeners.splice(index, 1);
    };
  }

  /**
   * Puts `fileConfig` (a config read and schema-checked from the file) in force, with the
   * channels the channel source gives for it. Resolves with what it did; a config that fails a
   * check resolves `refused` with its problems and changes nothing.
   */
  apply(fileConfig: GatewayConfig, cause: ReloadCause): Promise<ReloadReport> {
    const run = this.#queue.then(() => this.#apply(fileConfig, cause));
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Applies the file's config again: how a changed channel source takes effect. */
  reapply(cause: ReloadCause): Promise<ReloadReport> {
    return this.apply(this.#fileConfig, cause);
  }

  /** Closes the providers of the channels in force; the gateway is stopping. */
  async close(): Promise<void> {
    await this.#queue;
    await Promise.allSettled(distinctProviders(this.#current.channels).map((provider) => provider.close?.()));
  }

  async #apply(fileConfig: GatewayConfig, cause: ReloadCause): Promise<ReloadReport> {
    const previous = this.#current;
    const before = previous.config;
    let built: BuiltChannels | undefined;
    let report: ReloadReport;
    let after = before;
    let providers: readonly ProviderConfig[] = fileConfig.providers;
    try {
      providers = await this.#source(fileConfig);
      // Before anything can log: no new channel key may leave for a client or a log.
      operatorSecrets.add(secretValuesOf({ ...fileConfig, providers: [...providers] }));
      const next = withRunningRestartOnlyKeys(before, providers === fileConfig.providers ? fileConfig : this.#checked({ ...fileConfig, providers: [...providers] }));
      const needsRestart = restartOnlyChanges(before, fileConfig);
      this.#assertPriced(next);
      const translatorsChanged = !isDeepStrictEqual(before.translators, next.translators);
      const translators = translatorsChanged ? await loadTranslators(next.translators, this.#parts.configFile) : this.#translators;
      built = await this.#buildChannels(next.providers, previous.channels, translators, translatorsChanged);
      const changed = changedSections(before, next);
      if (changed.length === 0) {
        report = { status: 'unchanged', changed, channels: noChanges(), needs_restart: needsRestart, problems: [] };
      } else {
        if (this.#parts.prepare !== undefined) await this.#parts.prepare(next, before);
        this.#swap(next, built, previous, translators);
        after = next;
        report = { status: 'applied', changed, channels: built.changes, needs_restart: needsRestart, problems: [] };
        built = undefined;
      }
      this.#fileConfig = fileConfig;
    } catch (error) {
      if (!(error instanceof ConfigError)) {
        await this.#discard(built);
        throw error;
      }
      const locate = providers === fileConfig.providers ? undefined : this.#locate;
      const problems = locate === undefined ? [...error.problems] : error.problems.map((problem) => locate(problem, providers, fileConfig));
      report = { status: 'refused', changed: [], channels: noChanges(), needs_restart: [], problems };
    }
    await this.#discard(built);
    const event: ReloadEvent = { report, cause, before, after };
    for (const listener of [...this.#listeners]) {
      try {
        await listener(event);
      } catch (error) {
        this.#parts.error(error, 'a reload listener failed');
      }
    }
    return report;
  }

  /** A config whose channels came from the channel source: checked by the schema again, as the file was. */
  #checked(config: GatewayConfig): GatewayConfig {
    const result = gatewayConfigSchema.safeParse(config);
    if (result.success) return result.data as GatewayConfig;
    const lineOf = configLineFinder(this.#parts.configFile);
    throw new ConfigError(
      this.#parts.configFile,
      result.error.issues.map((issue) => ({ path: formatYamlPath(issue.path), message: issue.message, line: lineOf(issue.path) })),
    );
  }

  /** As `start` refuses them: models the channels serve that nothing prices, unless free models are allowed. */
  #assertPriced(config: GatewayConfig): void {
    if (config.billing.allow_free_models) return;
    const unpriced = unpricedModels(config, configLineFinder(this.#parts.configFile));
    if (unpriced.length > 0) throw new ConfigError(this.#parts.configFile, unpriced);
  }

  /** The channels for `providers`: unchanged entries keep their channel (rewrapped when the translators changed), the others get a fresh provider. */
  async #buildChannels(providers: readonly ProviderConfig[], previous: readonly Channel[], translators: readonly Translator[], translatorsChanged: boolean): Promise<BuiltChannels> {
    const { configFile, createHost, warn } = this.#parts;
    const checked = await checkProviderPlugins(providers, configFile, warn);
    const byName = new Map(previous.map((channel) => [channel.name, channel]));
    const toCreate: CheckedChannel[] = [];
    for (const entry of checked) {
      const old = byName.get(entry.config.name);
      if (old === undefined || !isDeepStrictEqual(old.config, entry.config)) toCreate.push(entry);
    }
    const created = new Map((await createProviders(toCreate, configFile, createHost)).map((loaded) => [loaded.index, loaded]));
    const changes = noChanges();
    const fresh: Channel[] = [];
    const channels = checked.map((entry) => {
      const loaded = created.get(entry.index);
      const old = byName.get(entry.config.name);
      if (loaded === undefined) {
        const kept = old as Channel;
        return translatorsChanged ? new Channel({ index: entry.index, config: kept.config, plugin: kept.plugin, options: kept.options, provider: kept.provider }, translators) : kept;
      }
      (old === undefined ? changes.added : changes.changed).push(entry.config.name);
      const channel = new Channel(loaded, translators);
      fresh.push(channel);
      return channel;
    });
    const names = new Set(channels.map((channel) => channel.name));
    changes.removed = previous.filter((channel) => !names.has(channel.name)).map((channel) => channel.name);
    return { channels, fresh, changes };
  }

  #swap(next: GatewayConfig, built: BuiltChannels, previous: PipelineServices, translators: readonly Translator[]): void {
    const { breaker } = this.#parts;
    breaker.configure({ failureThreshold: next.routing.circuit_breaker.failure_threshold, cooldownMilliseconds: next.routing.circuit_breaker.cooldown_ms });
    // A removed channel's circuit means nothing now; a changed one talks to another upstream (or with another key).
    for (const name of [...built.changes.removed, ...built.changes.changed]) breaker.forget(name);
    this.#current = this.#parts.compose(next, built.channels, previous);
    this.#translators = translators;
    const inForce = new Set(built.channels);
    const providersInForce = new Set(built.channels.map((channel) => channel.provider));
    for (const channel of previous.channels) {
      if (inForce.has(channel)) continue;
      const provider = channel.provider;
      channel.retire(() => {
        if (providersInForce.has(provider) || provider.close === undefined) return;
        provider.close().catch((error: unknown) => this.#parts.error(error, `closing the provider of the retired channel ${channel.name} failed`));
      });
    }
  }

  /** Closes the providers built for a set of channels that was not swapped in. */
  async #discard(built: BuiltChannels | undefined): Promise<void> {
    if (built === undefined) return;
    await Promise.allSettled(built.fresh.map((channel) => channel.provider.close?.()));
  }
}

function distinctProviders(channels: readonly Channel[]) {
  return [...new Set(channels.map((channel) => channel.provider))];
}
