import type { ProviderConfig } from '../config/config-schema.js';

/** The fields of a channel entry that hold or may hold a credential: sealed at rest, never answered in clear. */
export type ChannelSecretFields = Pick<ProviderConfig, 'api_key' | 'api_keys' | 'options'>;

/** A channel entry without {@link ChannelSecretFields}: what a stored record keeps in clear. */
export type ChannelPlainFields = Omit<ProviderConfig, keyof ChannelSecretFields>;

/**
 * A channel created through the channel API, as the store keeps it. Its key, keys and plugin
 * options are sealed together with the store's encryption key (`KeyCipher`), so reading the
 * raw store shows where a channel points but no credential.
 */
export interface StoredChannelRecord {
  name: string;
  /** Every field of the entry but {@link ChannelSecretFields}. */
  plain: ChannelPlainFields;
  /** JSON of the entry's {@link ChannelSecretFields}, sealed by `KeyCipher.encrypt`. */
  sealed: string;
  /** Unix seconds. */
  created_time: number;
  /** Unix seconds. */
  updated_time: number;
}

/** Where runtime channels and every channel's enabled state live. The service holds the rules; this holds only the data. */
export interface ChannelRepository {
  /** Every stored channel, in no particular order. */
  list(): Promise<StoredChannelRecord[]>;
  get(name: string): Promise<StoredChannelRecord | undefined>;
  /** Writes the record (new or replacing one of its name); with `disabled`, its enabled state too, in the same step. */
  save(record: StoredChannelRecord, disabled?: boolean): Promise<void>;
  /** Removes the record and its enabled state. */
  delete(name: string): Promise<void>;
  /** The names of the disabled channels, stored ones and the config file's alike. */
  disabledNames(): Promise<Set<string>>;
  setDisabled(name: string, disabled: boolean): Promise<void>;
}
