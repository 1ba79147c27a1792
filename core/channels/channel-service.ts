import type { FastifyBaseLogger } from 'fastify';
import { providerEntrySchema, type ProviderConfig } from '../config/config-schema.js';
import { conflict, notFound } from '../errors/error-codes.js';
import { quoted } from '../errors/client-text.js';
import type { KeyCipher } from '../security/key-cipher.js';
import { operatorSecrets, secretValuesOfChannel } from '../security/secret-values.js';
import type { StoreBackend } from '../store/store-backend.js';
import { fieldError, parseClientInput } from '../validation/parse-client-input.js';
import type { ChannelEntryCheck } from './channel-entry-check.js';
import type { ChannelRepository, ChannelSecretFields, StoredChannelRecord } from './channel-repository.js';
import { maskedChannelEntry, type MaskedChannelEntry } from './masked-channel-entry.js';

/** The store channel on which a change to the runtime channels is announced, so every instance reads them afresh. */
export const channelsChangedChannel = 'channels-changed';

/** Where a channel is defined: the config file (its source of truth) or the store (the channel API). */
export type ChannelSource = 'file' | 'store';

/** A channel as the service knows it: its whole entry (credentials included, for this process only), where it comes from, and whether it serves. */
export interface ListedChannel {
  entry: ProviderConfig;
  source: ChannelSource;
  enabled: boolean;
  /** Unix seconds; stored channels only. */
  created_time?: number;
  /** Unix seconds; stored channels only. */
  updated_time?: number;
}

/** A channel as a {@link ChannelChange} shows it: credentials masked. */
export interface MaskedChannel {
  entry: MaskedChannelEntry;
  source: ChannelSource;
  enabled: boolean;
}

/** Who made a change, as the management route knows them. */
export interface ChannelChangeAuthor {
  user_id: number;
  username: string;
  /** The client's address. */
  address: string;
}

/**
 * One change made through this instance's channel API, for an audit trail: what was done to
 * which channel, the channel before and after (absent for a creation's before and a
 * deletion's after), and by whom. Every credential in it is masked.
 */
export interface ChannelChange {
  action: 'create' | 'update' | 'delete' | 'enable' | 'disable';
  name: string;
  source: ChannelSource;
  before?: MaskedChannel;
  after?: MaskedChannel;
  by?: ChannelChangeAuthor;
}

/** What the service is built from. */
export interface ChannelServiceParts {
  repository: ChannelRepository;
  cipher: KeyCipher;
  backend: StoreBackend;
  /** The channels of the config file, in its order. */
  fileChannels: readonly ProviderConfig[];
  /** The config's group names: a channel may only name these. */
  groups: readonly string[];
  check: ChannelEntryCheck;
  logger: FastifyBaseLogger;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/** Who is told the channels that serve now: the file's and the store's, the disabled left out, in that order. */
export type EffectiveChannelsListener = (entries: readonly ProviderConfig[]) => void | Promise<void>;

const seconds = (milliseconds: number) => Math.floor(milliseconds / 1000);

/**
 * The channels of the config file and those created at runtime, one list. Stored channels
 * are created, changed and deleted here; any channel is enabled or disabled here (its state
 * is in the store, so a file channel drained stays drained across restarts). After each
 * change the instance reads the channels afresh at once and announces the change on
 * {@link channelsChangedChannel}, on which every other instance sharing the store does the same;
 * each then tells its {@link EffectiveChannelsListener}s, which swap the channels requests are
 * routed to.
 */
export class ChannelService {
  readonly #parts: ChannelServiceParts;
  readonly #fileNames: ReadonlySet<string>;
  readonly #effectiveListeners: EffectiveChannelsListener[] = [];
  readonly #changeListeners: Array<(change: ChannelChange) => void> = [];
  #effective: readonly ProviderConfig[];
  #queue: Promise<void> = Promise.resolve();
  #pending: Promise<void> | undefined;

  constructor(parts: ChannelServiceParts) {
    this.#parts = parts;
    this.#fileNames = new Set(parts.fileChannels.map((channel) => channel.name));
    this.#effective = parts.fileChannels;
  }

  /** Reads the channels once and listens for changes made on any instance. */
  async start(): Promise<void> {
    // Any message, a missed one (`missedMessages`) included, is answered the same way: read them all again.
    await this.#parts.backend.subscribe(channelsChangedChannel, () => {
      this.refresh().catch((error: unknown) => this.#parts.logger.error({ err: error }, 'could not read the runtime channels from the store; the ones serving stay'));
    });
    await this.refresh();
  }

