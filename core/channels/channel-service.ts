import type { FastifyBaseLogger } from 'fastify';
import type { AuditActor } from '../audit/audit-record.js';
import { maskAuditValue } from '../audit/mask-audit-value.js';
import { formatConfigProblem, type ConfigProblem } from '../config/config-error.js';
import { providerEntrySchema, type ProviderConfig } from '../config/config-schema.js';
import { conflict, invalidRequest, notFound } from '../errors/error-codes.js';
import { quoted } from '../errors/client-text.js';
import type { KeyCipher } from '../security/key-cipher.js';
import { operatorSecrets, secretValuesOfChannel } from '../security/secret-values.js';
import type { StoreBackend } from '../store/store-backend.js';
import { fieldError, parseClientInput } from '../validation/parse-client-input.js';
import type { ChannelEntryCheck } from './channel-entry-check.js';
import { storedChannelField } from './channel-problems.js';
import type { ChannelRepository, ChannelSecretFields, StoredChannelRecord } from './channel-repository.js';

/** The store channel on which a change to the runtime channels is announced, so every instance reads them afresh. */
export const channelsChangedChannel = 'channels-changed';

/** Where a channel is defined: the config file (its source of truth) or the store (the channel API). */
export type ChannelOrigin = 'file' | 'store';

/** A channel as the service knows it: its whole entry (credentials included, for this process only), where it comes from, and whether it serves. */
export interface ListedChannel {
  entry: ProviderConfig;
  source: ChannelOrigin;
  enabled: boolean;
  /** Unix seconds; stored channels only. */
  created_time?: number;
  /** Unix seconds; stored channels only. */
  updated_time?: number;
}

/**
 * A channel entry as the channel API answers it and its change listeners hear it: `api_key`,
 * each of `api_keys` and every credential-named option masked, as the audit trail masks a
 * credential (all asterisks, or for one of 32 characters or more its first and last 4). Nothing
 * an answer or a listener gets from here can be used as the credential.
 */
export function maskedChannelEntry(entry: ProviderConfig): ProviderConfig {
  return maskAuditValue(entry) as ProviderConfig;
}

/** A channel as a {@link ChannelChange} shows it: credentials masked. */
export interface MaskedChannel {
  entry: ProviderConfig;
  source: ChannelOrigin;
  enabled: boolean;
}

/**
 * One change made through this instance's channel API, for an audit trail: what was done to
 * which channel, the channel before and after (absent for a creation's before and a
 * deletion's after), and by whom. Every credential in it is masked.
 */
export interface ChannelChange {
  action: 'create' | 'update' | 'delete' | 'enable' | 'disable';
  name: string;
  source: ChannelOrigin;
  before?: MaskedChannel;
  after?: MaskedChannel;
  /** Who made it (the management route's actor: user, address, request id). */
  by?: AuditActor;
}

/** What the service is built from. */
export interface ChannelServiceParts {
  repository: ChannelRepository;
  cipher: KeyCipher;
  backend: StoreBackend;
  /** The channels of the config file in force, in its order (a reload changes them). */
  fileChannels: () => readonly ProviderConfig[];
  /** The group names of the config in force: a channel may only name these. */
  groups: () => readonly string[];
  check: ChannelEntryCheck;
  logger: FastifyBaseLogger;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/**
 * Puts the channels {@link ChannelService.channelsFor} gives in force on this instance (the
 * gateway's reload seam) for the change `by` made (absent: another instance's), and answers the problems when the gateway refused them (a plugin that
 * failed to start, a model without a price): then nothing changed.
 */
export type ChannelApplier = (by?: AuditActor) => Promise<readonly ConfigProblem[]>;

const seconds = (milliseconds: number) => Math.floor(milliseconds / 1000);

/**
 * The channels of the config file and those created at runtime, one list. Stored channels
 * are created, changed and deleted here; any channel is enabled or disabled here (its state
 * is in the store, so a file channel drained stays drained across restarts). After each
 * change this instance puts the channels in force at once through its {@link ChannelApplier}
 * (a change the gateway refuses is undone and answered as a 400), then announces it on
 * {@link channelsChangedChannel}, on which every other instance sharing the store does the same.
 */
export class ChannelService {
  readonly #parts: ChannelServiceParts;
  readonly #changeListeners: Array<(change: ChannelChange) => void | Promise<void>> = [];
  #apply: ChannelApplier = async () => [];
  #changes: Promise<unknown> = Promise.resolve();

