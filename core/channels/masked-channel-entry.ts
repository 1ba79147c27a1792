import type { ProviderConfig } from '../config/config-schema.js';
import { isSecretOptionName } from '../security/secret-values.js';
import { maskKey } from '../tokens/mask-key.js';

/** A channel entry as the channel API answers it and its change listeners hear it: every credential masked. */
export type MaskedChannelEntry = ProviderConfig;

/** Masks the string values under credential-named keys, at any depth, as the config's secret scan finds them. */
function maskedOptions(value: unknown, named: boolean): unknown {
  if (typeof value === 'string') return named ? maskKey(value) : value;
  if (Array.isArray(value)) return value.map((item) => maskedOptions(item, named));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskedOptions(item, named || isSecretOptionName(name))]));
  }
  return value;
}

/**
 * The entry with its `api_key`, each of its `api_keys` and its credential-named options
 * masked as token keys are in lists (first 4 characters, asterisks, last 4; a short one all
 * asterisks). Nothing an answer or a listener gets from here can be used as the credential.
 */
export function maskedChannelEntry(entry: ProviderConfig): MaskedChannelEntry {
  const { api_key, api_keys, options, ...plain } = entry;
  return {
    ...plain,
    ...(api_key === undefined ? {} : { api_key: maskKey(api_key) }),
    ...(api_keys === undefined ? {} : { api_keys: api_keys.map(maskKey) }),
    options: maskedOptions(options, false) as Record<string, unknown>,
  };
}
