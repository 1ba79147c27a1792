import type { GatewayConfig, ProviderConfig } from '../config/config-schema.js';
import { redactSecrets } from './key-shapes.js';

/**
 * Values shorter than this are not scrubbed: a channel key of a few characters is no
 * credential worth the name, and hiding every occurrence of, say, `k1` would mangle every
 * message it happens to appear in.
 */
export const minimumSecretLength = 8;

const censored = '[redacted]';

/**
 * Names of fields that hold a credential (`secret_access_key`, `access_key_id`, `token`, `password`,
 * an `Authorization` header…): a provider's `options`, the audit trail's before and after. Core
 * knows no vendor's options, so it goes by name.
 */
export const secretOptionName = /key|secret|token|password|credential|authorization/i;

const escapeForPattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The ways a secret can be spelled where it leaks: as it is (also after `Bearer `), escaped
 * inside a JSON string (with and without `\/`), and percent-encoded in a URL or a form.
 */
function spellings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [secret, json, json.replaceAll('/', '\\/'), encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
}

/**
 * The operator's secrets by value: every channel key and credential the config holds, known
 * from the start so that anything leaving for a client or a log can be scrubbed of them,
 * whichever provider built it. One precompiled pattern matches every spelling of every value
 * (case-insensitively, so `%2f` and `%2F` both match); it is rebuilt only when values are added.
 */
export class SecretValues {
  readonly #values = new Set<string>();
  #pattern: RegExp | undefined;

  /** Adds values to hide; those under {@link minimumSecretLength} characters are ignored. */
  add(values: Iterable<string>): void {
    let added = false;
    for (const value of values) {
      if (value.length < minimumSecretLength || this.#values.has(value)) continue;
      this.#values.add(value);
      added = true;
    }
    if (!added) return;
    const alternatives = [...new Set([...this.#values].flatMap(spellings))].sort((a, b) => b.length - a.length).map(escapeForPattern);
    this.#pattern = new RegExp(alternatives.join('|'), 'gi');
  }

  /** `text` with every spelling of every value replaced by `[redacted]`; text without any is returned as it is. */
  scrub(text: string): string {
    if (!this.contains(text)) return text;
    return text.replace(this.#pattern!, censored);
  }

  /** Whether `text` holds any spelling of a value. */
  contains(text: string): boolean {
    if (this.#pattern === undefined) return false;
    this.#pattern.lastIndex = 0;
    return this.#pattern.test(text);
  }
}

/**
 * The secrets of this process: the values of every config an app was built from (see
 * {@link secretValuesOf}). Process-wide because the logger, built before any config is read,
 * must know them too; a secret of any config the process loaded stays secret.
 */
export const operatorSecrets = new SecretValues();

/**
 * Every secret value a config holds: each channel's `api_key` and `api_keys`, the string
 * values of its `options` whose names say they are credentials, the encryption key, the
 * users' login tokens, the OpenID client secret (`auth.oidc.client_secret`), and the password of
 * the storage URL (redis or postgres).
 */
export function secretValuesOf(config: GatewayConfig): string[] {
  const values = config.providers.flatMap(secretValuesOfChannel);
  values.push(config.security.encryption_key);
  for (const user of config.users) values.push(user.login_token);
  if (config.auth.oidc !== undefined) values.push(config.auth.oidc.client_secret);
  const storageUrl = config.storage.url;
  if (storageUrl !== undefined && URL.canParse(storageUrl)) {
    const password = new URL(storageUrl).password;
    if (password !== '') values.push(password, decodeURIComponent(password));
  }
  return values.filter((value) => value !== '');
}

/**
 * The secret values of one channel: its `api_key`, its `api_keys` and the string values of
 * its credential-named `options`. A channel added at runtime (the channel API) adds these to
 * {@link operatorSecrets} before it serves.
 */
export function secretValuesOfChannel(provider: Pick<ProviderConfig, 'api_key' | 'api_keys' | 'options'>): string[] {
  const values: string[] = [];
  if (provider.api_key !== undefined) values.push(provider.api_key);
  values.push(...(provider.api_keys ?? []));
  collectSecretOptions(provider.options, values, false);
  return values.filter((value) => value !== '');
}

/** Collects string values under credential-named keys, at any depth of the options. */
function collectSecretOptions(value: unknown, into: string[], named: boolean): void {
  if (typeof value === 'string') {
    if (named) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectSecretOptions(item, into, named);
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) collectSecretOptions(item, into, named || secretOptionName.test(name));
  }
}

/**
 * What may leave for a client or a log: `text` without any value of {@link operatorSecrets}
 * and without anything shaped like a key (see {@link redactSecrets}). Every upstream message
 * a client can read passes through here where it leaves the gateway (the error handler's
 * formatting, a stream's in-band error, a stored task failure), so no provider can bypass it.
 */
export function scrubSecrets(text: string): string {
  return redactSecrets(operatorSecrets.scrub(text));
}