  constructor(parts: ChannelServiceParts) {
    this.#parts = parts;
  }

  /** How this instance puts changed channels in force; until it is set, changes are stored and announced only. */
  setApplier(applier: ChannelApplier): void {
    this.#apply = applier;
  }

  /** Listens for changes made on any instance (this one's included, which are in force already). */
  async start(): Promise<void> {
    // Any message, a missed one (`missedMessages`) included, is answered the same way: read them all again.
    await this.#parts.backend.subscribe(channelsChangedChannel, () => {
      this.#apply().then(
        (problems) => {
          if (problems.length > 0) this.#parts.logger.error({ problems: problems.map(formatConfigProblem) }, 'the channels changed on another instance were refused here; the ones serving stay');
        },
        (error: unknown) => this.#parts.logger.error({ err: error }, 'could not put the changed channels in force; the ones serving stay'),
      );
    });
  }

  /**
   * Calls `listener` after each change made through this instance, once it is in force (the
   * audit trail's hook), and answers the change only once the listener is done; credentials
   * are masked. A listener that fails fails the answer, though the change is made.
   */
  onChange(listener: (change: ChannelChange) => void | Promise<void>): void {
    this.#changeListeners.push(listener);
  }

  /**
   * The channels to serve beside the config file's `fileChannels`: those of the file, then
   * the stored ones, oldest first, the disabled left out. Read from the store on each call.
   */
  async channelsFor(fileChannels: readonly ProviderConfig[]): Promise<ProviderConfig[]> {
    return (await this.#listWith(fileChannels)).filter((channel) => channel.enabled).map((channel) => channel.entry);
  }

  /** Every channel, served or disabled: the file's in its order, then the stored ones, oldest first. */
  list(): Promise<ListedChannel[]> {
    return this.#listWith(this.#parts.fileChannels());
  }

  async #listWith(fileChannels: readonly ProviderConfig[]): Promise<ListedChannel[]> {
    const [records, disabled] = await Promise.all([this.#parts.repository.list(), this.#parts.repository.disabledNames()]);
    const fileNames = new Set(fileChannels.map((entry) => entry.name));
    const files: ListedChannel[] = fileChannels.map((entry) => ({ entry, source: 'file', enabled: !disabled.has(entry.name) }));
    const stored = records
      // The file is the source of truth: a stored channel whose name a reloaded file took is not served.
      .filter((record) => !fileNames.has(record.name))
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
  create(entry: ProviderConfig, enabled: boolean, by?: AuditActor): Promise<ListedChannel> {
    return this.#oneAtATime(() => this.#create(entry, enabled, by));
  }

  async #create(entry: ProviderConfig, enabled: boolean, by?: AuditActor): Promise<ListedChannel> {
    if (this.#parts.fileChannels().some((channel) => channel.name === entry.name)) {
      throw conflict(`name: ${quoted(entry.name)} is a channel of the config file, which is its source of truth; choose another name`, 'channel_exists', 'name');
    }
    if ((await this.#parts.repository.get(entry.name)) !== undefined) {
      throw conflict(`name: a channel named ${quoted(entry.name)} exists; change it with PUT /api/channel/, or choose another name`, 'channel_exists', 'name');
    }
    await this.#checkEntry(entry);
    const now = seconds(this.#parts.now());
    await this.#parts.repository.save(this.#seal(entry, now, now), !enabled);
    await this.#inForce(entry.name, by, () => this.#parts.repository.delete(entry.name));
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
  update(name: string, changes: Record<string, unknown>, enabled: boolean | undefined, by?: AuditActor): Promise<ListedChannel> {
    return this.#oneAtATime(() => this.#update(name, changes, enabled, by));
  }

  async #update(name: string, changes: Record<string, unknown>, enabled: boolean | undefined, by?: AuditActor): Promise<ListedChannel> {
    const before = await this.get(name);
    const changed = Object.keys(changes);
    if (before.source === 'file' && changed.length > 0) {
      throw conflict(
        `${changed[0]}: the channel ${quoted(name)} comes from the config file, which is its source of truth: change it there and reload; through the API only enabled is changed`,
        'channel_read_only',
        changed[0],
      );
    }
    const enabledAfter = enabled ?? before.enabled;
    let after: ListedChannel = { ...before, enabled: enabledAfter };
    if (changed.length > 0) {
      const merged: Record<string, unknown> = { ...before.entry };
      if ('api_key' in changes) delete merged.api_keys;
      if ('api_keys' in changes) delete merged.api_key;
      for (const [field, value] of Object.entries(changes)) {
        if (value === null) delete merged[field];
        else merged[field] = value;
      }
      const entry = parseClientInput(providerEntrySchema, merged);
      await this.#checkEntry(entry);
      const previous = await this.#parts.repository.get(name);
      const now = seconds(this.#parts.now());
      await this.#parts.repository.save(this.#seal(entry, before.created_time ?? now, now), !enabledAfter);
      await this.#inForce(name, by, async () => {
        if (previous !== undefined) await this.#parts.repository.save(previous, !before.enabled);
      });
      after = { ...after, entry, updated_time: now };
    } else if (enabledAfter !== before.enabled) {
      await this.#parts.repository.setDisabled(name, !enabledAfter);
      await this.#inForce(name, by, () => this.#parts.repository.setDisabled(name, !before.enabled));
    }
    const action = changed.length > 0 ? 'update' : after.enabled === before.enabled ? undefined : after.enabled ? 'enable' : 'disable';
    if (action !== undefined) await this.#changed({ action, name, source: before.source, before: masked(before), after: masked(after), by });
    return after;
  }

  /** Deletes a stored channel; a file channel is a 409 that points at the file. Requests it is serving finish on it. */
  delete(name: string, by?: AuditActor): Promise<void> {
    return this.#oneAtATime(() => this.#delete(name, by));
  }

  async #delete(name: string, by?: AuditActor): Promise<void> {
    const before = await this.get(name);
    if (before.source === 'file') {
      throw conflict(`name: the channel ${quoted(name)} comes from the config file, which is its source of truth: remove it there and reload, or disable it here`, 'channel_read_only', 'name');
    }
    const previous = await this.#parts.repository.get(name);
    await this.#parts.repository.delete(name);
    await this.#inForce(name, by, async () => {
      if (previous !== undefined) await this.#parts.repository.save(previous, !before.enabled);
    });
    await this.#changed({ action: 'delete', name, source: 'store', before: masked(before), by });
  }

  /**
   * Runs the changes made through this instance one after the other: a change the gateway
   * refuses is undone, and must not take a change made meanwhile with it.
   */
  #oneAtATime<Result>(change: () => Promise<Result>): Promise<Result> {
    const run = this.#changes.then(change);
    this.#changes = run.catch(() => {});
    return run;
  }

  /**
   * Puts the written change to channel `name` in force here. When the gateway refuses it,
   * `undo` puts the store back, the channels as they were are put in force again, and the
   * first problem is answered as a 400: naming the channel's field when it is about this
   * channel (`models[0]: "x" (channel c) has no price…`), else saying where it lies.
   */
  async #inForce(name: string, by: AuditActor | undefined, undo: () => Promise<void>): Promise<void> {
    const problems = await this.#apply(by);
    if (problems.length === 0) return;
    await undo();
    await this.#apply(by);
    const [first] = problems as [ConfigProblem, ...ConfigProblem[]];
    const field = storedChannelField(first, name);
    throw invalidRequest(field === undefined ? `the gateway refused the change: ${formatConfigProblem(first)}` : `${field}: ${first.message}`, { param: field });
  }

  /** After a change in force here: the listeners hear it, and every other instance is told. */
  async #changed(change: ChannelChange): Promise<void> {
    this.#parts.logger.info({ channel: change.name, action: change.action, by: change.by?.username }, 'channel changed');
    await this.#parts.backend.publish(channelsChangedChannel, change.name);
    for (const listener of this.#changeListeners) await listener(change);
  }

  /** What the entry's shape does not say: its groups exist, its plugin may be used and takes its options. */
  async #checkEntry(entry: ProviderConfig): Promise<void> {
    operatorSecrets.add(secretValuesOfChannel(entry));
    const groups = this.#parts.groups();
    entry.groups.forEach((group, index) => {
      if (!groups.includes(group)) throw fieldError(['groups', index], `unknown group ${quoted(group)}; the groups are ${groups.join(', ')} (defined under groups in the config file)`);
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