  /** The channels that serve now (as last read), the file's first, in its order, then the stored ones, oldest first. */
  effectiveChannels(): readonly ProviderConfig[] {
    return this.#effective;
  }

  /** Calls `listener` with the serving channels each time they are read afresh after a change (not at once). */
  whenEffectiveChanges(listener: EffectiveChannelsListener): void {
    this.#effectiveListeners.push(listener);
  }

  /** Calls `listener` after each change made through this instance (an audit trail's hook); credentials are masked. */
  onChange(listener: (change: ChannelChange) => void): void {
    this.#changeListeners.push(listener);
  }

  /** Every channel, served or disabled: the file's in its order, then the stored ones, oldest first. */
  async list(): Promise<ListedChannel[]> {
    const [records, disabled] = await Promise.all([this.#parts.repository.list(), this.#parts.repository.disabledNames()]);
    const files: ListedChannel[] = this.#parts.fileChannels.map((entry) => ({ entry, source: 'file', enabled: !disabled.has(entry.name) }));
    const stored = records
      .filter((record) => !this.#fileNames.has(record.name))
      .sort((a, b) => a.created_time - b.created_time || a.name.localeCompare(b.name))
      .flatMap((record): ListedChannel[] => {
        const entry = this.#open(record);
        return entry === undefined ? [] : [{ entry, source: 'store', enabled: !disabled.has(record.name), created_time: record.created_time, updated_time: record.updated_time }];
      });
    return [...files, ...stored];
  }

  /** One channel; a 404 naming the channels there are when none has the name. */
  async get(name: string): Promise<ListedChannel> {
    const channels = await this.list();
    const found = channels.find((channel) => channel.entry.name === name);
    if (found !== undefined) return found;
    const names = channels.map((channel) => channel.entry.name);
    throw notFound(`name: no channel is named ${quoted(name)}; ${names.length === 0 ? 'there is none' : `the channels are ${names.join(', ')}`}`, 'channel_not_found');
  }

  /** Creates a stored channel from a checked entry (see {@link providerEntrySchema}); it serves at once unless `enabled` is false. */
  async create(entry: ProviderConfig, enabled: boolean, by?: ChannelChangeAuthor): Promise<ListedChannel> {
    if (this.#fileNames.has(entry.name)) {
      throw conflict(`name: ${quoted(entry.name)} is a channel of the config file, which is its source of truth; choose another name`, 'channel_exists', 'name');
    }
    if ((await this.#parts.repository.get(entry.name)) !== undefined) {
      throw conflict(`name: a channel named ${quoted(entry.name)} exists; change it with PUT /api/channel/, or choose another name`, 'channel_exists', 'name');
    }
    await this.#checkEntry(entry);
    const now = seconds(this.#parts.now());
    await this.#parts.repository.save(this.#seal(entry, now, now), !enabled);
    const after: ListedChannel = { entry, source: 'store', enabled, created_time: now, updated_time: now };
    await this.#changed({ action: 'create', name: entry.name, source: 'store', after: masked(after), by });
    return after;
  }

  /**
   * Changes a channel. A stored one takes any field of its entry but its name (a field left
   * out stays, `null` removes an optional one, `api_key` replaces `api_keys` and the other
   * way round); the result is checked as a new channel is. A file channel only takes
   * `enabled`: anything else is a 409 that points at the file.
   */
  async update(name: string, changes: Record<string, unknown>, enabled: boolean | undefined, by?: ChannelChangeAuthor): Promise<ListedChannel> {
    const before = await this.get(name);
    const changed = Object.keys(changes);
    if (before.source === 'file' && changed.length > 0) {
      throw conflict(
        `${changed[0]}: the channel ${quoted(name)} comes from the config file, which is its source of truth: change it there and reload; through the API only enabled is changed`,
        'channel_read_only',
        changed[0],
      );
    }
    let entry = before.entry;
    if (changed.length > 0) {
      const merged: Record<string, unknown> = { ...before.entry };
      if ('api_key' in changes) delete merged.api_keys;
      if ('api_keys' in changes) delete merged.api_key;
      for (const [field, value] of Object.entries(changes)) {
        if (value === null) delete merged[field];
        else merged[field] = value;
      }
      entry = parseClientInput(providerEntrySchema, merged);
      await this.#checkEntry(entry);
      const now = seconds(this.#parts.now());
      await this.#parts.repository.save(this.#seal(entry, before.created_time ?? now, now), enabled === undefined ? undefined : !enabled);
    } else if (enabled !== undefined && enabled !== before.enabled) {
      await this.#parts.repository.setDisabled(name, !enabled);
    }
    const after: ListedChannel = { ...before, entry, enabled: enabled ?? before.enabled, ...(changed.length > 0 ? { updated_time: seconds(this.#parts.now()) } : {}) };
    const action = changed.length > 0 ? 'update' : after.enabled === before.enabled ? undefined : after.enabled ? 'enable' : 'disable';
    if (action !== undefined) await this.#changed({ action, name, source: before.source, before: masked(before), after: masked(after), by });
    return after;
  }

  /** Deletes a stored channel; a file channel is a 409 that points at the file. Requests it is serving finish on it. */
  async delete(name: string, by?: ChannelChangeAuthor): Promise<void> {
    const before = await this.get(name);
    if (before.source === 'file') {
      throw conflict(`name: the channel ${quoted(name)} comes from the config file, which is its source of truth: remove it there and reload, or disable it here`, 'channel_read_only', 'name');
    }
    await this.#parts.repository.delete(name);
    await this.#changed({ action: 'delete', name, source: 'store', before: masked(before), by });
  }

  /**
   * Reads the channels from the store and tells the listeners. Reads run one at a time, and
   * calls while one runs share the next, so the last state read is the store's latest.
   */
  refresh(): Promise<void> {
    if (this.#pending !== undefined) return this.#pending;
    const next = this.#queue.then(() => {
      this.#pending = undefined;
      return this.#load();
    });
    this.#pending = next;
    this.#queue = next.catch(() => {});
    return next;
  }

  async #load(): Promise<void> {
    const channels = await this.list();
    this.#effective = channels.filter((channel) => channel.enabled).map((channel) => channel.entry);
    for (const listener of this.#effectiveListeners) await listener(this.#effective);
  }

  /** After a write: this instance reads the channels at once, then every other one is told. */
  async #changed(change: ChannelChange): Promise<void> {
    this.#parts.logger.info({ channel: change.name, action: change.action, by: change.by?.username }, 'channel changed');
    await this.refresh();
    await this.#parts.backend.publish(channelsChangedChannel, change.name);
    for (const listener of this.#changeListeners) {
      try {
        listener(change);
      } catch (error) {
        this.#parts.logger.error({ err: error }, 'a channel change listener failed');
      }
    }
  }

  /** What the entry's shape does not say: its groups exist, its plugin may be used and takes its options. */
  async #checkEntry(entry: ProviderConfig): Promise<void> {
    operatorSecrets.add(secretValuesOfChannel(entry));
    entry.groups.forEach((group, index) => {
      if (!this.#parts.groups.includes(group)) {
        throw fieldError(['groups', index], `unknown group ${quoted(group)}; the groups are ${this.#parts.groups.join(', ')} (defined under groups in the config file)`);
      }
    });
    const [problem] = await this.#parts.check(entry);
    if (problem !== undefined) throw fieldError(problem.path, problem.message);
  }

  #seal(entry: ProviderConfig, created: number, updated: number): StoredChannelRecord {
    const { api_key, api_keys, options, ...plain } = entry;
    const secrets: ChannelSecretFields = { api_key, api_keys, options };
    return { name: entry.name, plain, sealed: this.#parts.cipher.encrypt(JSON.stringify(secrets)), created_time: created, updated_time: updated };
  }

  /** The record's whole entry; undefined (and a warning) when it cannot be read with this encryption key. */
  #open(record: StoredChannelRecord): ProviderConfig | undefined {
    let secrets: ChannelSecretFields;
    try {
      secrets = JSON.parse(this.#parts.cipher.decrypt(record.sealed)) as ChannelSecretFields;
    } catch {
      this.#parts.logger.warn({ channel: record.name }, 'a stored channel was sealed with another encryption key; it is left out until security.encryption_key is the one it was created with');
      return undefined;
    }
    const entry: ProviderConfig = { ...record.plain, ...secrets };
    operatorSecrets.add(secretValuesOfChannel(entry));
    return entry;
  }
}

function masked(channel: ListedChannel): MaskedChannel {
  return { entry: maskedChannelEntry(channel.entry), source: channel.source, enabled: channel.enabled };
}
